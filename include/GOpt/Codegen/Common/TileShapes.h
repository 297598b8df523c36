//===- TileShapes.h - Tile shapes both tiling levels share ------*- C++ -*-===//
//
// gopt-fuse-kernel-loops tiles each kernel's result op into blocks and
// gopt-vectorize-kernels tiles large ops into register-sized pieces; both
// give an op that reads an input transposed square tiles instead of rows
// (docs/Lowering.md, "One loop nest per kernel").
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_TILESHAPES_H
#define GOPT_CODEGEN_COMMON_TILESHAPES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cstdint>

namespace mlir {
namespace gopt {

/// Side of the square vector tiles of an op that reads an input
/// transposed: 8 rows of 8 floats in, 8 out (larger vector transposes
/// spill). gopt-fuse-kernel-loops' blocks are cut into these.
inline constexpr int64_t kTransposeVectorTile = 8;

/// The largest divisor of `bound` that is at most `limit` (1 when none is
/// larger): full tiles keep static shapes for the vectorizer.
int64_t largestDivisorUpTo(int64_t bound, int64_t limit);

/// The innermost parallel loop of `op`, or -1 when it has none.
int64_t innermostParallelDim(linalg::LinalgOp op);

/// The parallel loop of `op`, other than its innermost parallel loop
/// `inner`, that some input has innermost while also reading `inner`, when
/// that loop is longer than one: `op` reads that input transposed (a
/// transpose, or an elementwise op reading a permuted operand). -1 when
/// there is none. An input that does not read `inner` (a per-row value
/// broadcast along the row) is no transposed read.
int64_t transposedReadDim(linalg::LinalgOp op, int64_t inner);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_TILESHAPES_H
