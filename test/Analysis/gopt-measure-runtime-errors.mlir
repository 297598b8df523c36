// A graph the probe cannot run is reported in the row; the passes and the
// record go on.

// RUN: gopt-opt %s --gopt-fold --gopt-measure --gopt-measure-runtime --gopt-measure-runtime-reps=1 -o /dev/null 2>&1 | FileCheck %s
// CHECK: (baseline) {{.*}} (did not run)
// CHECK: 0  gopt-fold {{.*}} (did not run)
// CHECK: (baseline): did not run: the module has several public functions: name one with --entry (@f, @g)

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = gopt.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = gopt.neg %x : tensor<4xf32>
  return %e : tensor<4xf32>
}
