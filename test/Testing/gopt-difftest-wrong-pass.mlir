// The differential tester catches a graph pass that changes what a graph
// computes, also when it compiles only the reference and gopt-optimize
// (--compile-all=false, the mode of large runs): with --gopt-test-wrong-fold
// (a test-only option) gopt-fold rewrites gopt.sub as gopt.add. The constant
// evaluator's result on each optimized graph then differs from its result on
// the unoptimized one for exactly the configurations that run gopt-fold, and
// the compiled gopt-optimize differs from the compiled reference.

// RUN: not gopt-difftest %s --gopt-test-wrong-fold --compile-all=false --opt-level=0 | FileCheck %s --check-prefix=FAST
// RUN: not gopt-difftest %s --gopt-test-wrong-fold | FileCheck %s --check-prefix=ALL
// RUN: gopt-difftest %s --compile-all=false --opt-level=0 | FileCheck %s --check-prefix=OK

// FAST: gopt-difftest-wrong-pass.mlir: FAIL (16 configurations, 1 compiled, 16 evaluated; checked against the evaluator)
// FAST-NOT: MISMATCH {{.*}} reference:
// FAST-NOT: MISMATCH {{.*}} dce:
// FAST: MISMATCH {{.*}} fold: result #0 (evaluated) differs from the constant evaluator's on the unoptimized graph
// FAST-NOT: MISMATCH {{.*}} cse:
// FAST: MISMATCH {{.*}} fold+dce: result #0 (evaluated) differs
// FAST-NOT: MISMATCH {{.*}} dce+cse:
// FAST: MISMATCH {{.*}} fold+dce+cse+fuse: result #0 (evaluated) differs
// FAST-NEXT: MISMATCH {{.*}} gopt-optimize: result #0 (evaluated) differs
// FAST-NEXT: MISMATCH {{.*}} gopt-optimize: result #0 differs from the reference
// FAST: difftest: 1 graphs (1 checked against the evaluator), 16 configurations (1 compiled, 16 evaluated), 1 failed

// With every configuration compiled, each configuration with gopt-fold
// differs both ways.
// ALL: MISMATCH {{.*}} fold: result #0 (evaluated) differs
// ALL-NEXT: MISMATCH {{.*}} fold: result #0 differs from the reference
// ALL-NOT: MISMATCH {{.*}} dce:
// ALL: difftest: 1 graphs (1 checked against the evaluator), 16 configurations ({{[0-9]+}} compiled, 16 evaluated), 1 failed

// OK: gopt-difftest-wrong-pass.mlir: ok (16 configurations, 1 compiled, 16 evaluated; checked against the evaluator)

func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = gopt.sub %x, %y : tensor<4x8xf32>
  %r = gopt.relu %d : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
