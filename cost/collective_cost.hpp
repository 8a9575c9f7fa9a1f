// The price of communication: collectives (all_reduce, all_gather, reduce_scatter,
// broadcast, all_to_all) and the matmul + communication (MC2) kernels of torch_npu,
// for NpuCostModel (cost/cost_model.cpp), which calls price_collective for every op of
// kind `collective`. Not installed API.
//
// A collective's device time is an α-β model (docs/cost-model.md "Collectives",
// docs/reference/collectives-cost.md §3, §5):
//   comm.fixed_us + phases · steps · α + factor · S / (bw · efficiency)
// with S the bytes per rank (all_reduce: its input; all_gather: its result;
// reduce_scatter: its input), factor 2(p−1)/p for all_reduce and (p−1)/p for the
// others, one step per phase on a full mesh (910B) and p−1 on a ring, and bw the
// rank's links within a node (a group of p < links+1 ranks drives p−1 of them) or
// its NIC across nodes. An MC2 kernel pipelines its matmul against the collective:
// max(T_mm, T_comm) + (1 − overlap) · min(T_mm, T_comm) with T_comm made
// comm.mc2.comm_slowdown slower, and no overlap below comm.mc2.min_split_rows rows
// (the kernel does not cut the matmul then).
#pragma once
#include <cstdint>
#include <string>

#include "cost/comm_params.hpp"
#include "cost/cost_model.hpp"

namespace eqfuse::cost_detail {

// What the matmul part of an MC2 kernel runs at (from NpuCostModel's parameters).
struct MatmulRates {
  double peak_tflops = 0;  // the cube peak for the matmul's input dtype
  double efficiency = 0;   // eff_cube
  double bytes_per_us = 0;
  double overlap = 0;   // of memory and compute, as for any kernel
  double fixed_us = 0;  // t_dev_fixed_us.cube: the matmul's ramp-up and tail
};

// Fills the device side of `c` (already holding launch, host and bytes from the
// plain kernel price) for the collective `q`: device_us = launch_us + fixed_us +
// compute_us, where fixed_us is the communication's startup (0 for an MC2 kernel) and
// compute_us the rest of it (an MC2 kernel's whole pipelined time), memory_us 0 (the
// traffic runs under the communication), flops (an MC2 kernel's matmul), total_us and a
// note saying what was priced ("all_reduce of 256 KiB over 8 ranks: 19.6 µs").
void price_collective(CostBreakdown& c, const CostQuery& q, const SymbolHints& hints,
                      const CommParams& comm, const MatmulRates& mm_rates);

// Time of the communication alone, µs (exposed for tests and reports). `pattern`
// is one of "all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all".
double comm_time_us(const CommParams& comm, std::string_view pattern, double bytes_per_rank,
                    int64_t ranks);

}  // namespace eqfuse::cost_detail
