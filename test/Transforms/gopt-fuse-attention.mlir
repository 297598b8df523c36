// RUN: gopt-opt %s --gopt-fuse -split-input-file | FileCheck %s
// RUN: gopt-opt %s --pass-pipeline='builtin.module(gopt-fuse{attention=false})' -split-input-file | FileCheck %s --check-prefixes=OFF,UNFUSED
// gopt-split-attention-kernels makes of gopt-fuse's attention kernels what
// gopt-fuse makes without them (OFF), but where the products' GEMMs take
// ops as parameters (SPLIT): the scaling of Q joins Q·Kᵀ, the mask
// addition joins the softmax (Q·Kᵀ's kernel is then the GEMM and its
// scaling, alpha), and a transpose that alone reads P·V joins P·V.
// RUN: gopt-opt %s --gopt-fuse --gopt-split-attention-kernels -split-input-file | FileCheck %s --check-prefixes=OFF,SPLIT

// gopt-fuse{attention}: the chain Q·Kᵀ → scaling → mask → softmax → ·V, with
// the transposes of the head split its products read in place, is one
// kernel; without the option, three.

// CHECK-LABEL: func.func @heads
// CHECK: %[[O:.*]] = gopt.fusion
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: gopt.transpose
// CHECK-NEXT: gopt.transpose
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.mul
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.softmax
// CHECK-NEXT: gopt.transpose
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[O]]

// OFF-LABEL: func.func @heads
// OFF: %[[S:.*]] = gopt.fusion
// OFF: gopt.transpose
// OFF: gopt.transpose
// OFF: gopt.matmul
// OFF: gopt.mul
// UNFUSED: gopt.add
// OFF: gopt.yield
// UNFUSED: %[[P:.*]] = gopt.softmax %[[S]]
// SPLIT-NEXT: }
// SPLIT-NEXT: %[[P:.*]] = gopt.fusion(%[[S]], %arg3 :
// SPLIT-NEXT: ^bb0(
// SPLIT-NEXT: gopt.add
// SPLIT-NEXT: gopt.softmax
// SPLIT-NEXT: gopt.yield
// OFF: %[[O:.*]] = gopt.fusion({{.*}}%[[P]] :
// OFF: gopt.transpose
// OFF: gopt.matmul
// OFF: gopt.yield
// OFF: return %[[O]]
func.func @heads(%q4: tensor<1x128x4x32xf32>, %k4: tensor<1x128x4x32xf32>,
                 %v4: tensor<1x128x4x32xf32>, %mask: tensor<1x1x1x128xf32>)
    -> tensor<1x4x128x32xf32> {
  %c = gopt.constant dense<0.125> : tensor<1xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x128x4x32xf32> -> tensor<1x4x128x32xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x128x4x32xf32> -> tensor<1x4x32x128xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x128x4x32xf32> -> tensor<1x4x128x32xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x4x128x32xf32>, tensor<1x4x32x128xf32> -> tensor<1x4x128x128xf32>
  %t = gopt.mul %s, %c : tensor<1x4x128x128xf32>, tensor<1xf32> -> tensor<1x4x128x128xf32>
  %u = gopt.add %t, %mask : tensor<1x4x128x128xf32>, tensor<1x1x1x128xf32> -> tensor<1x4x128x128xf32>
  %p = gopt.softmax %u axis = 3 : tensor<1x4x128x128xf32>
  %o = gopt.matmul %p, %vh : tensor<1x4x128x128xf32>, tensor<1x4x128x32xf32> -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// -----

// Without scaling or mask, rank 3 (batch·heads first, as nn.MultiheadAttention
// exports it), the scale a division: still one kernel.

// CHECK-LABEL: func.func @plain
// CHECK: %[[O:.*]] = gopt.fusion
// CHECK: gopt.matmul
// CHECK-NEXT: gopt.div
// CHECK-NEXT: gopt.softmax
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK: return %[[O]]

// OFF-LABEL: func.func @plain
// OFF: gopt.fusion
// OFF: {{^    }}%{{.*}} = gopt.softmax
// OFF-NOT: gopt.fusion
// OFF: {{^    }}%{{.*}} = gopt.matmul
func.func @plain(%q: tensor<8x64x16xf32>, %kt: tensor<8x16x64xf32>, %v: tensor<8x64x16xf32>) -> tensor<8x64x16xf32> {
  %c = gopt.constant dense<4.0> : tensor<1xf32>
  %s = gopt.matmul %q, %kt : tensor<8x64x16xf32>, tensor<8x16x64xf32> -> tensor<8x64x64xf32>
  %t = gopt.div %s, %c : tensor<8x64x64xf32>, tensor<1xf32> -> tensor<8x64x64xf32>
  %p = gopt.softmax %t axis = -1 : tensor<8x64x64xf32>
  %o = gopt.matmul %p, %v : tensor<8x64x64xf32>, tensor<8x64x16xf32> -> tensor<8x64x16xf32>
  return %o : tensor<8x64x16xf32>
}

// -----

// The probabilities are a result too (need_weights): the kernel would have
// to write them, so the chain stays three kernels.

// CHECK-LABEL: func.func @weights_returned
// CHECK: gopt.fusion
// CHECK: gopt.matmul
// CHECK: gopt.mul
// CHECK: gopt.yield
// CHECK: {{^    }}%{{.*}} = gopt.softmax
// CHECK-NOT: gopt.fusion
// CHECK: {{^    }}%{{.*}} = gopt.matmul
func.func @weights_returned(%q: tensor<8x64x16xf32>, %kt: tensor<8x16x64xf32>, %v: tensor<8x64x16xf32>)
    -> (tensor<8x64x16xf32>, tensor<8x64x64xf32>) {
  %c = gopt.constant dense<0.25> : tensor<1xf32>
  %s = gopt.matmul %q, %kt : tensor<8x64x16xf32>, tensor<8x16x64xf32> -> tensor<8x64x64xf32>
  %t = gopt.mul %s, %c : tensor<8x64x64xf32>, tensor<1xf32> -> tensor<8x64x64xf32>
  %p = gopt.softmax %t axis = 2 : tensor<8x64x64xf32>
  %o = gopt.matmul %p, %v : tensor<8x64x64xf32>, tensor<8x64x16xf32> -> tensor<8x64x16xf32>
  return %o, %p : tensor<8x64x16xf32>, tensor<8x64x64xf32>
}

// -----

// Softmax along another axis than the keys, a broadcast batch, a scale that
// is not one number: no attention kernel.

// CHECK-LABEL: func.func @not_attention
// CHECK: {{^    }}%{{.*}} = gopt.softmax %{{.*}} axis = 1
// CHECK: {{^    }}%{{.*}} = gopt.softmax
// CHECK: {{^    }}%{{.*}} = gopt.softmax
func.func @not_attention(%q: tensor<8x64x16xf32>, %kt: tensor<8x16x64xf32>, %v: tensor<8x64x16xf32>,
                         %kt1: tensor<1x16x64xf32>, %w: tensor<64xf32>)
    -> (tensor<8x64x16xf32>, tensor<8x64x16xf32>, tensor<8x64x16xf32>) {
  %s = gopt.matmul %q, %kt : tensor<8x64x16xf32>, tensor<8x16x64xf32> -> tensor<8x64x64xf32>
  %p = gopt.softmax %s axis = 1 : tensor<8x64x64xf32>
  %o = gopt.matmul %p, %v : tensor<8x64x64xf32>, tensor<8x64x16xf32> -> tensor<8x64x16xf32>
  %s1 = gopt.matmul %q, %kt1 : tensor<8x64x16xf32>, tensor<1x16x64xf32> -> tensor<8x64x64xf32>
  %p1 = gopt.softmax %s1 axis = 2 : tensor<8x64x64xf32>
  %o1 = gopt.matmul %p1, %v : tensor<8x64x64xf32>, tensor<8x64x16xf32> -> tensor<8x64x16xf32>
  %s2 = gopt.matmul %q, %kt : tensor<8x64x16xf32>, tensor<8x16x64xf32> -> tensor<8x64x64xf32>
  %t2 = gopt.mul %s2, %w : tensor<8x64x64xf32>, tensor<64xf32> -> tensor<8x64x64xf32>
  %p2 = gopt.softmax %t2 axis = 2 : tensor<8x64x64xf32>
  %o2 = gopt.matmul %p2, %v : tensor<8x64x64xf32>, tensor<8x64x16xf32> -> tensor<8x64x16xf32>
  return %o, %o1, %o2 : tensor<8x64x16xf32>, tensor<8x64x16xf32>, tensor<8x64x16xf32>
}

// -----

// Q scaled before its head transpose (nn.MultiheadAttention's export, after
// gopt-fuse sank the scaling below the transpose): the scaling joins the
// attention kernel; the transpose of V, computed before the softmax, moves
// to P·V.

// CHECK-LABEL: func.func @query_scaled
// CHECK: %[[O:.*]] = gopt.fusion
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: gopt.div
// CHECK-NEXT: gopt.transpose
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.softmax
// CHECK-NEXT: gopt.transpose
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[O]]

// OFF-LABEL: func.func @query_scaled
// UNFUSED: {{^    }}%[[Q:.*]] = gopt.div
// UNFUSED: gopt.fusion(%[[Q]],
// SPLIT: %[[S:.*]] = gopt.fusion(%arg0, %{{.*}}, %arg1 :
// SPLIT-NEXT: ^bb0(
// SPLIT-NEXT: gopt.div
// SPLIT-NEXT: gopt.transpose
// SPLIT-NEXT: gopt.matmul
// SPLIT-NEXT: gopt.yield
// SPLIT: gopt.softmax %[[S]]
func.func @query_scaled(%q: tensor<16x4x8xf32>, %k: tensor<4x8x16xf32>, %v: tensor<16x4x8xf32>) -> tensor<4x16x8xf32> {
  %c = gopt.constant dense<8.0> : tensor<f32>
  %qh = gopt.transpose %q perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %vh = gopt.transpose %v perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %qs = gopt.div %qh, %c : tensor<4x16x8xf32>, tensor<f32> -> tensor<4x16x8xf32>
  %s = gopt.matmul %qs, %k : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x16x16xf32>
  %o = gopt.matmul %p, %vh : tensor<4x16x16xf32>, tensor<4x16x8xf32> -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// The heads merged back after P·V (a transpose read by nothing else): on
// its own after gopt-fuse, with P·V after the split (its GEMM writes the
// merged layout through strides).

// CHECK-LABEL: func.func @heads_merged
// CHECK: %[[O:.*]] = gopt.fusion
// CHECK: gopt.yield
// CHECK: %[[T:.*]] = gopt.transpose %[[O]] perm = [1, 0, 2]
// CHECK: return %[[T]]

// OFF-LABEL: func.func @heads_merged
// OFF: gopt.softmax
// OFF: %[[O:.*]] = gopt.fusion
// OFF: gopt.transpose
// OFF: gopt.matmul
// UNFUSED-NEXT: gopt.yield
// UNFUSED: %[[T:.*]] = gopt.transpose %[[O]] perm = [1, 0, 2]
// UNFUSED: return %[[T]]
// SPLIT-NEXT: gopt.transpose %{{.*}} perm = [1, 0, 2] : tensor<4x16x8xf32> -> tensor<16x4x8xf32>
// SPLIT-NEXT: gopt.yield
// SPLIT: return %[[O]]
func.func @heads_merged(%q: tensor<4x16x8xf32>, %k: tensor<4x8x16xf32>, %v: tensor<16x4x8xf32>) -> tensor<16x4x8xf32> {
  %vh = gopt.transpose %v perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %s = gopt.matmul %q, %k : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x16x16xf32>
  %o = gopt.matmul %p, %vh : tensor<4x16x16xf32>, tensor<4x16x8xf32> -> tensor<4x16x8xf32>
  %m = gopt.transpose %o perm = [1, 0, 2] : tensor<4x16x8xf32> -> tensor<16x4x8xf32>
  return %m : tensor<16x4x8xf32>
}

// -----

// A masked fill of the scores with -inf (a causal decoder's) becomes an
// additive mask, evaluated when the condition is a constant, and the chain
// one kernel. Without the option the select stays.

// CHECK-LABEL: func.func @causal_fill
// CHECK: %[[MASK:.*]] = gopt.constant dense<{{\[\[}}0.000000e+00, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<3x3xf32>
// CHECK: %[[O:.*]] = gopt.fusion({{.*}}%[[MASK]], %arg2 :
// CHECK: gopt.matmul
// CHECK-NEXT: gopt.div
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.softmax
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK: return %[[O]]
// UNFUSED-LABEL: func.func @causal_fill
// UNFUSED: gopt.select
func.func @causal_fill(%q: tensor<2x3x4xf32>, %kt: tensor<2x4x3xf32>, %v: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %c = gopt.constant dense<2.0> : tensor<f32>
  %inf = gopt.constant dense<0xFF800000> : tensor<f32>
  %future = gopt.constant dense<[[false, true, true], [false, false, true], [false, false, false]]> : tensor<3x3xi1>
  %s = gopt.matmul %q, %kt : tensor<2x3x4xf32>, tensor<2x4x3xf32> -> tensor<2x3x3xf32>
  %t = gopt.div %s, %c : tensor<2x3x3xf32>, tensor<f32> -> tensor<2x3x3xf32>
  %u = gopt.select %future, %inf, %t : tensor<3x3xi1>, tensor<f32>, tensor<2x3x3xf32>
  %p = gopt.softmax %u axis = 2 : tensor<2x3x3xf32>
  %o = gopt.matmul %p, %v : tensor<2x3x3xf32>, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}

// -----

// A computed condition, the -inf the false branch (masked_fill of the
// negated mask): the mask is computed, before the kernel, by a select.

// CHECK-LABEL: func.func @computed_fill
// CHECK: %[[MASK:.*]] = gopt.select %arg3, %{{.*}}, %{{.*}} : tensor<2x1x3xi1>, tensor<f32>, tensor<f32>
// CHECK: %[[O:.*]] = gopt.fusion({{.*}}%[[MASK]], %arg2 :
// CHECK: gopt.matmul
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.softmax
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK: return %[[O]]
func.func @computed_fill(%q: tensor<2x3x4xf32>, %kt: tensor<2x4x3xf32>, %v: tensor<2x3x4xf32>, %keep: tensor<2x1x3xi1>) -> tensor<2x3x4xf32> {
  %inf = gopt.constant dense<0xFF800000> : tensor<f32>
  %s = gopt.matmul %q, %kt : tensor<2x3x4xf32>, tensor<2x4x3xf32> -> tensor<2x3x3xf32>
  %u = gopt.select %keep, %s, %inf : tensor<2x1x3xi1>, tensor<2x3x3xf32>, tensor<f32>
  %p = gopt.softmax %u axis = 2 : tensor<2x3x3xf32>
  %o = gopt.matmul %p, %v : tensor<2x3x3xf32>, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}

// -----

// A fill with a finite value is not an additive mask (a row it fills
// entirely would be uniform, not softmax(scores)), and a softmax no P·V
// reads is no attention: both selects stay.

// CHECK-LABEL: func.func @fills_that_stay
// CHECK: gopt.select
// CHECK: gopt.select
func.func @fills_that_stay(%q: tensor<2x3x4xf32>, %kt: tensor<2x4x3xf32>, %v: tensor<2x3x4xf32>, %keep: tensor<3x3xi1>) -> (tensor<2x3x4xf32>, tensor<2x3x3xf32>) {
  %big = gopt.constant dense<-1.0e+04> : tensor<f32>
  %inf = gopt.constant dense<0xFF800000> : tensor<f32>
  %s = gopt.matmul %q, %kt : tensor<2x3x4xf32>, tensor<2x4x3xf32> -> tensor<2x3x3xf32>
  %u = gopt.select %keep, %s, %big : tensor<3x3xi1>, tensor<2x3x3xf32>, tensor<f32>
  %p = gopt.softmax %u axis = 2 : tensor<2x3x3xf32>
  %o = gopt.matmul %p, %v : tensor<2x3x3xf32>, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %s2 = gopt.matmul %q, %kt : tensor<2x3x4xf32>, tensor<2x4x3xf32> -> tensor<2x3x3xf32>
  %u2 = gopt.select %keep, %s2, %inf : tensor<3x3xi1>, tensor<2x3x3xf32>, tensor<f32>
  %p2 = gopt.softmax %u2 axis = 2 : tensor<2x3x3xf32>
  return %o, %p2 : tensor<2x3x4xf32>, tensor<2x3x3xf32>
}

// -----

// Two layers masked by one condition share one mask.

// CHECK-LABEL: func.func @shared_mask
// CHECK: %[[MASK:.*]] = gopt.constant dense<{{\[\[}}0.000000e+00, 0xFF800000], [0.000000e+00, 0.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: gopt.constant dense<{{\[\[}}0.000000e+00, 0xFF800000]
// CHECK: gopt.fusion({{.*}}%[[MASK]], %arg2 :
// CHECK: gopt.fusion({{.*}}%[[MASK]], %arg2 :
func.func @shared_mask(%q: tensor<2x2x4xf32>, %kt: tensor<2x4x2xf32>, %v: tensor<2x2x4xf32>) -> (tensor<2x2x4xf32>, tensor<2x2x4xf32>) {
  %inf = gopt.constant dense<0xFF800000> : tensor<f32>
  %future = gopt.constant dense<[[false, true], [false, false]]> : tensor<2x2xi1>
  %s = gopt.matmul %q, %kt : tensor<2x2x4xf32>, tensor<2x4x2xf32> -> tensor<2x2x2xf32>
  %u = gopt.select %future, %inf, %s : tensor<2x2xi1>, tensor<f32>, tensor<2x2x2xf32>
  %p = gopt.softmax %u axis = 2 : tensor<2x2x2xf32>
  %o = gopt.matmul %p, %v : tensor<2x2x2xf32>, tensor<2x2x4xf32> -> tensor<2x2x4xf32>
  %s2 = gopt.matmul %o, %kt : tensor<2x2x4xf32>, tensor<2x4x2xf32> -> tensor<2x2x2xf32>
  %u2 = gopt.select %future, %inf, %s2 : tensor<2x2xi1>, tensor<f32>, tensor<2x2x2xf32>
  %p2 = gopt.softmax %u2 axis = 2 : tensor<2x2x2xf32>
  %o2 = gopt.matmul %p2, %v : tensor<2x2x2xf32>, tensor<2x2x4xf32> -> tensor<2x2x4xf32>
  return %o, %o2 : tensor<2x2x4xf32>, tensor<2x2x4xf32>
}
