// The communication parameters of a device profile (its optional comm.* entries),
// resolved once: what a collective costs on the links of that device
// (cost/collective_cost.hpp prices it; docs/cost-model.md "Collectives" lists them
// with their sources in docs/reference/collectives-cost.md §5).
//
//   CommParams comm = comm_params_of(load_device_profile("ascend910b2"));
//   comm.world_size  // ranks of an all_reduce whose group size the graph does not give
#pragma once

#include "cost/device_profile.hpp"

namespace eqfuse {

struct CommParams {
  double world_size = 8;       // comm.world_size: ranks of a group the op does not size itself
  double fixed_us = 15;        // comm.fixed_us: device-side startup of one collective
  double latency_us = 0.5;     // comm.latency_us: α, per step within a node
  double intra_bw_gbps = 196;  // comm.intra.bw_gbps: a rank's links within a node, one way
  double intra_links = 7;      // comm.intra.links: full-mesh links per rank (0: a switch)
  double efficiency = 0.65;    // comm.algorithm_efficiency
  double ring = 0;             // comm.ring: 1 = p−1 steps per phase; 0 = one (mesh, switch)
  double node_size = 8;        // comm.node_size: ranks one node holds
  double inter_bw_gbps = 25, inter_latency_us = 1.5, inter_efficiency = 0.9;  // comm.inter.*
  double mc2_overlap = 0.8;         // comm.overlap.mc2: share of min(T_mm, T_comm) hidden
  double mc2_comm_slowdown = 1.15;  // comm.mc2.comm_slowdown
  double mc2_min_split_rows = 256;  // comm.mc2.min_split_rows: no pipelining below
};

CommParams comm_params_of(const DeviceProfile& profile);

}  // namespace eqfuse
