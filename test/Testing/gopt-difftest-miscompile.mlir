// The differential tester catches a lowering bug that every configuration
// shares: with --gopt-test-miscompile-sub (a test-only option) gopt.sub is
// lowered as an addition, so all 16 configurations agree with the compiled
// reference, and only the constant evaluator, which shares no lowering code,
// shows it, at the default tolerances.

// RUN: not gopt-difftest %s --gopt-test-miscompile-sub | FileCheck %s --check-prefix=BUG
// RUN: gopt-difftest %s | FileCheck %s --check-prefix=OK

// BUG: gopt-difftest-miscompile.mlir: FAIL (16 configurations, {{[0-9]+}} compiled, 16 evaluated; checked against the evaluator)
// BUG-NEXT: MISMATCH {{.*}}gopt-difftest-miscompile.mlir reference: result #0 differs from the constant evaluator's
// BUG-NOT: MISMATCH
// BUG: difftest: 1 graphs (1 checked against the evaluator), 16 configurations ({{[0-9]+}} compiled, 16 evaluated), 1 failed

// OK: gopt-difftest-miscompile.mlir: ok (16 configurations, {{[0-9]+}} compiled, 16 evaluated; checked against the evaluator)

func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = gopt.sub %x, %y : tensor<4x8xf32>
  %r = gopt.relu %d : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
