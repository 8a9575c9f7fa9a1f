#include "egraph/runner.hpp"

#include <algorithm>
#include <thread>

#include "base/memory_budget.hpp"

namespace eqfuse {

std::string_view stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::Saturated:
      return "Saturated";
    case StopReason::IterationLimit:
      return "IterationLimit";
    case StopReason::NodeLimit:
      return "NodeLimit";
    case StopReason::TimeLimit:
      return "TimeLimit";
    case StopReason::MemoryLimit:
      return "MemoryLimit";
  }
  return "?";
}

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}
}  // namespace

double Runner::elapsed() const {
  return seconds_since(start_);
}

std::optional<StopReason> Runner::check_limits(size_t iteration) const {
  const RunnerLimits& lim = config_.limits;
  if (iteration >= lim.iterations) return StopReason::IterationLimit;
  if (g_.num_nodes() >= lim.nodes) return StopReason::NodeLimit;
  if (elapsed() > lim.seconds) return StopReason::TimeLimit;
  if (lim.memory_bytes != 0 && g_.approx_memory_bytes() > lim.memory_bytes) {
    return StopReason::MemoryLimit;
  }
  if (memory_limit_reached(lim.process_memory_bytes)) return StopReason::MemoryLimit;
  return std::nullopt;
}

void Runner::search_all(const std::vector<Rewrite>& rules, size_t iteration,
                        std::vector<std::vector<Id>>& results, IterationReport& it) {
  bool backoff = config_.scheduler.kind == SchedulerConfig::Kind::Backoff;
  auto search_one = [&](size_t i) {
    // Growing by doubling copies a rule's matches (millions of ids when
    // saturating) into fresh pages at every step. When the buffer has less
    // than twice the last iteration's count, reserve address space for four
    // times it (pages are only touched as matches arrive); otherwise keep
    // the buffer, whose pages are already mapped.
    size_t last = results[i].size();
    results[i].clear();
    if (results[i].capacity() < 2 * last) results[i].reserve(4 * last);
    RuleState& st = state_[i];
    if (st.disabled || (backoff && st.banned_until > iteration)) {
      it.rules[i].banned = !st.disabled;
      return;
    }
    size_t limit =
        backoff ? (st.match_limit << st.times_banned) : std::numeric_limits<size_t>::max();
    uint32_t since = st.semi_naive ? st.applied_epoch : 0;
    it.rules[i].matches = rules[i].searcher().search(g_, results[i], limit, since);
  };
  unsigned threads = std::min<unsigned>(config_.threads, static_cast<unsigned>(rules.size()));
  if (threads <= 1) {
    for (size_t i = 0; i < rules.size(); ++i) search_one(i);
  } else {
    // Static round-robin partition: each rule is searched by exactly one
    // thread into its own slot, so results do not depend on timing.
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (size_t i = t; i < rules.size(); i += threads) search_one(i);
      });
    }
    for (auto& th : pool) th.join();
  }
  if (!backoff) return;
  for (size_t i = 0; i < rules.size(); ++i) {
    RuleState& st = state_[i];
    if (it.rules[i].banned || st.disabled) continue;
    if (it.rules[i].matches > (st.match_limit << st.times_banned)) {
      st.banned_until = iteration + (st.ban_length << st.times_banned);
      ++st.times_banned;
      it.rules[i].banned = true;
      results[i].clear();
    }
  }
}

std::optional<StopReason> Runner::apply_all(const std::vector<Rewrite>& rules,
                                            std::vector<std::vector<Id>>& results,
                                            IterationReport& it, RunReport& report) {
  for (size_t i = 0; i < rules.size(); ++i) {
    size_t applied_here = 0;
    std::optional<StopReason> stop =
        rules[i].conditions().empty()
            ? apply_unconditional(rules[i], state_[i].egraph_rule_id, results[i], applied_here)
            : apply_conditional(rules[i], state_[i].egraph_rule_id, results[i], applied_here,
                                report.rules[i]);
    it.rules[i].applications = applied_here;
    if (stop) return stop;
    if (!it.rules[i].banned) state_[i].applied_epoch = g_.epoch();
  }
  return std::nullopt;
}

// The limits are checked as if after every match: nodes after each one (so
// the limit is overshot by at most one right side), time after every 1024th.
std::optional<StopReason> Runner::apply_unconditional(const Rewrite& rw, uint32_t rule_id,
                                                      const std::vector<Id>& ms, size_t& applied) {
  const RunnerLimits& lim = config_.limits;
  const size_t stride = rw.searcher().stride();
  for (size_t off = 0; off < ms.size(); off += kTimeCheckEvery * stride) {
    size_t len = std::min(kTimeCheckEvery * stride, ms.size() - off);
    Rewrite::Applied done = rw.apply_matches(g_, {ms.data() + off, len}, rule_id, lim.nodes);
    applied += done.unions;
    if (g_.num_nodes() >= lim.nodes) return StopReason::NodeLimit;
    if (len == kTimeCheckEvery * stride && elapsed() > lim.seconds) return StopReason::TimeLimit;
  }
  return std::nullopt;
}

std::optional<StopReason> Runner::apply_conditional(const Rewrite& rw, uint32_t rule_id,
                                                    const std::vector<Id>& ms, size_t& applied,
                                                    RuleTotals& totals) {
  const RunnerLimits& lim = config_.limits;
  const size_t stride = rw.searcher().stride();
  for (size_t off = 0, k = 0; off < ms.size(); off += stride, ++k) {
    std::span<const Id> match(ms.data() + off, stride);
    int failed = rw.failing_condition(g_, match);
    if (failed >= 0) {
      ++totals.condition_failures[failed];
      continue;
    }
    applied += rw.apply_match(g_, match, rule_id);
    if (g_.num_nodes() >= lim.nodes) return StopReason::NodeLimit;
    if (k % kTimeCheckEvery == kTimeCheckEvery - 1 && elapsed() > lim.seconds)
      return StopReason::TimeLimit;
  }
  return std::nullopt;
}

RunReport Runner::run(const std::vector<Rewrite>& rules) {
  start_ = Clock::now();
  RunReport report;
  report.rules.resize(rules.size());
  state_.assign(rules.size(), {});
  const SchedulerConfig& sc = config_.scheduler;
  for (size_t i = 0; i < rules.size(); ++i) {
    RuleState& st = state_[i];
    st.match_limit = sc.match_limit;
    st.ban_length = sc.ban_length;
    if (auto o = sc.overrides.find(rules[i].name()); o != sc.overrides.end()) {
      if (o->second.match_limit != 0) st.match_limit = o->second.match_limit;
      if (o->second.ban_length != 0) st.ban_length = o->second.ban_length;
      st.disabled = o->second.disabled;
    }
    st.semi_naive =
        config_.semi_naive && rules[i].conditions().empty() && !rules[i].has_custom_applier();
    st.egraph_rule_id = g_.register_rule(rules[i].name(), rules[i].subst_vars());
    report.rules[i].condition_failures.assign(rules[i].conditions().size(), 0);
  }
  // Saturation grows the node arrays by doubling: reserving up front saves
  // the copies (the memory is only touched as nodes arrive).
  constexpr size_t kReserveCap = size_t{1} << 19;
  g_.reserve(std::min(config_.limits.nodes, kReserveCap));
  g_.rebuild();
  std::vector<std::vector<Id>> results(rules.size());

  for (size_t iteration = 0;; ++iteration) {
    if (auto stop = check_limits(iteration)) {
      report.stop = *stop;
      break;
    }
    IterationReport it;
    it.rules.resize(rules.size());
    uint64_t version_before = g_.version();

    auto t0 = Clock::now();
    search_all(rules, iteration, results, it);
    it.search_seconds = seconds_since(t0);

    // Changes made from here on carry a stamp the next search sees as new.
    g_.advance_epoch();
    auto t1 = Clock::now();
    std::optional<StopReason> stop = apply_all(rules, results, it, report);
    it.apply_seconds = seconds_since(t1);

    auto t2 = Clock::now();
    it.rebuild_unions = g_.rebuild();
    it.rebuild_seconds = seconds_since(t2);

    it.enodes = g_.num_nodes();
    it.eclasses = g_.num_classes();
    for (size_t i = 0; i < rules.size(); ++i) {
      report.rules[i].matches += it.rules[i].matches;
      report.rules[i].applications += it.rules[i].applications;
      if (it.rules[i].banned) ++report.rules[i].times_banned;
    }
    report.search_seconds += it.search_seconds;
    report.apply_seconds += it.apply_seconds;
    report.rebuild_seconds += it.rebuild_seconds;
    report.iterations.push_back(std::move(it));
    if (stop) {
      report.stop = *stop;
      break;
    }
    if (g_.version() == version_before) {
      bool any_banned = false;
      for (RuleState& st : state_) {
        if (st.banned_until > iteration) {
          any_banned = true;
          st.banned_until = 0;  // nothing else to do: lift the ban early
        }
      }
      if (!any_banned || sc.kind == SchedulerConfig::Kind::Simple) {
        report.stop = StopReason::Saturated;
        break;
      }
    }
  }
  report.seconds = elapsed();
  for (size_t i = 0; i < rules.size(); ++i) {
    for (size_t c = 0; c < rules[i].conditions().size(); ++c) {
      size_t n = report.rules[i].condition_failures[c];
      if (n != 0) {
        report.condition_failures[rules[i].name() + "/" + rules[i].conditions()[c].name] += n;
      }
    }
  }
  return report;
}

}  // namespace eqfuse
