//===- GraphSort.cpp - Topological order of an ONNX graph -----------------===//
//
// ONNX requires nodes in topological order, but exporters and hand edits do
// not always deliver it. Kahn's algorithm restores the order (stable: ready
// nodes keep their file order); what it cannot order is a cycle, or reads a
// value nobody defines.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "llvm/ADT/DenseSet.h"

#include <queue>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

FailureOr<SmallVector<int>>
onnx_import::sortNodes(const onnx::GraphProto &graph,
                       const llvm::StringMap<bool> &defined,
                       ArrayRef<std::string> names, Location graphLoc) {
  int numNodes = graph.node_size();
  llvm::StringMap<int> producer;
  for (int i = 0; i < numNodes; ++i) {
    for (const std::string &out : graph.node(i).output()) {
      if (out.empty())
        continue;
      auto [it, inserted] = producer.try_emplace(out, i);
      if (!inserted)
        return emitError(graphLoc)
               << "value '" << out << "' is produced by both node '"
               << names[it->second] << "' and node '" << names[i] << "'";
      if (defined.count(out))
        return emitError(graphLoc)
               << "node '" << names[i] << "' redefines graph input or "
               << "initializer '" << out << "'";
    }
  }

  // Edges producer -> consumer, and each node's count of unmet inputs.
  std::vector<SmallVector<int>> consumers(numNodes);
  std::vector<int> pending(numNodes, 0);
  for (int i = 0; i < numNodes; ++i) {
    llvm::DenseSet<int> seen;
    for (const std::string &in : graph.node(i).input()) {
      if (in.empty() || defined.count(in))
        continue;
      auto it = producer.find(in);
      if (it == producer.end())
        return emitError(graphLoc)
               << "node '" << names[i] << "' (" << graph.node(i).op_type()
               << ") reads '" << in
               << "', which is no graph input, initializer or node output "
                  "(a missing initializer?)";
      if (seen.insert(it->second).second) {
        consumers[it->second].push_back(i);
        ++pending[i];
      }
    }
  }

  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < numNodes; ++i)
    if (pending[i] == 0)
      ready.push(i);
  SmallVector<int> order;
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int c : consumers[i])
      if (--pending[c] == 0)
        ready.push(c);
  }
  if (static_cast<int>(order.size()) == numNodes)
    return order;

  // Every node left waits on another node left: walking back through
  // unfinished producers must revisit a node, and that node is on a cycle.
  int node = 0;
  while (pending[node] == 0)
    ++node;
  std::vector<int> visitedAt(numNodes, -1);
  SmallVector<int> path;
  while (visitedAt[node] < 0) {
    visitedAt[node] = path.size();
    path.push_back(node);
    for (const std::string &in : graph.node(node).input()) {
      auto it = producer.find(in);
      if (!in.empty() && !defined.count(in) && it != producer.end() &&
          pending[it->second] > 0) {
        node = it->second;
        break;
      }
    }
  }
  InFlightDiagnostic diag = emitError(graphLoc);
  diag << "the graph has a cycle through node '" << names[node] << "' ("
       << graph.node(node).op_type() << "): ";
  // The path from the first revisit back to itself, in data-flow order.
  SmallVector<int> cycle(path.begin() + visitedAt[node], path.end());
  for (int k = cycle.size() - 1; k >= 0; --k)
    diag << "'" << names[cycle[k]] << "' -> ";
  diag << "'" << names[cycle.back()] << "'";
  return failure();
}
