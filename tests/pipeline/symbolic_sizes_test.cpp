// ctest-label: unit
// Which size reads extraction may choose (pipeline/symbolic_sizes.hpp): one read from a
// graph input per symbolic class, the others skipped; classes with no such read keep all.
#include "pipeline/symbolic_sizes.hpp"

#include <gtest/gtest.h>

#include "tests/support/loaded_egraph.hpp"

namespace eqfuse {
namespace {

// As optimize loads: classes holding one symbolic int merged.
struct Loaded : testing_support::LoadedEGraphOf {
  explicit Loaded(std::string_view text) : LoadedEGraphOf(text, {.merge_symbolic_ints = true}) {}
};

// `a` reads s0 from a computed tensor, `b` from the input x: after the merge both are one
// class, and only the read of x may be extracted, priced as free.
TEST(SymbolicSizes, ReadsOfComputedTensorsAreSkippedWhereAnInputHasTheSize) {
  Loaded l(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[s0, 8]", y: "f16[s0, 8]"):
        add: "f16[s0, 8]" = torch.ops.aten.add.Tensor(x, y)
        a = torch.ops.aten.sym_size.int(add, 0)
        b = torch.ops.aten.sym_size.int(x, 0)
        return (a, b)
)");
  ASSERT_EQ(l.cls("a"), l.cls("b"));
  SizeReadChoice c = choose_size_reads(l.g, l.types);
  EXPECT_TRUE(c.skipped.contains(l.node_of("a")));
  EXPECT_FALSE(c.skipped.contains(l.node_of("b")));
  EXPECT_EQ(c.kept, (absl::flat_hash_set<Id>{l.node_of("b")}));
}

// A size only a computed tensor has (the matmul's s0 * s1 product is read from the
// product itself) keeps every read: nothing else could compute it.
TEST(SymbolicSizes, ClassesWithoutAReadOfAnInputKeepTheirNodes) {
  Loaded l(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[s0, s1, 8]"):
        v: "f16[s0*s1, 8]" = torch.ops.aten.reshape.default(x, [-1, 8])
        r = torch.ops.aten.relu.default(v)
        n = torch.ops.aten.sym_size.int(r, 0)
        return (n,)
)");
  SizeReadChoice c = choose_size_reads(l.g, l.types);
  EXPECT_FALSE(c.skipped.contains(l.node_of("n")));
  EXPECT_FALSE(c.kept.contains(l.node_of("n")));
}

}  // namespace
}  // namespace eqfuse
