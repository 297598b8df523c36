//===- LoopSpace.h - A tile loop's iterations, flattened --------*- C++ -*-===//
//
// Private to lib/Codegen/GPU: what both mappings of gopt-gpu-map-kernels do
// with a kernel's tile loop (scf.parallel): count its iterations per
// dimension, and turn a flat iteration number back into the loop's
// induction values, the innermost dimension varying fastest.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_CODEGEN_GPU_LOOPSPACE_H
#define GOPT_LIB_CODEGEN_GPU_LOOPSPACE_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace gopt {

struct LoopSpace {
  /// Iterations of each dimension, and their product.
  SmallVector<Value> extents;
  Value total;
};

/// The iteration counts of `loop`, computed at the builder's point.
LoopSpace computeLoopSpace(OpBuilder &builder, scf::ParallelOp loop);

/// The induction values of `loop` at flat iteration `linear` (lb + i ·
/// step per dimension, the last dimension fastest).
SmallVector<Value> delinearizeIteration(OpBuilder &builder, Location loc,
                                        Value linear, scf::ParallelOp loop,
                                        ArrayRef<Value> extents);

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_CODEGEN_GPU_LOOPSPACE_H
