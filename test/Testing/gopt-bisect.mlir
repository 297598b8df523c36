// gopt-bisect finds the first pass, then the first pattern application in
// it, that makes a pipeline wrong: with --gopt-test-wrong-fold (a test-only
// option) gopt-fold rewrites gopt.sub as gopt.add. The reproduce command it
// prints is run too: with the found count the sub is an add, with one less
// it is still a sub.

// RUN: not gopt-bisect %s --gopt-test-wrong-fold | FileCheck %s
// RUN: not gopt-bisect %s --gopt-test-wrong-fold --pipeline='builtin.module(cse,gopt-fold)' --quiet | FileCheck %s --check-prefix=SECOND
// RUN: gopt-bisect %s | FileCheck %s --check-prefix=GOOD
// RUN: gopt-bisect %s --gopt-test-wrong-fold --pipeline='builtin.module(cse,gopt-fuse)' --quiet | FileCheck %s --check-prefix=UNTOUCHED
// RUN: gopt-bisect %s --slower --margin=1000 --rounds=2 --runs=3 --quiet | FileCheck %s --check-prefix=FAST

// RUN: gopt-opt %s --pass-pipeline='builtin.module(gopt-fold{max-folded-elements=65536})' --mlir-debug-counter=apply-pattern-count=26 --gopt-test-wrong-fold | FileCheck %s --check-prefix=AT
// RUN: gopt-opt %s --pass-pipeline='builtin.module(gopt-fold{max-folded-elements=65536})' --mlir-debug-counter=apply-pattern-count=25 --gopt-test-wrong-fold | FileCheck %s --check-prefix=BEFORE

// CHECK: checking the whole pipeline and each prefix of it:
// CHECK: builtin.module(gopt-fold{max-folded-elements=65536}) BAD: result #0 differs
// CHECK: bisecting the [[N:[0-9]+]] pattern applications of gopt-fold
// CHECK: with 0 of [[N]] pattern applications: good
// CHECK: the pipeline is wrong: result #0 differs from the unoptimized graph's
// CHECK: first bad pass: gopt-fold{max-folded-elements=65536} (pass 1 of 6)
// CHECK: first bad rewrite: pattern application 26 of [[N]], pattern {{.*}}TestWrongFoldSub on 'gopt.sub' at loc({{.*}}gopt-bisect.mlir":[[@LINE+23]]:8)
// CHECK: reproduce: gopt-opt {{.*}}gopt-bisect.mlir --pass-pipeline='builtin.module(gopt-fold{max-folded-elements=65536})' --mlir-debug-counter=apply-pattern-count=26
// CHECK: IR before that rewrite (applications 1..25):
// CHECK: gopt.sub
// CHECK: IR after it (applications 1..26):
// CHECK-NOT: gopt.sub
// CHECK: gopt.add

// SECOND: first bad pass: gopt-fold{max-folded-elements=65536} (pass 2 of 2)
// SECOND: reproduce: gopt-opt {{.*}}gopt-bisect.mlir --pass-pipeline='builtin.module(cse)' | gopt-opt --pass-pipeline='builtin.module(gopt-fold{max-folded-elements=65536})' --mlir-debug-counter=apply-pattern-count=

// GOOD: the pipeline is not wrong on {{.*}}gopt-bisect.mlir ({{.*}}); nothing to bisect
// UNTOUCHED: the pipeline is not wrong
// FAST: the pipeline is not slower

// AT: gopt.add %{{.*}}, %arg1
// BEFORE: gopt.sub %{{.*}}, %arg1

func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = gopt.constant dense<2.0> : tensor<4x8xf32>
  %m = gopt.mul %x, %c : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %one = gopt.constant dense<1.0> : tensor<4x8xf32>
  %z = gopt.mul %y, %one : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %d = gopt.sub %m, %z : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = gopt.relu %d : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
