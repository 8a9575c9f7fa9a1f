// How much memory a run may take, and how much the process holds now.
//
//   size_t limit = default_memory_limit_bytes();       // 3/4 of what the machine gives us
//   size_t mine = parse_memory_size("12G", "--memory-limit");
//   if (memory_limit_reached(limit)) { /* stop with the best result so far */ }
//
// The check reads the process's resident set (/proc/self/statm): one small
// read, cheap enough per saturation iteration or interpreted node, and it
// counts everything (e-graph, extraction problem, tensors, the graph copies),
// which no per-structure estimate does. The default limit is 3/4 of the
// physical memory, or of the cgroup's limit when a container sets a smaller
// one, so eqfuse stops with a message before the kernel's OOM killer stops it
// without one.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace eqfuse {

// Resident memory of this process in bytes; 0 where it cannot be read.
size_t resident_memory_bytes();

// Physical memory, or the cgroup (v2 memory.max, v1 limit_in_bytes) limit
// when smaller; 0 if unknown.
size_t available_memory_bytes();

// 3/4 of available_memory_bytes(); 0 (no limit) when that is unknown.
size_t default_memory_limit_bytes();

// True when `limit_bytes` is set (non-zero) and the resident memory exceeds it.
bool memory_limit_reached(size_t limit_bytes);

// "8G", "512M", "1.5GiB", "100000000" (bytes), "0" (no limit); K/M/G/T are
// powers of 1024, with or without "iB"/"B". Throws eqfuse::Error naming
// `what` for anything else, for a negative value or one past 2^62.
size_t parse_memory_size(std::string_view text, std::string_view what);

// "1.50 GiB", "512.0 MiB", "900 B": for messages.
std::string format_memory_size(size_t bytes);

}  // namespace eqfuse
