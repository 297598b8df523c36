// gopt-run --target=cuda --export-bundle writes a bundle: the manifest, the
// host library, the inputs and the CPU reference (docs/GPU.md, "Bundles").
// No GPU is needed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run --target=cuda --pipeline=gopt-optimize --export-bundle=%t/b %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/b/manifest.txt
// RUN: test -f %t/b/model.so && test -f %t/b/input0.bin && test -f %t/b/expected0.bin
// RUN: test ! -e %t/b/model.o

// CHECK: gopt-run: wrote {{.*}}/b: @main for sm_90, 5 kernels (2 cuBLAS calls), 1 inputs, reference cpu-unoptimized; compiled in
// CHECK: gopt-run: run it with: gopt-exec {{.*}}/b

// MANIFEST:      gopt-bundle 1
// MANIFEST-NEXT: gopt-version {{[0-9.]+}}
// MANIFEST-NEXT: target cuda sm_90
// MANIFEST-NEXT: library model.so
// MANIFEST-NEXT: entry main _mlir__mlir_ciface_main
// MANIFEST-NEXT: graph-pipeline gopt-optimize
// MANIFEST-NEXT: reference cpu-unoptimized
// One line per kernel in program order: each linear is a cuBLAS call and
// then its epilogue's launch.
// MANIFEST-NEXT: kernel cublas_sgemm
// MANIFEST-NEXT: kernel main_k0_linear_add_relu_kernel
// MANIFEST-NEXT: kernel cublas_sgemm
// MANIFEST-NEXT: kernel main_k1_linear_add_kernel
// MANIFEST-NEXT: kernel main_k2_softmax_kernel
// MANIFEST-NEXT: input f32 8x16 input0.bin
// MANIFEST-NEXT: weight f32 16x32 weight0.bin
// MANIFEST-NEXT: result f32 8x10 expected0.bin

// Generated inputs: no input files, no reference; the chip is an option.
// RUN: gopt-run --target=cuda --generated-inputs --nvvm-options="chip=sm_80 features=+ptx75" --export-bundle=%t/g %s | FileCheck %s --check-prefix=GEN
// RUN: FileCheck %s --check-prefix=GEN-MANIFEST < %t/g/manifest.txt
// GEN: @main for sm_80, {{[0-9]+}} kernels{{.*}}, generated inputs, reference none
// GEN-MANIFEST: target cuda sm_80
// GEN-MANIFEST: graph-pipeline -
// GEN-MANIFEST: input f32 8x16 -
// GEN-MANIFEST: result f32 8x10 -

// Errors.
// RUN: not gopt-run --export-bundle=%t/x %s 2>&1 | FileCheck %s --check-prefix=NOCUDA
// NOCUDA: gopt-run: error: --export-bundle, --nvvm-options and --cuda-graph need --target=cuda
// RUN: not gopt-run --target=tpu %s 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: gopt-run: error: unknown --target 'tpu' (cpu, cuda or cuda-emulated)
// RUN: not gopt-run --target=cuda --nvvm-options="chip" --export-bundle=%t/x %s 2>&1 | FileCheck %s --check-prefix=OPTS
// OPTS: gopt-run: error: bad gopt-lower-to-nvvm options 'chip'
// RUN: not gopt-run --target=cuda --serve %s 2>&1 | FileCheck %s --check-prefix=SERVE
// SERVE: gopt-run: error: --serve, --outputs and --output-dir are for --target=cpu

func.func @main(%x: tensor<8x16xf32>) -> tensor<8x10xf32> {
  %w1 = gopt.constant dense<[[0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.20, 0.21, 0.22, 0.23, 0.24, 0.25, 0.26, 0.27, 0.28, 0.29, 0.30, 0.31, 0.32]]> : tensor<1x32xf32>
  %w1b = gopt.broadcast_to %w1 : tensor<1x32xf32> -> tensor<16x32xf32>
  %b1 = gopt.constant dense<0.01> : tensor<32xf32>
  %w2 = gopt.constant dense<-0.03> : tensor<32x10xf32>
  %b2 = gopt.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]> : tensor<10xf32>
  %h = gopt.linear %x, %w1b : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %hb = gopt.add %h, %b1 : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %a = gopt.relu %hb : tensor<8x32xf32>
  %o = gopt.linear %a, %w2 : tensor<8x32xf32>, tensor<32x10xf32> -> tensor<8x10xf32>
  %ob = gopt.add %o, %b2 : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  %p = gopt.softmax %ob axis = 1 : tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
