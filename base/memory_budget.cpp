#include "base/memory_budget.hpp"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

constexpr double kMaxBytes = 4611686018427387904.0;  // 2^62

size_t page_size() {
  const long p = ::sysconf(_SC_PAGESIZE);
  return p > 0 ? static_cast<size_t>(p) : 4096;
}

// The first number in `path`, or 0 ("max" and unreadable files read as 0).
size_t number_in_file(const char* path) {
  std::ifstream in(path);
  unsigned long long v = 0;
  if (!(in >> v)) return 0;
  return static_cast<size_t>(v);
}

size_t cgroup_limit_bytes() {
  if (size_t v2 = number_in_file("/sys/fs/cgroup/memory.max"); v2 != 0) return v2;
  const size_t v1 = number_in_file("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  // v1 writes "no limit" as a huge page-rounded number.
  return v1 >= (size_t{1} << 60) ? 0 : v1;
}

}  // namespace

size_t resident_memory_bytes() {
  // statm: size resident shared text lib data dt (pages). fopen/fscanf: no
  // iostream state, no allocation beyond the FILE.
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  const int got = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return got == 2 ? static_cast<size_t>(resident) * page_size() : 0;
}

size_t available_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  size_t physical = pages > 0 ? static_cast<size_t>(pages) * page_size() : 0;
  const size_t cgroup = cgroup_limit_bytes();
  if (cgroup != 0 && (physical == 0 || cgroup < physical)) physical = cgroup;
  return physical;
}

size_t default_memory_limit_bytes() {
  return available_memory_bytes() / 4 * 3;
}

bool memory_limit_reached(size_t limit_bytes) {
  return limit_bytes != 0 && resident_memory_bytes() > limit_bytes;
}

size_t parse_memory_size(std::string_view text, std::string_view what) {
  auto bad = [&](std::string_view why) -> Error {
    return Error(
        fmt::format("{}: expected a size such as 8G, 512M or a number of bytes, got "
                    "'{}'{}",
                    what, text, why));
  };
  std::string number;
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    number += text[i++];
  if (number.empty() || number == ".") throw bad("");
  std::string unit(text.substr(i));
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.ends_with("IB"))
    unit.resize(unit.size() - 2);
  else if (unit.size() > 1 && unit.ends_with("B"))
    unit.pop_back();
  double scale = 1;
  if (unit == "K")
    scale = 1024.0;
  else if (unit == "M")
    scale = 1024.0 * 1024;
  else if (unit == "G")
    scale = 1024.0 * 1024 * 1024;
  else if (unit == "T")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty() && unit != "B")
    throw bad(fmt::format(" (unknown unit '{}')", unit));
  double value = 0;
  try {
    value = std::stod(number);
  } catch (const std::exception&) {
    throw bad("");
  }
  const double bytes = value * scale;
  if (!std::isfinite(bytes) || bytes > kMaxBytes) throw bad(" (more than 2^62 bytes)");
  return static_cast<size_t>(bytes);
}

std::string format_memory_size(size_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.2f} GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
  if (b >= 1024.0) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{} B", bytes);
}

}  // namespace eqfuse
