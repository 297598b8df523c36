// --gopt-measure-target=cuda: the runtime probe compiles the graph after
// every pass for the GPU and times it there (a bundle loaded in process).
// Here over the stand-in driver (unittests/Runtime/FakeCUDADriver.cpp), which
// runs no kernel: the plumbing, on any machine.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env GOPT_LIBCUDA=%fake_cuda_driver gopt-opt %s --gopt-optimize --gopt-measure=%t/m.json --gopt-measure-runtime --gopt-measure-runtime-reps=3 --gopt-measure-target=cuda -o /dev/null
// RUN: FileCheck %s < %t/m.json
// CHECK: "baseline_runtime": {
// CHECK-NOT: "error"
// CHECK: "repetitions": 3
// CHECK-NEXT: "target": "cuda-sm_90 (Fake)"
// Without a device, every point says why (the passes still run).
// RUN: env GOPT_LIBCUDA=/nonexistent/libcuda.so.1 gopt-opt %s --gopt-optimize --gopt-measure --gopt-measure-runtime --gopt-measure-target=cuda -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODEVICE
// NODEVICE: --gopt-measure-target=cuda needs a usable CUDA device: no CUDA driver
// RUN: not gopt-opt %s --gopt-measure --gopt-measure-runtime --gopt-measure-target=tpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: unknown --gopt-measure-target 'tpu' (cpu or cuda)
func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = gopt.relu %x : tensor<8x16xf32>
  %b = gopt.add %a, %x : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}
