// gopt-difftest reports a configuration whose results differ, names the
// configuration and the first differing element, and exits 1. With zero
// tolerance, gopt-fold's constant evaluation (in double, rounded once) and
// the compiled f32 code (libm's float functions) differ in the last bit for
// some of these 64 values; within the default tolerances they agree.

// RUN: not gopt-difftest %s --rtol=0 --atol=0 | FileCheck %s --check-prefix=EXACT
// RUN: gopt-difftest %s | FileCheck %s --check-prefix=DEFAULT

// The compiled reference also differs from the constant evaluator (the
// independent reference) in the last bit, at zero tolerance.
// EXACT: gopt-difftest-detects.mlir: FAIL (16 configurations, 3 compiled, 16 evaluated; checked against the evaluator)
// EXACT: MISMATCH {{.*}}gopt-difftest-detects.mlir reference: result #0 differs from the constant evaluator's
// EXACT: MISMATCH {{.*}}gopt-difftest-detects.mlir fold: result #0 differs from the reference
// EXACT-NOT: MISMATCH {{.*}} dce:
// EXACT: difftest: 1 graphs (1 checked against the evaluator), 16 configurations (3 compiled, 16 evaluated), 1 failed

// DEFAULT: gopt-difftest-detects.mlir: ok (16 configurations, 3 compiled, 16 evaluated; checked against the evaluator)
// DEFAULT: difftest: 1 graphs (1 checked against the evaluator), 16 configurations (3 compiled, 16 evaluated), 0 failed

func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c = gopt.constant dense<[-1.3000, -1.2629, -1.2258, -1.1887, -1.1516, -1.1145, -1.0774, -1.0403, -1.0032, -0.9661, -0.9290, -0.8919, -0.8548, -0.8177, -0.7806, -0.7435, -0.7064, -0.6693, -0.6322, -0.5951, -0.5580, -0.5209, -0.4838, -0.4467, -0.4096, -0.3725, -0.3354, -0.2983, -0.2612, -0.2241, -0.1870, -0.1499, -0.1128, -0.0757, -0.0386, -0.0015, 0.0356, 0.0727, 0.1098, 0.1469, 0.1840, 0.2211, 0.2582, 0.2953, 0.3324, 0.3695, 0.4066, 0.4437, 0.4808, 0.5179, 0.5550, 0.5921, 0.6292, 0.6663, 0.7034, 0.7405, 0.7776, 0.8147, 0.8518, 0.8889, 0.9260, 0.9631, 1.0002, 1.0373]> : tensor<64xf32>
  %e = gopt.exp %c : tensor<64xf32>
  %t = gopt.tanh %e : tensor<64xf32>
  %s = gopt.sigmoid %t : tensor<64xf32>
  %r = gopt.mul %x, %s : tensor<64xf32>
  return %r : tensor<64xf32>
}
