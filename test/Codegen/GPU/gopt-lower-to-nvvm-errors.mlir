// RUN: not gopt-opt %s -split-input-file --gopt-lower-to-nvvm=block-size=4096 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not gopt-opt %s -split-input-file --gopt-lower-to-nvvm=format=cubin 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not gopt-opt %s -split-input-file --gopt-lower-to-nvvm 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// BLOCK: error: gopt-gpu-map-kernels: block-size must be in [1, 1024], got 4096
// FORMAT: for the --format option: Cannot find option named 'cubin'!
func.func @relu(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = gopt.relu %x : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Dynamic shapes are rejected by the op's verifier, which names it.
// DYNAMIC: error: 'gopt.relu' op operand #0 must be statically shaped tensor
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = gopt.relu %x : tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
