#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail_write(const std::string& path, int err) {
  throw Error(fmt::format("cannot write '{}': {}", path, std::strerror(err)));
}

void write_in_place(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) fail_write(path, errno);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  if (!out) throw Error(fmt::format("cannot write '{}': write error", path));
}

// Writes all of `text` to `fd`, retrying short writes and EINTR; the errno of
// the failure, or 0.
int write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

// The permissions the new file gets: the old file's, else what a plain
// create would give (0666 less the umask).
mode_t permissions_for(const std::string& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view text) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // follows links
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    write_in_place(path, text);
    return;
  }
  // Through a link: replace the file it names (a missing target is created).
  const std::string target =
      fs::is_symlink(fs::symlink_status(path, ec)) ? fs::weakly_canonical(path, ec).string() : path;
  const fs::path dir = fs::path(target).parent_path();
  const std::string name = fmt::format(".{}.eqfuse-XXXXXX", fs::path(target).filename().string());
  std::string tmp = ((dir.empty() ? fs::path(".") : dir) / name).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) fail_write(path, errno);
  int err = write_all(fd, text);
  if (err == 0 && ::fchmod(fd, permissions_for(target)) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), target.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    fail_write(path, err);
  }
}

}  // namespace eqfuse
