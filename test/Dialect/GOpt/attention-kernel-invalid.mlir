// RUN: gopt-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of gopt.attention_kernel's verifier.

func.func @rank(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{init must be ranked with one or two batch dims (rank 3 or 4), got 'tensor<16x8xf32>'}}
  %o = gopt.attention_kernel ins(%x, %x, %x : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) outs(%x : tensor<16x8xf32>) {query_perm = array<i64: 0, 1>, key_perm = array<i64: 1, 0>, value_perm = array<i64: 0, 1>, scale = 1.0 : f32} -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

func.func @f16(%x: tensor<2x16x8xf16>, %e: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{query must be f32, got 'tensor<2x16x8xf16>'}}
  %o = gopt.attention_kernel ins(%x, %x, %x : tensor<2x16x8xf16>, tensor<2x16x8xf16>, tensor<2x16x8xf16>) outs(%e : tensor<2x16x8xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 1>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

func.func @perm(%x: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{key_perm must be a permutation of the 3 dims}}
  %o = gopt.attention_kernel ins(%x, %x, %x : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x8xf32>) outs(%x : tensor<2x16x8xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 2>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

func.func @batch(%x: tensor<2x16x8xf32>, %y: tensor<3x16x8xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{query, key, value and init must have the same batch dims}}
  %o = gopt.attention_kernel ins(%x, %y, %x : tensor<2x16x8xf32>, tensor<3x16x8xf32>, tensor<2x16x8xf32>) outs(%x : tensor<2x16x8xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 1>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

func.func @key_depth(%q: tensor<2x16x8xf32>, %k: tensor<2x16x4xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{the key's view must be [B..., D, Sk] with the query's D = 8, got D = 4}}
  %o = gopt.attention_kernel ins(%q, %k, %v : tensor<2x16x8xf32>, tensor<2x16x4xf32>, tensor<2x16x8xf32>) outs(%q : tensor<2x16x8xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 1>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

func.func @value_length(%q: tensor<2x16x8xf32>, %v: tensor<2x12x8xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{the value's view must be [B..., Sk, Dv] with the key's Sk = 16, got Sk = 12}}
  %o = gopt.attention_kernel ins(%q, %q, %v : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x12x8xf32>) outs(%q : tensor<2x16x8xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 1>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

func.func @init(%q: tensor<2x16x8xf32>, %e: tensor<2x16x4xf32>) -> tensor<2x16x4xf32> {
  // expected-error @+1 {{init must be [B..., Sq, Dv] = [..., 16, 8]}}
  %o = gopt.attention_kernel ins(%q, %q, %q : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x8xf32>) outs(%e : tensor<2x16x4xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 1>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x4xf32>
  return %o : tensor<2x16x4xf32>
}

// -----

func.func @mask(%q: tensor<2x16x8xf32>, %m: tensor<3x16xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{the mask must broadcast to the scores' shape [B..., Sq, Sk]; dim 0 is 3}}
  %o = gopt.attention_kernel ins(%q, %q, %q mask %m : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<3x16xf32>) outs(%q : tensor<2x16x8xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 1>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

func.func @result(%q: memref<2x16x8xf32>) {
  // expected-error @+1 {{returns its result on tensors and nothing on buffers}}
  %o = gopt.attention_kernel ins(%q, %q, %q : memref<2x16x8xf32>, memref<2x16x8xf32>, memref<2x16x8xf32>) outs(%q : memref<2x16x8xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 2, 1>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<2x16x8xf32>
  return
}
