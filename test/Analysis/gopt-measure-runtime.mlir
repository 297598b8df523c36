// --gopt-measure-runtime: the compiled graph's run time and measured peak
// memory before the first and after every top-level pass. Structure only.

// RUN: gopt-opt %s --gopt-optimize --gopt-measure --gopt-measure-runtime --gopt-measure-runtime-reps=2 --gopt-measure-runtime-warmup=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: #  pass {{.*}} changed   run ms [IQR]             meas. peak
// TABLE-NEXT: (baseline) {{.*}} 3 {{.*}} [{{.*}}] {{.*}}B
// TABLE-NEXT: 0  gopt-fold {{.*}} [{{.*}}] {{.*}}B
// TABLE: 4  gopt-fuse {{.*}} 1 {{.*}} yes {{.*}} [{{.*}}] {{.*}}B
// TABLE: run ms: median [IQR] of 2 timed runs of the compiled graph after each top-level pass

// RUN: gopt-opt %s --gopt-optimize --gopt-measure=%t.json --gopt-measure-runtime --gopt-measure-runtime-reps=2 -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "baseline_runtime": {
// JSON-NEXT: "compile_ms":
// JSON-NEXT: "cv":
// JSON-NEXT: "kernels": 3,
// JSON-NEXT: "median_ms":
// JSON-NEXT: "peak_bytes":
// JSON-NEXT: "q1_ms":
// JSON-NEXT: "q3_ms":
// JSON-NEXT: "repetitions": 2
// JSON: "argument": "gopt-fuse",
// JSON: "runtime": {
// JSON: "kernels": 1,

// RUN: gopt-opt %s --gopt-optimize --gopt-measure=%t.csv --gopt-measure-format=csv --gopt-measure-runtime --gopt-measure-runtime-reps=1 -o /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// CSV: pipeline,wall_ms,cpu_ms,run_ms_median,run_ms_q1,run_ms_q3,run_peak_bytes
// CSV-NEXT: -1,-1,0,(baseline),{{.*}},{{[0-9.]+}},{{[0-9.]+}},{{[0-9.]+}},{{[0-9]+}}

// Without --gopt-measure-runtime nothing runs and no runtime key appears.
// RUN: gopt-opt %s --gopt-optimize --gopt-measure=%t.plain.json -o /dev/null
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.json
// PLAIN-NOT: "runtime"
// PLAIN-NOT: "baseline_runtime"

// The runtime options need --gopt-measure, and sane counts.
// RUN: not gopt-opt %s --gopt-measure-runtime 2>&1 | FileCheck %s --check-prefix=NEEDS
// NEEDS: error: --gopt-measure-runtime and its options need --gopt-measure
// RUN: not gopt-opt %s --gopt-measure --gopt-measure-runtime --gopt-measure-runtime-reps=0 2>&1 | FileCheck %s --check-prefix=REPS
// REPS: error: --gopt-measure-runtime-reps must be at least 1

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = gopt.exp %x : tensor<4x8xf32>
  %a = gopt.add %e, %x : tensor<4x8xf32>
  %m = gopt.mul %a, %a : tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
