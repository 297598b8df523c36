//===- WeightArguments.h - Weights handed to compiled code ------*- C++ -*-===//
//
// Private to lib/Runner. A model's weights never pass through LLVM code
// generation: before lowering, the runner turns each large constant of the
// entry function into a trailing argument and keeps its bytes in host
// memory; every call passes them as memrefs like the inputs. Code
// generation then costs the same for any weight size, and the machine code
// (and its object-cache entry) does not depend on the weights' values.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNNER_WEIGHTARGUMENTS_H
#define GOPT_LIB_RUNNER_WEIGHTARGUMENTS_H

#include "GOpt/Support/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdlib>
#include <memory>
#include <vector>

namespace mlir {
namespace gopt {

/// Constants smaller than this stay in the code, where LLVM can fold them.
constexpr size_t kMinWeightArgumentBytes = 1024;

/// The weights' values and a tensor over each: copied into one block, each
/// 64-byte aligned, or, for bytes a graph pass wrote into a blob of its own
/// (allocateConstantBlob: the weights moveConstant transposed to channels
/// last, say), left there, `retained` keeping them alive.
struct HoistedWeights {
  std::unique_ptr<void, void (*)(void *)> storage{nullptr, std::free};
  std::vector<std::shared_ptr<const char>> retained;
  std::vector<HostTensor> tensors;
};

/// Replaces every `gopt.constant` in the body of `fn` that holds at least
/// `minBytes` of distinct values (not a splat) of an element type the
/// runner passes (not i1) by a new trailing, read-only argument marked
/// `gopt.weight` (kWeightArgAttrName), and returns those values in argument
/// order: copied into one block (huge pages advised when it is large:
/// ViT-B/16's 330 MB took 0.18 s in 4 KiB pages, mostly their faults), or
/// shared with their blob when retainConstantStorage can keep it alive.
HoistedWeights hoistWeightsIntoArguments(func::FuncOp fn, size_t minBytes);

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_RUNNER_WEIGHTARGUMENTS_H
