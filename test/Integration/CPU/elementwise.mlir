// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm=vectorize=false \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s

// Elementwise ops, run unfused and fused (gopt-optimize puts each chain in a
// gopt.fusion), vectorized or not: the printed values are the same, and were
// computed independently in double precision (f32 rounding may change the
// sixth digit, which the patterns leave open where it matters).

func.func @unary(%x: tensor<4xf32>, %y: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>) {
  %neg = gopt.neg %x : tensor<4xf32>
  %abs = gopt.abs %x : tensor<4xf32>
  %relu = gopt.relu %x : tensor<4xf32>
  %exp = gopt.exp %x : tensor<4xf32>
  %tanh = gopt.tanh %x : tensor<4xf32>
  %sigmoid = gopt.sigmoid %x : tensor<4xf32>
  %silu = gopt.silu %x : tensor<4xf32>
  %gelu = gopt.gelu %x : tensor<4xf32>
  %gelut = gopt.gelu %x tanh : tensor<4xf32>
  %erf = gopt.erf %x : tensor<4xf32>
  %clip = gopt.clip %x min = -1.0 max = 1.0 : tensor<4xf32>
  %log = gopt.log %y : tensor<4xf32>
  %sqrt = gopt.sqrt %y : tensor<4xf32>
  // A chain: 1 / rsqrt(y) = sqrt(y) again, through two ops.
  %rs = gopt.rsqrt %y : tensor<4xf32>
  %rc = gopt.reciprocal %rs : tensor<4xf32>
  return %neg, %abs, %relu, %exp, %tanh, %sigmoid, %silu, %gelu, %gelut,
         %erf, %clip, %log, %sqrt, %rc
      : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>
}

// Binary ops with numpy broadcasting of a row, NaN through max/min, compare
// and select, and a fused chain (a + b) * b - a.
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %p: tensor<3xf32>,
                  %n: tensor<2x1xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>) {
  %add = gopt.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %sub = gopt.sub %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %mul = gopt.mul %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %div = gopt.div %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %pow = gopt.pow %a, %p : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %max = gopt.max %a, %n : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  %min = gopt.min %a, %n : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  %lt = gopt.compare lt, %a, %b : tensor<2x3xf32>, tensor<3xf32>
  %sel = gopt.select %lt, %a, %b : tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>
  %ne = gopt.compare ne, %max, %max : tensor<2x3xf32>, tensor<2x3xf32>
  %nef = gopt.cast %ne : tensor<2x3xi1> to tensor<2x3xf32>
  %c1 = gopt.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %c2 = gopt.mul %c1, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %c3 = gopt.sub %c2, %a : tensor<2x3xf32>
  return %add, %sub, %mul, %div, %pow, %max, %min, %sel, %nef, %c3
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>
}

// Integer semantics: division truncates toward zero, relu/abs/neg/clip,
// integer pow, float→int casts truncate, int→float.
func.func @integers(%i: tensor<4xi32>, %j: tensor<4xi32>, %f: tensor<4xf32>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>,
        tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) {
  %div = gopt.div %i, %j : tensor<4xi32>
  %relu = gopt.relu %i : tensor<4xi32>
  %abs = gopt.abs %i : tensor<4xi32>
  %clip = gopt.clip %i min = -2.5 max = 3.5 : tensor<4xi32>
  %pow = gopt.pow %j, %j : tensor<4xi32>
  %trunc = gopt.cast %f : tensor<4xf32> to tensor<4xi32>
  %back = gopt.cast %i : tensor<4xi32> to tensor<4xf32>
  return %div, %relu, %abs, %clip, %pow, %trunc, %back
      : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>,
        tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
}

func.func @main() {
  %x = gopt.constant dense<[-2.0, -0.5, 0.0, 1.5]> : tensor<4xf32>
  %y = gopt.constant dense<[0.25, 1.0, 4.0, 9.0]> : tensor<4xf32>
  %u:14 = call @unary(%x, %y) : (tensor<4xf32>, tensor<4xf32>)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
          tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
          tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
          tensor<4xf32>, tensor<4xf32>)
  call @print1(%u#0) : (tensor<4xf32>) -> ()
  call @print1(%u#1) : (tensor<4xf32>) -> ()
  call @print1(%u#2) : (tensor<4xf32>) -> ()
  call @print1(%u#3) : (tensor<4xf32>) -> ()
  call @print1(%u#4) : (tensor<4xf32>) -> ()
  call @print1(%u#5) : (tensor<4xf32>) -> ()
  call @print1(%u#6) : (tensor<4xf32>) -> ()
  call @print1(%u#7) : (tensor<4xf32>) -> ()
  call @print1(%u#8) : (tensor<4xf32>) -> ()
  call @print1(%u#9) : (tensor<4xf32>) -> ()
  call @print1(%u#10) : (tensor<4xf32>) -> ()
  call @print1(%u#11) : (tensor<4xf32>) -> ()
  call @print1(%u#12) : (tensor<4xf32>) -> ()
  call @print1(%u#13) : (tensor<4xf32>) -> ()

  %a = gopt.constant dense<[[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]> : tensor<2x3xf32>
  %b = gopt.constant dense<[2.0, -4.0, 0.5]> : tensor<3xf32>
  %p = gopt.constant dense<[2.0, 3.0, 0.5]> : tensor<3xf32>
  %n = gopt.constant dense<[[0x7FC00000], [0.0]]> : tensor<2x1xf32>
  %r:10 = call @binary(%a, %b, %p, %n)
      : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x1xf32>)
      -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
          tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
          tensor<2x3xf32>, tensor<2x3xf32>)
  call @print2(%r#0) : (tensor<2x3xf32>) -> ()
  call @print2(%r#1) : (tensor<2x3xf32>) -> ()
  call @print2(%r#2) : (tensor<2x3xf32>) -> ()
  call @print2(%r#3) : (tensor<2x3xf32>) -> ()
  call @print2(%r#4) : (tensor<2x3xf32>) -> ()
  call @print2(%r#5) : (tensor<2x3xf32>) -> ()
  call @print2(%r#6) : (tensor<2x3xf32>) -> ()
  call @print2(%r#7) : (tensor<2x3xf32>) -> ()
  call @print2(%r#8) : (tensor<2x3xf32>) -> ()
  call @print2(%r#9) : (tensor<2x3xf32>) -> ()

  %i = gopt.constant dense<[7, -7, -3, 5]> : tensor<4xi32>
  %j = gopt.constant dense<[2, 2, 3, -1]> : tensor<4xi32>
  %f = gopt.constant dense<[-2.7, 2.7, -0.5, 100.9]> : tensor<4xf32>
  %s:7 = call @integers(%i, %j, %f)
      : (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>)
      -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>,
          tensor<4xi32>, tensor<4xi32>, tensor<4xf32>)
  call @printi(%s#0) : (tensor<4xi32>) -> ()
  call @printi(%s#1) : (tensor<4xi32>) -> ()
  call @printi(%s#2) : (tensor<4xi32>) -> ()
  call @printi(%s#3) : (tensor<4xi32>) -> ()
  call @printi(%s#4) : (tensor<4xi32>) -> ()
  call @printi(%s#5) : (tensor<4xi32>) -> ()
  call @print1(%s#6) : (tensor<4xf32>) -> ()
  return
}

func.func @print1(%t: tensor<4xf32>) {
  %u = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func @print2(%t: tensor<2x3xf32>) {
  %u = tensor.cast %t : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func @printi(%t: tensor<4xi32>) {
  %u = tensor.cast %t : tensor<4xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

// neg (−0 kept), abs, relu, exp, tanh, sigmoid, silu, gelu, gelu tanh, erf,
// clip, log, sqrt, 1/rsqrt.
// CHECK: [2, 0.5, -0, -1.5]
// CHECK: [2, 0.5, 0, 1.5]
// CHECK: [0, 0, 0, 1.5]
// CHECK: [0.13533{{[0-9]}}, 0.60653{{[0-9]}}, 1, 4.4816{{[0-9]}}]
// CHECK: [-0.96402{{[0-9]}}, -0.46211{{[0-9]}}, 0, 0.90514{{[0-9]}}]
// CHECK: [0.11920{{[0-9]}}, 0.37754{{[0-9]}}, 0.5, 0.81757{{[0-9]}}]
// CHECK: [-0.23840{{[0-9]}}, -0.1887{{[0-9]*}}, 0, 1.2263{{[0-9]}}]
// CHECK: [-0.045500{{[0-9]}}, -0.15426{{[0-9]}}, 0, 1.3997{{[0-9]}}]
// CHECK: [-0.045402{{[0-9]}}, -0.15428{{[0-9]}}, 0, 1.3995{{[0-9]}}]
// CHECK: [-0.99532{{[0-9]}}, -0.520{{[0-9]*}}, 0, 0.96610{{[0-9]}}]
// CHECK: [-1, -0.5, 0, 1]
// CHECK: [-1.3862{{[0-9]}}, 0, 1.3862{{[0-9]}}, 2.1972{{[0-9]}}]
// CHECK: [0.5, 1, 2, 3]
// CHECK: [0.5, 1, 2, 3]

// add, sub, mul, div, pow (NaN for a negative base and exponent 0.5).
// CHECK: {{\[\[}}3, -6, 3.5],
// CHECK-NEXT: [6, 1, -5.5]]
// CHECK: {{\[\[}}-1, 2, 2.5],
// CHECK-NEXT: [2, 9, -6.5]]
// CHECK: {{\[\[}}2, 8, 1.5],
// CHECK-NEXT: [8, -20, -3]]
// CHECK: {{\[\[}}0.5, 0.5, 6],
// CHECK-NEXT: [2, -1.25, -12]]
// CHECK: {{\[\[}}1, -8, 1.7320{{[0-9]}}],
// CHECK-NEXT: [16, 125, {{-?}}nan]]
// max and min propagate NaN (row 0) and broadcast the column.
// CHECK: {{\[\[}}nan, nan, nan],
// CHECK-NEXT: [4, 5, 0]]
// CHECK: {{\[\[}}nan, nan, nan],
// CHECK-NEXT: [0, 0, -6]]
// select(a < b, a, b), then ne(NaN, NaN) is true.
// CHECK: {{\[\[}}1, -4, 0.5],
// CHECK-NEXT: [2, -4, -6]]
// CHECK: {{\[\[}}1, 1, 1],
// CHECK-NEXT: [0, 0, 0]]
// (a + b) * b - a
// CHECK: {{\[\[}}5, 26, -1.25],
// CHECK-NEXT: [8, -9, 3.25]]

// Integers: div truncates, relu, abs, clip to [ceil(-2.5), floor(3.5)],
// ipow (including (-1)^(-1)), float→int truncation, int→float.
// CHECK: [3, -3, -1, -5]
// CHECK: [7, 0, 0, 5]
// CHECK: [7, 7, 3, 5]
// CHECK: [3, -2, -2, 3]
// CHECK: [4, 4, 27, -1]
// CHECK: [-2, 2, 0, 100]
// CHECK: [7, -7, -3, 5]
// CHECK: gopt-test-alloc: 0 live
