// Bad input to gopt-difftest: a clear error and a non-zero exit.

// RUN: not gopt-difftest 2>&1 | FileCheck %s --check-prefix=NOTHING
// RUN: not gopt-difftest --seeds=9-2 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not gopt-difftest --seeds=a-b 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not gopt-difftest %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING

// NOTHING: gopt-difftest: error: nothing to test
// RANGE: gopt-difftest: error: bad seed range
// MISSING: gopt-difftest: error: {{.*}}does-not-exist.mlir

// RUN: not gopt-difftest --seeds=0 --ops=0 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not gopt-difftest --seeds=0 --ops=200-20 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not gopt-difftest --seeds=0 --ops=many 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not gopt-difftest --seeds=0 --opt-level=4 2>&1 | FileCheck %s --check-prefix=LEVEL
// OPS: gopt-difftest: error: bad --ops '{{.*}}': expected N or A-B with 1 <= A <= B
// LEVEL: gopt-difftest: error: --opt-level=4 is not one of 0-3
