//===- TestAlloc.cpp - Allocation hooks for JIT tests ---------------------===//
//
// `finalize-memref-to-llvm{use-generic-functions=1}` routes allocations to
// `_mlir_memref_to_llvm_alloc/aligned_alloc/free`; GOpt's runtime defines
// them to track peak bytes. This test-only library defines them with
// malloc/free for mlir-runner and counts live blocks: at exit it prints
// `gopt-test-alloc: <n> live` to stderr, so tests can check that the
// generated code frees every buffer it allocates (the function results it
// hands to its caller included, which the test's main frees).
//
// The library also provides gopt_sgemm (lib/Runtime/Blas.cpp, compiled in
// by CMake), which contractions lowered with contractions=library call.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>

namespace {

long liveBlocks = 0;

/// Reports the blocks still live when the JIT process exits.
struct LeakReport {
  ~LeakReport() {
    std::fprintf(stderr, "gopt-test-alloc: %ld live\n", liveBlocks);
  }
} report;

} // namespace

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  ++liveBlocks;
  return std::malloc(size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size) {
  ++liveBlocks;
  // aligned_alloc needs a size that is a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (ptr)
    --liveBlocks;
  std::free(ptr);
}
