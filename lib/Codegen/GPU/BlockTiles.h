//===- BlockTiles.h - One thread block per kernel tile ----------*- C++ -*-===//
//
// Private to lib/Codegen/GPU. The second mapping of gopt-gpu-map-kernels
// (docs/GPU.md, "What a kernel becomes"): a tile that reduces a row (softmax,
// layer norm, a reduction, global pooling) runs on one thread block instead
// of one thread. Each linalg op of the tile is spread over the block's
// threads, reductions combine the threads' partial results with
// gpu.all_reduce, the tile's temporaries live in shared memory, and a
// barrier separates the ops.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_CODEGEN_GPU_BLOCKTILES_H
#define GOPT_LIB_CODEGEN_GPU_BLOCKTILES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace gopt {

/// Whether `loop` (a kernel's tile loop, on buffers) is better run one tile
/// per block: a linalg op of its body reduces at least 32 elements per
/// tile and is no contraction, and everything in the body can be spread
/// over threads (static linalg ops whose reductions combine with one
/// arith op gpu.all_reduce knows, views, temporaries of static shape that
/// fit in shared memory, and side-effect-free scalar ops).
bool prefersBlockPerTile(scf::ParallelOp loop);

/// Replaces `loop` (prefersBlockPerTile holds) by a gpu.launch of one block
/// per iteration, of at most `maxThreads` threads (a multiple of 32).
FailureOr<gpu::LaunchOp> launchTilesOnBlocks(scf::ParallelOp loop,
                                             int64_t maxThreads);

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_CODEGEN_GPU_BLOCKTILES_H
