// Small helpers shared by the e-graph engine's tests (tests/egraph/).
#pragma once
#include <cstddef>
#include <string_view>

#include "egraph/runner.hpp"
#include "egraph/symbol.hpp"

namespace eqfuse::test {

inline Symbol sym(std::string_view s) {
  return Symbol::intern(s);
}

// The simple scheduler (no bans) for `iterations` iterations.
inline RunnerConfig simple_config(std::size_t iterations = 30) {
  RunnerConfig cfg;
  cfg.scheduler.kind = SchedulerConfig::Kind::Simple;
  cfg.limits.iterations = iterations;
  return cfg;
}

}  // namespace eqfuse::test
