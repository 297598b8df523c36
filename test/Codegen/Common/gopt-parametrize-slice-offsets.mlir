// RUN: gopt-opt %s -split-input-file -verify-each --gopt-parametrize-slice-offsets | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-parametrize-slice-offsets --gopt-deduplicate-kernels | FileCheck %s --check-prefix=DEDUP

// Two steps of an unrolled recurrence: each kernel reads its step of a
// projection computed for all steps, at offset 0 and 1 of dim 0 (dim 2's
// offset, 8, is the same in both and stays a constant). Both kernels take
// the offset as an index argument, their calls pass it, and then they are
// one function.
// CHECK-LABEL: func.func @steps
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = call @steps_k0_slice_add(%{{.*}}, %{{.*}}, %[[C0]])
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: call @steps_k1_slice_add(%{{.*}}, %[[A]], %[[C1]])
// CHECK: func.func private @steps_k0_slice_add(%[[P:.*]]: tensor<4x1x16xf32>, %{{.*}}: tensor<1x8xf32>, %[[T:.*]]: index)
// CHECK: tensor.extract_slice %[[P]][%[[T]], 0, 8] [1, 1, 8] [1, 1, 1]
// CHECK: func.func private @steps_k1_slice_add(%[[P1:.*]]: tensor<4x1x16xf32>, %{{.*}}: tensor<1x8xf32>, %[[T1:.*]]: index)
// CHECK: tensor.extract_slice %[[P1]][%[[T1]], 0, 8] [1, 1, 8] [1, 1, 1]

// DEDUP-LABEL: func.func @steps
// DEDUP: call @steps_k0_slice_add
// DEDUP: call @steps_k0_slice_add
// DEDUP: func.func private @steps_k0_slice_add({{.*}}gopt.kernel_copies = {steps_k1_slice_add = 1 : i64}
// DEDUP-NOT: func.func private @steps_k1

func.func @steps(%p: tensor<4x1x16xf32>, %h: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = call @steps_k0_slice_add(%p, %h) : (tensor<4x1x16xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = call @steps_k1_slice_add(%p, %0) : (tensor<4x1x16xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return %1 : tensor<1x8xf32>
}
func.func private @steps_k0_slice_add(%p: tensor<4x1x16xf32>, %h: tensor<1x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 0 : i64} {
  %s = tensor.extract_slice %p[0, 0, 8] [1, 1, 8] [1, 1, 1] : tensor<4x1x16xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.add ins(%s, %h : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
func.func private @steps_k1_slice_add(%p: tensor<4x1x16xf32>, %h: tensor<1x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 1 : i64} {
  %s = tensor.extract_slice %p[1, 0, 8] [1, 1, 8] [1, 1, 1] : tensor<4x1x16xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.add ins(%s, %h : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

// Left as they are: kernels whose slices differ in size, or whose other
// ops differ (a sub where the other adds), or that have no twin; their
// offsets stay constants.
// CHECK-LABEL: func.func @apart
// CHECK-NOT: arith.constant
// CHECK: call @apart_k0_slice_add(%{{[^,]*}}, %{{[^,]*}}) :
// CHECK: call @apart_k1_slice_add(%{{[^,]*}}, %{{[^,]*}}) :
// CHECK: call @apart_k2_slice_sub(%{{[^,]*}}, %{{[^,]*}}) :
// CHECK-NOT: index
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [1, 8]
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [2, 8]
// CHECK: tensor.extract_slice %{{.*}}[2, 0] [1, 8]
func.func @apart(%p: tensor<4x8xf32>, %h: tensor<1x8xf32>, %g: tensor<2x8xf32>) -> (tensor<1x8xf32>, tensor<2x8xf32>, tensor<1x8xf32>) {
  %0 = call @apart_k0_slice_add(%p, %h) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = call @apart_k1_slice_add(%p, %g) : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = call @apart_k2_slice_sub(%p, %h) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return %0, %1, %2 : tensor<1x8xf32>, tensor<2x8xf32>, tensor<1x8xf32>
}
func.func private @apart_k0_slice_add(%p: tensor<4x8xf32>, %h: tensor<1x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 0 : i64} {
  %s = tensor.extract_slice %p[0, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.add ins(%s, %h : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
func.func private @apart_k1_slice_add(%p: tensor<4x8xf32>, %h: tensor<2x8xf32>) -> tensor<2x8xf32> attributes {gopt.kernel = 1 : i64} {
  %s = tensor.extract_slice %p[1, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  %r = linalg.add ins(%s, %h : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}
func.func private @apart_k2_slice_sub(%p: tensor<4x8xf32>, %h: tensor<1x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 2 : i64} {
  %s = tensor.extract_slice %p[2, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.sub ins(%s, %h : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

// A kernel something other than a call names is not changed, nor is its
// twin given an argument for it.
// CHECK-LABEL: func.func @named
// CHECK-NOT: arith.constant
// CHECK: call @named_k0_slice_add(%{{[^,]*}}, %{{[^,]*}}) :
// CHECK: call @named_k1_slice_add(%{{[^,]*}}, %{{[^,]*}}) {other
func.func @named(%p: tensor<4x8xf32>, %h: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %0 = call @named_k0_slice_add(%p, %h) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = call @named_k1_slice_add(%p, %h) {other = @named_k0_slice_add} : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return %0, %1 : tensor<1x8xf32>, tensor<1x8xf32>
}
func.func private @named_k0_slice_add(%p: tensor<4x8xf32>, %h: tensor<1x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 0 : i64} {
  %s = tensor.extract_slice %p[0, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.add ins(%s, %h : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
func.func private @named_k1_slice_add(%p: tensor<4x8xf32>, %h: tensor<1x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 1 : i64} {
  %s = tensor.extract_slice %p[3, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.add ins(%s, %h : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

// Two offsets differ (one slice of each argument): two index arguments,
// in the order of the slices, each call passing its kernel's.
// DEDUP-LABEL: func.func @f
// DEDUP: %[[C0:.*]] = arith.constant 0 : index
// DEDUP-NEXT: %[[C3:.*]] = arith.constant 3 : index
// DEDUP-NEXT: call @f_k0(%{{.*}}, %{{.*}}, %[[C0]], %[[C3]])
// DEDUP-NEXT: %[[C1:.*]] = arith.constant 1 : index
// DEDUP-NEXT: %[[C2:.*]] = arith.constant 2 : index
// DEDUP-NEXT: call @f_k0(%{{.*}}, %{{.*}}, %[[C1]], %[[C2]])
// DEDUP: func.func private @f_k0(%[[P:.*]]: tensor<4x8xf32>, %[[Q:.*]]: tensor<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// DEDUP-NEXT: tensor.extract_slice %[[P]][%[[I]], 0]
// DEDUP-NEXT: tensor.extract_slice %[[Q]][%[[J]], 0]
func.func @f(%p: tensor<4x8xf32>, %q: tensor<4x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %0 = call @f_k0(%p, %q) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
  %1 = call @f_k1(%p, %q) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
  return %0, %1 : tensor<1x8xf32>, tensor<1x8xf32>
}
func.func private @f_k0(%p: tensor<4x8xf32>, %q: tensor<4x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 0 : i64} {
  %s = tensor.extract_slice %p[0, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %t = tensor.extract_slice %q[3, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.add ins(%s, %t : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
func.func private @f_k1(%p: tensor<4x8xf32>, %q: tensor<4x8xf32>) -> tensor<1x8xf32> attributes {gopt.kernel = 1 : i64} {
  %s = tensor.extract_slice %p[1, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %t = tensor.extract_slice %q[2, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.add ins(%s, %t : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
