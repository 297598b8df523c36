// Bad input to gopt-run: a clear error and a non-zero exit, never a crash.

// RUN: not gopt-run %s --format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: gopt-run: error: unknown --format 'xml' (table or json)
// RUN: not gopt-run %s --threads=-2 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: gopt-run: error: --threads must not be negative, got -2

// RUN: not gopt-run %s --entry=square --opt-level=4 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: gopt-run: error: --opt-level=4 is not one of 0-3
// RUN: not gopt-run %s --entry=square --opt-level=1 --target=cuda 2>&1 | FileCheck %s --check-prefix=OPTCUDA
// OPTCUDA: gopt-run: error: --opt-level is for --target=cpu

// RUN: not gopt-run %s --entry=square --inputs=%t.missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: gopt-run: error: {{.*}}missing.npy: cannot read:

// RUN: rm -rf %t && gopt-run %s --entry=square --reps=0 --output-dir=%t
// RUN: not gopt-run %s --entry=two --reps=0 --inputs=%t/input0.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: gopt-run: error: @two takes 2 inputs, got 1
// RUN: not gopt-run %s --entry=other_shape --reps=0 --inputs=%t/input0.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: gopt-run: error: input #0 of @other_shape is tensor<3xf32>, expected tensor<5xf32>
// RUN: not gopt-run %s --entry=square --reps=0 --expect=%t/result0.npy,%t/result0.npy 2>&1 | FileCheck %s --check-prefix=NEXPECT
// NEXPECT: gopt-run: error: --expect names 2 files; @square has 1 results

// RUN: printf 'not numpy' > %t/bad.npy
// RUN: not gopt-run %s --entry=square --inputs=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=NOTNPY
// NOTNPY: gopt-run: error: {{.*}}bad.npy: not a .npy file (no \x93NUMPY magic)

// RUN: not gopt-run %s 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: gopt-run: error: the module has several public functions: name one with --entry (@square, @two, @other_shape, @dynamic)
// RUN: not gopt-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=NOPE
// NOPE: gopt-run: error: no function @nope with a body in the module
// RUN: not gopt-run %s --entry=dynamic 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: gopt-run: error: cannot run @dynamic: argument #0 has type tensor<?xf32>: the runner passes static ranked tensors
// RUN: not gopt-run %s --entry=square --pipeline='no-such-pass' 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: gopt-run: error: bad graph pipeline 'no-such-pass':
// RUN: not gopt-run %s --entry=square --lowering-options='no-such-option=1' 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: gopt-run: error: bad gopt-lower-to-llvm options 'no-such-option=1'
// RUN: not gopt-run %s --entry=square --reps=0 --outputs=%t/a.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=NOUT
// NOUT: gopt-run: error: --outputs names 2 files; @square has 1 results
// RUN: not gopt-run %s --entry=square --reps=-1 2>&1 | FileCheck %s --check-prefix=REPS
// REPS: gopt-run: error: --reps, --warmup and --steady-runs must not be negative
// RUN: not gopt-run %s --entry=square --steady-runs=-3 2>&1 | FileCheck %s --check-prefix=REPS

func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %m = gopt.mul %x, %x : tensor<3xf32>
  return %m : tensor<3xf32>
}
func.func @two(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %m = gopt.mul %x, %y : tensor<3xf32>
  return %m : tensor<3xf32>
}
func.func @other_shape(%x: tensor<5xf32>) -> tensor<5xf32> {
  %m = gopt.mul %x, %x : tensor<5xf32>
  return %m : tensor<5xf32>
}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// Compiled code that traps on the inputs (an integer division by zero: the
// random integers include 0) is reported; gopt-run does not crash with it.
// RUN: not gopt-run %S/../Explore/Inputs/div-by-zero.mlir 2>&1 | FileCheck %s --check-prefix=TRAP
// TRAP-NOT: Stack dump
// TRAP: gopt-run: error: the compiled code of @main crashed: signal 8, {{.*}}(an integer division by zero or overflow?)
