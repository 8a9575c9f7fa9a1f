// Entry point of the `eqfuse` command-line tool (placeholder until the CLI
// issue work lands; see cli/README.md).
#include <cstdio>

int main() {
  std::puts("eqfuse: skeleton");
  return 0;
}
