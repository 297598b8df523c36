// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm -verify-diagnostics

// An op that no stage of the pipeline lowers (the pipeline has no complex
// conversion) is reported by the final check, by name.
func.func @complex_abs(%a: f32, %b: f32) -> f32 {
  // expected-error @+1 {{gopt-lower-to-llvm: 'complex.create' was not lowered to the LLVM dialect}}
  %c = complex.create %a, %b : complex<f32>
  %r = complex.abs %c : complex<f32>
  return %r : f32
}
