// RUN: gopt-opt %s --gopt-lower-vectors | FileCheck %s

// A row's float sum (softmax, layer norm) is reassociable: LLVM adds the
// lanes pairwise instead of in one dependent chain. A maximum keeps its
// order-free semantics as they are (no flag needed), integers have no
// rounding to reorder.
// CHECK-LABEL: func.func @row_reductions
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<128xf32> into f32
// CHECK: vector.reduction <mul>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<128xf32> into f32
// CHECK: vector.reduction <maximumf>, %{{.*}}, %{{.*}} : vector<128xf32> into f32
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<128xi32> into i32
func.func @row_reductions(%v: vector<1x128xf32>, %w: vector<1x128xi32>) -> (vector<1xf32>, vector<1xf32>, vector<1xf32>, vector<1xi32>) {
  %zero = arith.constant dense<0.0> : vector<1xf32>
  %one = arith.constant dense<1.0> : vector<1xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<1xf32>
  %izero = arith.constant dense<0> : vector<1xi32>
  %sum = vector.multi_reduction <add>, %v, %zero [1] : vector<1x128xf32> to vector<1xf32>
  %prod = vector.multi_reduction <mul>, %v, %one [1] : vector<1x128xf32> to vector<1xf32>
  %max = vector.multi_reduction <maximumf>, %v, %ninf [1] : vector<1x128xf32> to vector<1xf32>
  %isum = vector.multi_reduction <add>, %w, %izero [1] : vector<1x128xi32> to vector<1xi32>
  return %sum, %prod, %max, %isum : vector<1xf32>, vector<1xf32>, vector<1xf32>, vector<1xi32>
}
