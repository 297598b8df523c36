// RUN: gopt-opt --help | FileCheck %s
// RUN: gopt-opt --help | FileCheck %s --check-prefix=LIBRARY
// RUN: gopt-opt --help-hidden | FileCheck %s --check-prefix=HIDDEN
// RUN: gopt-opt --help | FileCheck %s --check-prefix=MLIR

// libLLVM.so's backend, Polly and IR2Vec flags are not in --help (only in
// --help-hidden); MLIR's own options and every pass are.
// LIBRARY-NOT: --aarch64-neon-syntax
// LIBRARY-NOT: Polly Options
// LIBRARY-NOT: --ir2vec-kind
// HIDDEN-DAG: --aarch64-neon-syntax
// HIDDEN-DAG: --polly
// MLIR-DAG: --mlir-print-ir-after-all
// MLIR-DAG: --pass-pipeline=
// MLIR-DAG: --canonicalize
// MLIR-DAG: --gopt-measure[=<file>]

// The gopt passes and the pipeline are registered, with their summaries and
// options.
// CHECK: OVERVIEW: GOpt optimizer driver
// CHECK: Available Dialects: {{.*}}, gopt,
// CHECK-DAG: --gopt-dce {{.*}}Remove ops whose results cannot reach a function result
// CHECK-DAG: --keep-ops=<string>
// CHECK-DAG: --gopt-fold {{.*}}Fold constants and algebraic identities in gopt graphs
// CHECK-DAG: --max-folded-elements=<long>
// CHECK-DAG: --gopt-fuse {{.*}}Group producer→consumer chains into gopt.fusion kernels
// CHECK-DAG: --fuse-contraction-epilogues
// CHECK-DAG: --fuse-reductions
// CHECK-DAG: --max-group-size=<long>
// CHECK-DAG: --gopt-optimize {{.*}}GOpt's default graph pipeline: gopt-fold, gopt-channels-last, gopt-dce, cse, gopt-fuse, gopt-dce

// The lowering passes and the CPU pipeline with its options.
// CHECK-DAG: --convert-gopt-to-linalg {{.*}}Lower gopt ops to linalg, tensor, arith and math
// CHECK-DAG: --gopt-outline-kernels {{.*}}Outline every kernel (gopt.fusion or unfused op) into a function
// CHECK-DAG: --timers
// CHECK-DAG: --gopt-fuse-kernel-loops {{.*}}Make each outlined kernel one loop nest
// CHECK-DAG: --gopt-vectorize-kernels
// CHECK-DAG: --gopt-lower-vectors
// CHECK-DAG: --gopt-emit-c-interface
// CHECK-DAG: --gopt-verify-llvm-lowered
// CHECK-DAG: --gopt-lower-to-llvm {{.*}}CPU pipeline from gopt to the LLVM dialect
// CHECK-DAG: --kernel-timers
// CHECK-DAG: --tile-sizes=<long>
// CHECK-DAG: --vectorize
// CHECK-DAG: --use-generic-alloc-functions

// The GPU passes and pipeline with their options.
// CHECK-DAG: --parallel-tile-loops
// CHECK-DAG: --gopt-gpu-stage-constants {{.*}}Copy constants the host code reads onto the device
// CHECK-DAG: --gopt-gpu-map-kernels {{.*}}Turn each kernel's loop nest into one gpu.launch
// CHECK-DAG: --gopt-gpu-device-buffers {{.*}}Allocate the host code's buffers in device memory
// CHECK-DAG: --gpu-host
// CHECK-DAG: --gopt-lower-to-nvvm {{.*}}GPU pipeline from gopt to the LLVM dialect and a gpu.binary for NVIDIA GPUs
// CHECK-DAG: --chip=<string>
// CHECK-DAG: --format=<value>
// CHECK-DAG: =auto {{.*}}bin when a CUDA toolkit (ptxas, libdevice) is found, isa otherwise
// CHECK-DAG: --block-size=<long>
