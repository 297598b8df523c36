//===- RandomGraph.h - Seeded random gopt graphs ----------------*- C++ -*-===//
//
// An NNSmith-style generator of random, valid, numerically well-conditioned
// gopt graphs for differential testing (docs/Testing.md): the same seed and
// options always give the same module.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_TESTING_RANDOMGRAPH_H
#define GOPT_TESTING_RANDOMGRAPH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>

namespace mlir {
class MLIRContext;
namespace gopt {

/// What generateRandomGraph builds.
struct RandomGraphOptions {
  /// The same seed (and options) gives the same module.
  uint64_t seed = 0;
  /// Compute ops to generate in @main (gopt ops other than constants); the
  /// graph ends at the first step that reaches it, so it may exceed it by
  /// the few helper ops one step adds.
  int64_t numOps = 40;
  /// Largest rank (1-6) and dimension size (at least 1) of the inputs and of
  /// the shapes the generator picks.
  int64_t maxRank = 4;
  int64_t maxDimSize = 8;
  /// Largest number of elements of any generated tensor (keeps compiling
  /// and running cheap).
  int64_t maxElements = 2048;
  /// Most inputs and results of @main (at least 1 each).
  int64_t maxInputs = 3;
  int64_t maxResults = 3;
};

/// Builds a module with one public `func.func @main` whose arguments are
/// static f32 tensors and whose results are f32 tensors. The generator keeps
/// a pool of available values with their shapes and value ranges and, at
/// each step, adds an op whose shape constraints the pool can satisfy:
/// elementwise unary and binary ops with numpy broadcasting, compare +
/// select, clip, cast round trips, reductions, softmax, layer_norm, matmul,
/// linear, conv2d, pool2d, global_avg_pool, transpose, reshape,
/// broadcast_to, concat, slice, pad and gather. Values stay finite and
/// well-conditioned (domain-restricted ops only see inputs bounded away from
/// their singularities; magnitudes are kept small by rescaling), and
/// discontinuous ops (compare, float-to-int casts) only see values that are
/// bit-identical however the graph is optimized. Every pass gets work:
/// constant subgraphs (gopt-fold), identities (gopt-fold), duplicated ops
/// (cse), unused values (gopt-dce) and elementwise chains around
/// contractions and reductions (gopt-fuse).
///
/// Returns null, with an error emitted on the context, when the options are
/// out of range, or when the module does not verify (a generator bug; the
/// error names the seed).
OwningOpRef<ModuleOp> generateRandomGraph(MLIRContext &context,
                                          const RandomGraphOptions &options);

} // namespace gopt
} // namespace mlir

#endif // GOPT_TESTING_RANDOMGRAPH_H
