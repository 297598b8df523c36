// RUN: gopt-opt %s -split-input-file -verify-diagnostics --gopt-verify-llvm-lowered

// LLVM-dialect ops only: nothing to report.
llvm.func @fine(%a: i64) -> i64 {
  llvm.return %a : i64
}

// -----

// The first op left is named, with the count of all that are left.
llvm.func @left(%a: f32) -> f32 {
  // expected-error @+1 {{gopt-lower-to-llvm: 'arith.addf' was not lowered to the LLVM dialect (2 non-LLVM ops remain); its dialect needs a conversion in the pipeline}}
  %b = arith.addf %a, %a : f32
  %c = arith.mulf %b, %b : f32
  llvm.return %c : f32
}

