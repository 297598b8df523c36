// RUN: gopt-opt %s -split-input-file --gopt-gpu-stream-library-calls | FileCheck %s

// Host code as gpu-to-llvm leaves it: gpu-async-region's wait before each
// library call (synchronize and destroy the stream), a new stream after.

llvm.func @mgpuStreamCreate() -> !llvm.ptr
llvm.func @mgpuStreamSynchronize(!llvm.ptr)
llvm.func @mgpuStreamDestroy(!llvm.ptr)
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @work(!llvm.ptr, !llvm.ptr)
llvm.func @free(!llvm.ptr)
llvm.func @gopt_cuda_sgemm(i64, f32, !llvm.ptr)

// Two GEMMs between work on streams: both go on the first stream, the
// streams after them are that stream, one wait remains, at the end.
// CHECK: llvm.func @gopt_cuda_sgemm_async(!llvm.ptr, i64, f32, !llvm.ptr)
// CHECK-LABEL: llvm.func @two_gemms(
// CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK-NEXT: %[[A:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]],
// CHECK-NEXT: llvm.call @gopt_cuda_sgemm_async(%[[S]], %{{.*}}, %{{.*}}, %[[A]])
// CHECK-NEXT: llvm.call @work(%[[S]], %[[A]])
// CHECK-NEXT: llvm.mul
// CHECK-NEXT: llvm.call @gopt_cuda_sgemm_async(%[[S]], %{{.*}}, %{{.*}}, %[[A]])
// CHECK-NEXT: llvm.call @work(%[[S]], %[[A]])
// CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK-NEXT: llvm.call @free(%[[A]])
// CHECK-NEXT: llvm.return
llvm.func @two_gemms(%n: i64) {
  %alpha = llvm.mlir.constant(1.0 : f32) : f32
  %shared = llvm.mlir.constant(0 : i8) : i8
  %s0 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  %a = llvm.call @mgpuMemAlloc(%n, %s0, %shared) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.call @mgpuStreamSynchronize(%s0) : (!llvm.ptr) -> ()
  llvm.call @mgpuStreamDestroy(%s0) : (!llvm.ptr) -> ()
  llvm.call @gopt_cuda_sgemm(%n, %alpha, %a) : (i64, f32, !llvm.ptr) -> ()
  %s1 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  llvm.call @work(%s1, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @mgpuStreamSynchronize(%s1) : (!llvm.ptr) -> ()
  llvm.call @mgpuStreamDestroy(%s1) : (!llvm.ptr) -> ()
  %m = llvm.mul %n, %n : i64
  llvm.call @gopt_cuda_sgemm(%m, %alpha, %a) : (i64, f32, !llvm.ptr) -> ()
  %s2 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  llvm.call @work(%s2, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @mgpuStreamSynchronize(%s2) : (!llvm.ptr) -> ()
  llvm.call @mgpuStreamDestroy(%s2) : (!llvm.ptr) -> ()
  llvm.call @free(%a) : (!llvm.ptr) -> ()
  llvm.return
}

// The GEMM last: on the stream, which is then waited for.
// CHECK-LABEL: llvm.func @gemm_last(
// CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK-NEXT: llvm.call @work(%[[S]],
// CHECK-NEXT: llvm.call @gopt_cuda_sgemm_async(%[[S]],
// CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK-NEXT: llvm.return
llvm.func @gemm_last(%n: i64, %a: !llvm.ptr) {
  %alpha = llvm.mlir.constant(1.0 : f32) : f32
  %s0 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  llvm.call @work(%s0, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @mgpuStreamSynchronize(%s0) : (!llvm.ptr) -> ()
  llvm.call @mgpuStreamDestroy(%s0) : (!llvm.ptr) -> ()
  llvm.call @gopt_cuda_sgemm(%n, %alpha, %a) : (i64, f32, !llvm.ptr) -> ()
  llvm.return
}

// Kept: host code with effects between the wait and the call (a free),
// and a call in another block than the wait (a loop over batches). The
// waits stay where the host needs them.
// CHECK-LABEL: llvm.func @kept(
// CHECK: %[[S0:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S0]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[S0]])
// CHECK-NEXT: llvm.call @free(
// CHECK-NEXT: llvm.call @gopt_cuda_sgemm(
// CHECK-NEXT: %[[S1:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S1]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[S1]])
// CHECK-NEXT: llvm.br ^bb1
// CHECK: ^bb1:
// CHECK-NEXT: llvm.call @gopt_cuda_sgemm(
// CHECK-NOT: _async
llvm.func @kept(%n: i64, %a: !llvm.ptr, %b: !llvm.ptr) {
  %alpha = llvm.mlir.constant(1.0 : f32) : f32
  %s0 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  llvm.call @work(%s0, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @mgpuStreamSynchronize(%s0) : (!llvm.ptr) -> ()
  llvm.call @mgpuStreamDestroy(%s0) : (!llvm.ptr) -> ()
  llvm.call @free(%b) : (!llvm.ptr) -> ()
  llvm.call @gopt_cuda_sgemm(%n, %alpha, %a) : (i64, f32, !llvm.ptr) -> ()
  %s1 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  llvm.call @work(%s1, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @mgpuStreamSynchronize(%s1) : (!llvm.ptr) -> ()
  llvm.call @mgpuStreamDestroy(%s1) : (!llvm.ptr) -> ()
  llvm.br ^bb1
^bb1:
  llvm.call @gopt_cuda_sgemm(%n, %alpha, %a) : (i64, f32, !llvm.ptr) -> ()
  llvm.return
}
