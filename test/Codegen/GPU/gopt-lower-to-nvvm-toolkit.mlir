// A folder with a `ptxas` but no libdevice is not taken for the CUDA toolkit,
// whether it is named by $CUDA_HOME or is where the `ptxas` on PATH lies (a
// wrapper script such as /usr/local/bin/ptxas): the search goes on to the
// next candidate, and without any complete toolkit the pipeline writes PTX
// and links no libdevice, with no error.
// RUN: rm -rf %t && mkdir -p %t/bin
// RUN: printf '#!/bin/sh\nexit 1\n' > %t/bin/ptxas && chmod +x %t/bin/ptxas
// RUN: env CUDA_HOME=%t gopt-opt %s --gopt-lower-to-nvvm=format=isa 2>&1 | FileCheck %s
// RUN: env CUDA_HOME=%t gopt-opt %s --gopt-lower-to-nvvm 2>&1 | FileCheck %s
// RUN: env -u CUDA_HOME -u CUDA_ROOT -u CUDA_PATH PATH=%t/bin:/usr/bin:/bin gopt-opt %s --gopt-lower-to-nvvm 2>&1 | FileCheck %s

// CHECK-NOT: error
// CHECK-NOT: LibDevice
// CHECK: gpu.binary @exp_k0_exp_kernel
// CHECK-NOT: error
func.func @exp(%x: tensor<64xf32>) -> tensor<64xf32> {
  %r = gopt.exp %x : tensor<64xf32>
  return %r : tensor<64xf32>
}
