// Writes the decoder-stack workload (bench/workloads/decoder_stack.hpp) as an
// FX file, for timing `eqfuse optimize` end to end as a user runs it:
//
//   build/bench/gen_decoder_stack 1000 > /tmp/stack1000.fx
//   /usr/bin/time -v build/eqfuse optimize /tmp/stack1000.fx -o /dev/null
//
// Usage: gen_decoder_stack BLOCKS [HIDDEN [TOKENS]]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/workloads/decoder_stack.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: gen_decoder_stack BLOCKS [HIDDEN [TOKENS]]\n");
    return 2;
  }
  eqfuse::workloads::DecoderStackOptions o;
  o.blocks = std::atoi(argv[1]);
  if (argc > 2) o.hidden = std::atoi(argv[2]);
  if (argc > 3) o.tokens = argv[3];
  if (o.blocks < 1 || o.hidden < 1) {
    std::fprintf(stderr, "gen_decoder_stack: BLOCKS and HIDDEN must be positive\n");
    return 2;
  }
  const std::string fx = eqfuse::workloads::decoder_stack_fx(o);
  std::fwrite(fx.data(), 1, fx.size(), stdout);
  return 0;
}
