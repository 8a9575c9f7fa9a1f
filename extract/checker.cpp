// check_extraction: iterative DFS over the chosen subgraph from the roots.
#include "extract/checker.hpp"

#include <fmt/format.h>

namespace eqfuse {

namespace {

enum class Mark : unsigned char { kUnseen, kOnStack, kDone };

std::string cycle_text(const ExtractionProblem& p, const std::vector<ClassId>& stack, ClassId c) {
  std::string out;
  bool in_cycle = false;
  for (ClassId s : stack) {
    if (s == c) in_cycle = true;
    if (in_cycle) out += fmt::format("'{}' -> ", p.class_name(s));
  }
  return out + fmt::format("'{}'", p.class_name(c));
}

}  // namespace

CheckResult check_extraction(const ExtractionProblem& p, const std::vector<NodeId>& choice) {
  if (choice.size() != p.num_classes())
    return {false,
            fmt::format("choice has {} entries for {} classes", choice.size(), p.num_classes())};
  for (ClassId c = 0; c < p.num_classes(); ++c) {
    const NodeId n = choice[c];
    if (n == kNoNode) continue;
    if (n >= p.num_nodes())
      return {false,
              fmt::format("class '{}' chooses node #{} which does not exist", p.class_name(c), n)};
    if (p.node_class(n) != c)
      return {false, fmt::format("class '{}' chooses node '{}' of class '{}'", p.class_name(c),
                                 p.node_name(n), p.class_name(p.node_class(n)))};
  }
  std::vector<Mark> mark(p.num_classes(), Mark::kUnseen);
  std::vector<ClassId> stack;       // classes on the DFS path
  std::vector<std::uint32_t> next;  // next child index per stack entry
  for (ClassId root : p.roots()) {
    if (choice[root] == kNoNode)
      return {false, fmt::format("root class '{}' has no chosen node", p.class_name(root))};
    if (mark[root] != Mark::kUnseen) continue;
    stack.assign(1, root);
    next.assign(1, 0);
    mark[root] = Mark::kOnStack;
    while (!stack.empty()) {
      const ClassId c = stack.back();
      const auto kids = p.children(choice[c]);
      if (next.back() == kids.size()) {
        mark[c] = Mark::kDone;
        stack.pop_back();
        next.pop_back();
        continue;
      }
      const ClassId d = kids[next.back()++];
      if (mark[d] == Mark::kDone) continue;
      if (mark[d] == Mark::kOnStack)
        return {false, fmt::format("cycle through classes {}", cycle_text(p, stack, d))};
      if (choice[d] == kNoNode)
        return {false, fmt::format("class '{}' (child of node '{}', reached from root '{}') has "
                                   "no chosen node",
                                   p.class_name(d), p.node_name(choice[c]), p.class_name(root))};
      mark[d] = Mark::kOnStack;
      stack.push_back(d);
      next.push_back(0);
    }
  }
  return {true, {}};
}

}  // namespace eqfuse
