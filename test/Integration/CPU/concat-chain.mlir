// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s --gopt-optimize | FileCheck %s --check-prefix=IR

// A DenseNet-style block: each layer reads the concat of every earlier
// feature map and adds one. gopt-fold (in gopt-optimize) makes each concat
// read the previous one and the new map (ReuseConcatPrefix); the results
// are those of the concats as written.
// IR-LABEL: func.func @block
// IR: %[[C1:.*]] = gopt.concat %arg0, %{{.*}} axis = 1 : tensor<2x1xf32>, tensor<2x2xf32> -> tensor<2x3xf32>
// IR: %[[C2:.*]] = gopt.concat %[[C1]], %{{.*}} axis = 1 : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
// IR: gopt.concat %[[C2]], %{{.*}} axis = 1 : tensor<2x4xf32>, tensor<2x2xf32> -> tensor<2x6xf32>
func.func @block(%x0: tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2x6xf32>) {
  %w1 = gopt.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %f1 = gopt.matmul %x0, %w1 : tensor<2x1xf32>, tensor<1x2xf32> -> tensor<2x2xf32>
  %c1 = gopt.concat %x0, %f1 axis = 1 : tensor<2x1xf32>, tensor<2x2xf32> -> tensor<2x3xf32>
  %w2 = gopt.constant dense<[[1.0], [1.0], [1.0]]> : tensor<3x1xf32>
  %f2 = gopt.matmul %c1, %w2 : tensor<2x3xf32>, tensor<3x1xf32> -> tensor<2x1xf32>
  %c2 = gopt.concat %x0, %f1, %f2 axis = 1 : tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
  %w3 = gopt.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, -1.0]]> : tensor<4x2xf32>
  %f3 = gopt.matmul %c2, %w3 : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
  %c3 = gopt.concat %x0, %f1, %f2, %f3 axis = 1 : tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x1xf32>, tensor<2x2xf32> -> tensor<2x6xf32>
  return %c2, %c3 : tensor<2x4xf32>, tensor<2x6xf32>
}

func.func @main() {
  %x = gopt.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %r:2 = call @block(%x) : (tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2x6xf32>)
  %r0 = tensor.cast %r#0 : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%r0) : (tensor<*xf32>) -> ()
  %r1 = tensor.cast %r#1 : tensor<2x6xf32> to tensor<*xf32>
  call @printMemrefF32(%r1) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)

// x = [1; 2], f1 = x [1 2], f2 = x + f1[0] + f1[1], f3 = [x + f2, f1[0] - f2].
// CHECK: {{\[\[}}1, 1, 2, 4],
// CHECK-NEXT: [2, 2, 4, 8]]
// CHECK: {{\[\[}}1, 1, 2, 4, 3, -3],
// CHECK-NEXT: [2, 2, 4, 8, 6, -6]]
