// Private to the reference interpreter: the rendezvous behind run_tensor_parallel
// (interp/collectives.hpp). Each rank thread reaches the group's collectives in
// graph order; exchange() blocks a rank until every rank has contributed to the
// same collective, then hands each its part of the result. The collective
// kernels (interp/kernels_collectives.cpp) find their rank through
// current_rank(), set for the thread by run_tensor_parallel.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "base/diagnostics.hpp"
#include "interp/tensor.hpp"

namespace eqfuse {

// Thrown on the ranks that were waiting when another rank failed: the error
// that matters is that rank's own.
struct GroupAborted : Error {
  using Error::Error;
};

class SimulatedGroup {
 public:
  // From all ranks' contributions (index = rank), every rank's result.
  using Combine = std::function<std::vector<Tensor>(std::span<const Tensor> contributions)>;

  explicit SimulatedGroup(int world_size) : world_size_(world_size) {}
  int world_size() const { return world_size_; }

  // Rank `rank`'s turn at its next collective. `what` names the node and op;
  // every rank must name the same one (else every rank fails). The last rank
  // to arrive runs `combine` once; each rank returns its own result.
  Tensor exchange(int rank, const std::string& what, Tensor mine, const Combine& combine);

  // A rank stopped (failed, or finished its graph): ranks waiting at a
  // collective it can no longer reach fail with GroupAborted.
  void abort(const std::string& why);
  void finished(int rank);

 private:
  struct Round {
    std::string what;
    std::vector<Tensor> contributions;
    std::vector<Tensor> results;
    int arrived = 0, collected = 0;
    bool done = false;
  };
  void fail_locked(const std::string& why);

  int world_size_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::map<int64_t, Round> rounds_;  // by collective sequence number
  std::map<int, int64_t> next_round_;
  int finished_ = 0;
  std::string failure_;  // non-empty once the group is aborted
};

struct RankContext {
  SimulatedGroup* group = nullptr;
  int rank = 0;
};

// The calling thread's rank in a simulated group, or null outside one.
const RankContext* current_rank();
// Sets it for the calling thread while alive.
class RankScope {
 public:
  explicit RankScope(const RankContext* rank);
  ~RankScope();
  RankScope(const RankScope&) = delete;
  RankScope& operator=(const RankScope&) = delete;

 private:
  const RankContext* previous_;
};

}  // namespace eqfuse
