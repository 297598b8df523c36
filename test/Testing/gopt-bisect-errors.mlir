// Bad input to gopt-bisect: a clear error and exit 2.

// RUN: not gopt-bisect 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not gopt-bisect %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not gopt-bisect %s --pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not gopt-bisect %s --pipeline='builtin.module()' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not gopt-bisect %s --slower --margin=-1 2>&1 | FileCheck %s --check-prefix=MARGIN
// RUN: not gopt-bisect %s --slower --rounds=0 2>&1 | FileCheck %s --check-prefix=ROUNDS
// RUN: %python -c "print('func.func @main(')" > %t.bad.mlir
// RUN: not gopt-bisect %t.bad.mlir 2>&1 | FileCheck %s --check-prefix=PARSE

// NOFILE: gopt-bisect: Not enough positional command line arguments specified!
// MISSING: gopt-bisect: error: {{.*}}does-not-exist.mlir
// PIPELINE: gopt-bisect: error: bad pipeline 'builtin.module(no-such-pass)'
// EMPTY: gopt-bisect: error: the pipeline 'builtin.module()' has no pass
// MARGIN: gopt-bisect: error: --margin must be non-negative
// ROUNDS: gopt-bisect: error: --rounds and --runs must be at least 1
// PARSE: gopt-bisect: error: cannot parse

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = gopt.relu %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
