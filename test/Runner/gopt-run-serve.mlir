// gopt-run --serve: one JSON line when ready, one per request. Structure
// only, never timings.

// RUN: printf 'run 3\n\nrun two\nrun 0\nrun 1\nquit\nrun 5\n' | gopt-run %s --pipeline=gopt-optimize --kernel-timers=false --serve --outputs=%t.npy | FileCheck %s
// CHECK: {"compile_ms":{"codegen":{{[0-9.e+-]+}},"from_cache":false,"graph_passes":{{[0-9.e+-]+}},"import":0,"load":0,"lowering":{{[0-9.e+-]+}},"process_compiles_before":0,"total":{{[0-9.e+-]+}},"wall":{{[0-9.e+-]+}}},"entry":"main","gopt_version":"{{[0-9.]+}}","kernels":1,"peak_bytes":[[PEAK:[0-9]+]],"ready":true}
// CHECK-NEXT: {"peak_bytes":[[PEAK]],"times_ms":[{{[0-9.e+-]+}},{{[0-9.e+-]+}},{{[0-9.e+-]+}}]}
// CHECK-NEXT: {"error":"unknown command 'run two' (run N with N >= 1, or quit)"}
// CHECK-NEXT: {"error":"unknown command 'run 0' (run N with N >= 1, or quit)"}
// CHECK-NEXT: {"peak_bytes":[[PEAK]],"times_ms":[{{[0-9.e+-]+}}]}
// Nothing is answered after quit.
// CHECK-NOT: times_ms

// The outputs were written before serving: the unoptimized graph on the same
// seeded inputs matches them.
// RUN: gopt-run %s --reps=0 --expect=%t.npy 2>&1 | FileCheck %s --check-prefix=NPY
// NPY: result #0 vs {{.*}}: match

// End of input ends the loop like quit.
// RUN: printf 'run 2\n' | gopt-run %s --serve | FileCheck %s --check-prefix=EOF
// EOF: "ready":true
// EOF-NEXT: {"peak_bytes":{{[0-9]+}},"times_ms":[{{[0-9.e+-]+}},{{[0-9.e+-]+}}]}

// Mismatching references fail before the ready line.
// RUN: gopt-run %s --reps=0 --outputs=%t.ref.npy
// RUN: printf 'run 1\n' | not gopt-run %s --seed=7 --serve --expect=%t.ref.npy 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: MISMATCH
// MISMATCH-NOT: ready
// MISMATCH: gopt-run: error: results differ from the references

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = gopt.exp %x : tensor<4x8xf32>
  %a = gopt.add %e, %x : tensor<4x8xf32>
  %m = gopt.mul %a, %x : tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
