//===- PackedCall.h - Call compiled code through its packed entry -*- C++ -*-===//
//
// Compiled GOpt code (CPU JIT or a bundle's library) is called through the
// packed interface of its C entry `_mlir_ciface_f(out, args...)`:
// `_mlir__mlir_ciface_f(void **)`, whose i-th pointer points to the i-th
// argument, every argument a pointer to a strided memref descriptor
// {allocated, aligned, offset, sizes[R], strides[R]} (64-bit words) and the
// first, when there are results, a pointer to their descriptors in order.
// Plain C++: gopt-exec uses it without LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_DEPLOY_PACKEDCALL_H
#define GOPT_DEPLOY_PACKEDCALL_H

#include <cstdint>
#include <vector>

namespace gopt {
namespace deploy {

/// Words of a rank-R memref descriptor: 3 + 2R.
inline int64_t memrefDescriptorWords(int64_t rank) { return 3 + 2 * rank; }

/// The descriptor of a contiguous row-major buffer of `shape` at `data`.
std::vector<int64_t> describeRowMajor(const void *data,
                                      const std::vector<int64_t> &shape);

/// Calls `entry` on `arguments` (descriptors, in order); the results'
/// descriptors land in `resultWords`, sized for results of `resultRanks`.
void callPacked(void (*entry)(void **),
                std::vector<std::vector<int64_t>> &arguments,
                const std::vector<int64_t> &resultRanks,
                std::vector<int64_t> &resultWords);

} // namespace deploy
} // namespace gopt

#endif // GOPT_DEPLOY_PACKEDCALL_H
