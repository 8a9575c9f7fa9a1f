// Splitting an extraction problem into independent components, the basis of
// the exact-by-components extractor ("auto", extract/auto.cpp).
//
//   Decomposition d = decompose(problem);
//   for (const auto& members : d.members) ...   // solve each on its own
//
// A class is MANDATORY when every valid extraction reaches it: the roots, and
// (to a fixpoint) every class that each usable node of a mandatory class
// reaches within six steps (a getitem of a multi-output kernel reaches the
// kernel's inputs in two). A mandatory class is paid once whatever else is
// chosen, so sharing it couples nothing. Two classes are in the same
// COMPONENT when a usable node of one has the other, not mandatory, as a
// child. The DAG cost of any extraction is then the sum over components of
// the cost of the component's reached classes, and which classes of a
// component are reached depends only on the choices made inside it: each
// component can be solved on its own, and the sum of the component optima is
// the global optimum as long as the combined choice is acyclic (a cycle can
// only close through mandatory classes of several components; the extractor
// checks).
//
// A class with a derivation of cost 0 (a placeholder, a constant, a list of
// constants) is FREE: some optimal extraction uses that derivation for it,
// so it couples nothing either; free classes belong to no component and
// always take their tree-cost optimal (zero) derivation.
//
// A node is USABLE when it can be part of some acyclic extraction at all:
// every child class has a finite derivation and none is its own class.
#pragma once
#include <cstdint>
#include <vector>

#include "extract/problem.hpp"

namespace eqfuse {

struct Decomposition {
  std::vector<unsigned char> usable;     // per node
  std::vector<unsigned char> reachable;  // per class: reachable from a root via usable nodes
  std::vector<unsigned char> mandatory;  // per class
  std::vector<NodeId> free;              // per class: its cost-0 node, or kNoNode
  std::vector<int> component;            // per class: index into members, -1 if unreachable or free
  std::vector<std::vector<ClassId>> members;  // per component, classes in increasing id
};

// The classes reachable from the roots through the nodes `usable` marks
// (1 per class), roots included.
std::vector<unsigned char> reachable_classes(const ExtractionProblem& p,
                                             const std::vector<unsigned char>& usable);

// Strongly connected components of the class graph (an edge from a class to
// every child class of each of its nodes, or only of the nodes `usable`
// marks): the id of each class's component. Two classes can only ever lie on
// a common cycle of an extraction when they share an id; e-graphs without
// cyclic rewrites have one class per id.
std::vector<std::uint32_t> strongly_connected_classes(
    const ExtractionProblem& p, const std::vector<unsigned char>* usable = nullptr);

// `derivable` is a choice with a node for every class that has a finite
// acyclic derivation (extract_detail::derivable_choice).
Decomposition decompose(const ExtractionProblem& p, const std::vector<NodeId>& derivable);

}  // namespace eqfuse
