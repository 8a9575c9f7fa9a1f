// Writing an output file all at once: the text goes to a temporary file in
// the same directory, which is renamed over the destination only when every
// byte is written and flushed. A failure part way (disk full, a signal, an
// exception while formatting) leaves the old file, or none, never a
// truncated one.
//
//   write_file_atomically("out.fx", print_fx(g, &reg));
//
// Destinations that are not regular files (/dev/null, /dev/stdout, a FIFO)
// are written in place: renaming over them would replace the device. A
// symbolic link is followed, so the file it names is replaced, not the link.
#pragma once
#include <string>
#include <string_view>

namespace eqfuse {

// Throws eqfuse::Error naming `path` and the system's reason on failure; the
// temporary is removed then.
void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace eqfuse
