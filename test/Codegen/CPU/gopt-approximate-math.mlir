// RUN: gopt-opt %s -split-input-file --gopt-approximate-math | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-approximate-math=ops=exp | FileCheck %s --check-prefix=ONLYEXP

// erf, tanh and exp on vectors become polynomials of arith ops (FMAs, bit
// casts): no math call is left to unroll into per-lane libm calls.
// CHECK-LABEL: func.func @vectors
// CHECK-NOT: math.erf
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK: math.fma
// CHECK: return
// ONLYEXP-LABEL: func.func @vectors
// ONLYEXP: math.erf
// ONLYEXP: math.tanh
// ONLYEXP-NOT: math.exp
// ONLYEXP: return
func.func @vectors(%x: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %e = math.erf %x : vector<8xf32>
  %t = math.tanh %x : vector<8xf32>
  %x2 = math.exp %x : vector<8xf32>
  return %e, %t, %x2 : vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// -----

// f64 has no approximation: it stays for libm.
// CHECK-LABEL: func.func @f64_stays
// CHECK: math.erf {{.*}} : f64
func.func @f64_stays(%x: f64) -> f64 {
  %e = math.erf %x : f64
  return %e : f64
}
