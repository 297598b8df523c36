// RUN: gopt-opt %s -verify-each --gopt-lower-to-nvvm=format=isa | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-lower-to-nvvm=format=isa | grep -o "gpu.binary @[a-z0-9_]*" | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=gpu.binary
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-nvvm=format=isa | grep -o "gpu.binary @[a-z0-9_]*" | FileCheck %s --check-prefix=FUSED --implicit-check-not=gpu.binary
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-nvvm="format=isa chip=sm_80 features=+ptx75 block-size=128" | FileCheck %s --check-prefix=OPTIONS
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-nvvm=format=llvm | FileCheck %s --check-prefix=LLVMIR
// RUN: gopt-opt %s -verify-each --gopt-lower-to-nvvm="format=isa stream-library-calls=false" | FileCheck %s --check-prefix=SYNC

// With stream-library-calls=false, gpu-async-region's streams as they are:
// the stream waited for and destroyed before each GEMM, whose call waits
// for it (gopt_cuda_sgemm), a new stream after.
// SYNC-LABEL: llvm.func @mlp(
// SYNC: %[[S0:.*]] = llvm.call @mgpuStreamCreate()
// SYNC: llvm.call @mgpuStreamSynchronize(%[[S0]])
// SYNC-NEXT: llvm.call @mgpuStreamDestroy(%[[S0]])
// SYNC-NEXT: llvm.call @gopt_cuda_sgemm(
// SYNC-NEXT: %[[S1:.*]] = llvm.call @mgpuStreamCreate()
// SYNC: gpu.launch_func <%[[S1]] : !llvm.ptr>
// SYNC: llvm.call @mgpuStreamSynchronize(%[[S1]])
// SYNC-NEXT: llvm.call @mgpuStreamDestroy(%[[S1]])
// SYNC-NEXT: llvm.call @gopt_cuda_sgemm(
// SYNC-NOT: _async

// Only LLVM-dialect ops, launches, library calls and GPU binaries remain.
// The entry keeps its C interface; the kernel functions are inlined into it
// after their kernels were outlined (named after them). The two linears are
// cuBLAS calls (their splat weights keep them on the library path) on the
// stream of the launches around them (gopt_cuda_sgemm_async: one stream for
// the whole call, gopt-gpu-stream-library-calls), synchronized once, before
// the deallocations, which under a condition are runtime calls (no
// stream). Device buffers come from the runtime.
// CHECK-NOT: gopt.
// CHECK-NOT: func.func
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK-LABEL: llvm.func @mlp(
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuMemAlloc(
// CHECK-NOT: llvm.call @mgpuStream
// CHECK: llvm.call @gopt_cuda_sgemm_async(%[[S]],
// CHECK-NOT: llvm.call @mgpuStream
// CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @mlp_k1_add_kernel::@mlp_k1_add_kernel blocks in
// CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @mlp_k2_relu_kernel::@mlp_k2_relu_kernel blocks in
// CHECK-NOT: llvm.call @mgpuStream
// CHECK: llvm.call @gopt_cuda_sgemm_async(%[[S]],
// CHECK-NOT: llvm.call @mgpuStream
// CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @mlp_k4_add_kernel::@mlp_k4_add_kernel blocks in
// CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @mlp_k5_softmax_kernel::@mlp_k5_softmax_kernel blocks in
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK-NOT: llvm.call @mgpuStream
// CHECK: llvm.call @gopt_cuda_free(
// CHECK-NOT: llvm.call @mgpuStream
// CHECK: llvm.return
// A kernel's PTX for sm_90: an entry reading and writing global memory.
// CHECK: gpu.binary @mlp_k1_add_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME: assembly = "
// CHECK-SAME: .target sm_90
// CHECK-SAME: .visible .entry mlp_k1_add_kernel(
// CHECK-SAME: ld.global
// CHECK-SAME: st.global
// CHECK: gpu.binary @mlp_k5_softmax_kernel

// One binary per kernel that launches: unfused, the four that are not
// library calls; after gopt-optimize, the two linears' epilogues and the
// softmax. The entry's copy of its result (for a buffer it would not own)
// folds away once the kernels are inlined, and its module gets no binary
// (gopt-gpu-drop-unlaunched-modules).
// UNFUSED: gpu.binary @mlp_k1_add_kernel
// UNFUSED-NEXT: gpu.binary @mlp_k2_relu_kernel
// UNFUSED-NEXT: gpu.binary @mlp_k4_add_kernel
// UNFUSED-NEXT: gpu.binary @mlp_k5_softmax_kernel
// FUSED: gpu.binary @mlp_k0_linear_add_relu_kernel
// FUSED-NEXT: gpu.binary @mlp_k1_linear_add_kernel
// FUSED-NEXT: gpu.binary @mlp_k2_softmax_kernel

// Options reach the target and the launches.
// OPTIONS: gpu.launch_func {{.*}}@mlp_k0_linear_add_relu_kernel::@mlp_k0_linear_add_relu_kernel blocks in
// OPTIONS: gpu.binary @mlp_k0_linear_add_relu_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx75">
// OPTIONS-SAME: .target sm_80
// OPTIONS-SAME: .maxntid 128, 1, 1

// format=llvm: the device code as NVVM LLVM IR (bitcode).
// LLVMIR: gpu.binary @mlp_k0_linear_add_relu_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, offload = "BC
func.func @mlp(%x: tensor<8x16xf32>) -> tensor<8x10xf32> {
  %w1 = gopt.constant dense<0.05> : tensor<16x32xf32>
  %b1 = gopt.constant dense<0.01> : tensor<32xf32>
  %w2 = gopt.constant dense<-0.03> : tensor<32x10xf32>
  %b2 = gopt.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]> : tensor<10xf32>
  %h = gopt.linear %x, %w1 : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %hb = gopt.add %h, %b1 : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %a = gopt.relu %hb : tensor<8x32xf32>
  %o = gopt.linear %a, %w2 : tensor<8x32xf32>, tensor<32x10xf32> -> tensor<8x10xf32>
  %ob = gopt.add %o, %b2 : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  %p = gopt.softmax %ob axis = 1 : tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
