// RUN: gopt-opt %s --mlir-print-ir-after=gopt-gpu-map-kernels --gopt-lower-to-nvvm=format=isa -o /dev/null 2>&1 | FileCheck %s

// Row reductions of 64 run one row per block (docs/GPU.md): each thread's
// partial result starts from the combiner's neutral element (INT_MIN for a
// signed max, -0.0 for a sum), gpu.all_reduce combines them, with the
// blocks as wide as the row (64 threads).
// CHECK-LABEL: func.func private @main_k0_reduce(
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c64{{.*}},
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: %[[PART:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[MIN]]) -> (i32)
// CHECK: gpu.all_reduce maxsi %[[PART]] uniform
// CHECK-LABEL: func.func private @main_k1_reduce(
// CHECK: gpu.launch
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
// CHECK: gpu.all_reduce add %[[SUM]] uniform
func.func @main(%x: tensor<4x64xi32>, %y: tensor<4x64xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %m = gopt.reduce max %x axes = [1] : tensor<4x64xi32> -> tensor<4xi32>
  %s = gopt.reduce mean %y axes = [1] : tensor<4x64xf32> -> tensor<4xf32>
  return %m, %s : tensor<4xi32>, tensor<4xf32>
}
