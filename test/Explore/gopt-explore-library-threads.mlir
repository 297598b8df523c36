// Each configuration's checking run is a forked child. The GEMM library's
// OpenMP thread pool does not survive fork: once the parent had run a
// parallel GEMM (the baseline's reference run), a child's parallel GEMM
// waited forever for workers that are not in it, and the configuration
// failed at --config-timeout. The child runs the library on one thread.
// A GEMM the library splits across threads, with two threads:
// RUN: gopt-explore %s --threads=2 --passes=fuse --pairs=false --default-pipeline=false --cache-dir= --config-timeout=60 --max-rounds=1 --min-rounds=1 --reps=1 --round-ms=0 --progress=never --format=markdown | FileCheck %s
// CHECK: | {{(\*\*)?}}baseline{{(\*\* \(chosen\))?}} | baseline | — | ok |
// CHECK: | {{(\*\*)?}}fuse{{(\*\* \(chosen\))?}} | single | `builtin.module(gopt-fuse)` | ok |
func.func @main(%x: tensor<256x512xf32>, %w: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %y = gopt.linear %x, %w : tensor<256x512xf32>, tensor<512x512xf32> -> tensor<256x512xf32>
  %r = gopt.relu %y : tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
