// run_tensor_parallel and the simulated group's rendezvous (interp/simulated_group.hpp).
#include "interp/collectives.hpp"

#include <exception>
#include <thread>

#include <fmt/format.h>

#include "interp/simulated_group.hpp"

namespace eqfuse {
namespace {

thread_local const RankContext* t_rank = nullptr;

void check_rank_options(std::span<const InterpreterOptions> rank_options, size_t world) {
  if (rank_options.size() != 1 && rank_options.size() != world)
    throw Error(fmt::format("{} interpreter options for {} ranks", rank_options.size(), world));
  if (rank_options.size() == 1 && world > 1 && rank_options[0].opaque_calls != nullptr)
    throw Error("an opaque-call ledger answers one run: give each rank its own options");
}

}  // namespace

const RankContext* current_rank() {
  return t_rank;
}

RankScope::RankScope(const RankContext* rank) : previous_(t_rank) {
  t_rank = rank;
}
RankScope::~RankScope() {
  t_rank = previous_;
}

void SimulatedGroup::fail_locked(const std::string& why) {
  if (failure_.empty()) failure_ = why;
  ready_.notify_all();
}

Tensor SimulatedGroup::exchange(int rank, const std::string& what, Tensor mine,
                                const Combine& combine) {
  std::unique_lock lock(mutex_);
  if (!failure_.empty()) throw GroupAborted(failure_);
  if (finished_ > 0)
    fail_locked(fmt::format("rank {} reached {}, which a rank that finished its graph never did",
                            rank, what));
  if (!failure_.empty()) throw GroupAborted(failure_);
  const int64_t seq = next_round_[rank]++;
  Round& round = rounds_[seq];
  if (round.arrived == 0) {
    round.what = what;
    round.contributions.resize(static_cast<size_t>(world_size_));
  } else if (round.what != what) {
    fail_locked(fmt::format("the ranks disagree on collective {}: one runs {}, rank {} runs {}",
                            seq, round.what, rank, what));
    throw GroupAborted(failure_);
  }
  round.contributions[static_cast<size_t>(rank)] = std::move(mine);
  if (++round.arrived == world_size_) {
    try {
      round.results = combine(round.contributions);
    } catch (const std::exception& e) {
      fail_locked(fmt::format("{}: {}", what, e.what()));
      throw;
    }
    round.contributions.clear();
    round.done = true;
    ready_.notify_all();
  } else {
    ready_.wait(lock, [&] { return round.done || !failure_.empty(); });
    if (!round.done) throw GroupAborted(failure_);
  }
  Tensor result = std::move(round.results[static_cast<size_t>(rank)]);
  if (++round.collected == world_size_) rounds_.erase(seq);
  return result;
}

void SimulatedGroup::abort(const std::string& why) {
  std::lock_guard lock(mutex_);
  fail_locked(why);
}

void SimulatedGroup::finished(int rank) {
  std::lock_guard lock(mutex_);
  ++finished_;
  for (const auto& [seq, round] : rounds_)
    if (!round.done) {
      fail_locked(
          fmt::format("rank {} finished its graph while other ranks wait at {}", rank, round.what));
      return;
    }
}

std::vector<RunResult> run_tensor_parallel(const OpRegistry& registry,
                                           std::span<const InterpreterOptions> rank_options,
                                           const Graph& graph,
                                           std::span<const std::vector<RuntimeValue>> rank_inputs,
                                           const SymBindings& bindings) {
  const int world = static_cast<int>(rank_inputs.size());
  if (world < 1) throw Error("a tensor-parallel run needs at least one rank");
  check_rank_options(rank_options, rank_inputs.size());
  SimulatedGroup group(world);
  std::vector<RunResult> results(rank_inputs.size());
  std::vector<std::exception_ptr> errors(rank_inputs.size());
  auto run_rank = [&](int rank) {
    const size_t r = static_cast<size_t>(rank);
    RankContext context{&group, rank};
    RankScope scope(&context);
    try {
      const InterpreterOptions& options = rank_options[rank_options.size() == 1 ? 0 : r];
      results[r] = Interpreter(registry, options).run(graph, rank_inputs[r], bindings);
      group.finished(rank);
    } catch (const GroupAborted&) {
      errors[r] = std::current_exception();
    } catch (const std::exception& e) {
      errors[r] = std::current_exception();
      group.abort(fmt::format("rank {} failed: {}", rank, e.what()));
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(rank_inputs.size());
  for (int rank = 1; rank < world; ++rank) threads.emplace_back(run_rank, rank);
  run_rank(0);
  for (std::thread& t : threads) t.join();
  // The first rank's own failure is the one to report; a rank that only saw
  // the group abort says so when no rank failed on its own.
  std::exception_ptr aborted;
  for (std::exception_ptr& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const GroupAborted&) {
      if (!aborted) aborted = e;
    } catch (...) {
      throw;
    }
  }
  if (aborted) std::rethrow_exception(aborted);
  return results;
}

}  // namespace eqfuse
