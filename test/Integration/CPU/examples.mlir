// The bundled examples, JIT-compiled unfused and after gopt-optimize, must
// print the same values up to summation order (Inputs/allclose.py: relative
// 1e-4).
//
// RUN: sed 's/@main/@graph/' %examples/mlp.mlir > %t.mlp.mlir
// RUN: cat %S/Inputs/mlp-driver.mlir >> %t.mlp.mlir
// RUN: gopt-opt %t.mlp.mlir -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.mlp.unfused
// RUN: gopt-opt %t.mlp.mlir -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.mlp.fused
// RUN: %allclose %t.mlp.unfused %t.mlp.fused
// RUN: FileCheck %s --check-prefix=MLP < %t.mlp.fused
//
// RUN: sed 's/@main/@graph/' %examples/conv_block.mlir > %t.conv.mlir
// RUN: cat %S/Inputs/conv-block-driver.mlir >> %t.conv.mlir
// RUN: gopt-opt %t.conv.mlir -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.conv.unfused
// RUN: gopt-opt %t.conv.mlir -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.conv.fused
// RUN: %allclose %t.conv.unfused %t.conv.fused
// RUN: FileCheck %s --check-prefix=CONV < %t.conv.fused
//
// RUN: sed 's/@main/@graph/' %examples/transformer_block.mlir > %t.tb.mlir
// RUN: cat %S/Inputs/transformer-block-driver.mlir >> %t.tb.mlir
// RUN: gopt-opt %t.tb.mlir -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.tb.unfused
// RUN: gopt-opt %t.tb.mlir -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.tb.fused
// RUN: %allclose %t.tb.unfused %t.tb.fused
// RUN: FileCheck %s --check-prefix=TB < %t.tb.fused
//
// RUN: sed 's/@main/@graph/' %examples/attention_redundant.mlir > %t.att.mlir
// RUN: cat %S/Inputs/attention-driver.mlir >> %t.att.mlir
// RUN: gopt-opt %t.att.mlir -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.att.unfused
// RUN: gopt-opt %t.att.mlir -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.att.fused
// RUN: %allclose %t.att.unfused %t.att.fused
// RUN: FileCheck %s --check-prefix=ATT < %t.att.fused

// MLP with x = 1: h = relu(16·0.05 + 0.01) = 0.81 everywhere, o = 32·0.81·(−0.03)
// + b2, so every row is softmax(b2) = exp(0.1·j) / Σ exp(0.1·k).
// MLP: {{\[\[}}0.06120{{[0-9]*}}, 0.067644{{[0-9]*}}, 0.074758{{[0-9]*}}, 0.08262{{[0-9]*}}, 0.09131{{[0-9]*}}, 0.10091{{[0-9]*}}, 0.11152{{[0-9]*}}, 0.12325{{[0-9]*}}, 0.13621{{[0-9]*}}, 0.15054{{[0-9]*}}],
// MLP-COUNT-7: [0.06120{{[0-9]*}}, 0.067644{{[0-9]*}}, 0.074758{{[0-9]*}}, 0.08262{{[0-9]*}}, 0.09131{{[0-9]*}}, 0.10091{{[0-9]*}}, 0.11152{{[0-9]*}}, 0.12325{{[0-9]*}}, 0.13621{{[0-9]*}}, 0.15054{{[0-9]*}}]
// MLP: gopt-test-alloc: 0 live

// Conv block and transformer block: finite values of the right shape, and
// (above) the same values unfused and fused.
// CONV-NOT: nan
// CONV: {{\[\[}}{{(-?[0-9.e+-]+, ){9}-?[0-9.e+-]+}}]]
// CONV-NOT: nan
// CONV: gopt-test-alloc: 0 live
// TB-NOT: nan
// TB-COUNT-16: {{(-?[0-9.e+-]+, ){31}-?[0-9.e+-]+}}]
// TB-NOT: nan
// TB: gopt-test-alloc: 0 live
// Attention (the mask is dead code in the example): with q_i = r_i·c,
// k_j = r_j·d and v_j = q_j + k_j, logits_ij = r_i·r_j·(c·d)/4 and
// o_i = (Σ_j p_ij·r_j)·(c + d); reference values from a double-precision
// evaluation of those formulas.
// ATT-NOT: nan
// ATT: {{\[\[\[}}-0.14646{{[0-9]*}}, 0.073231{{[0-9]*}}, -0.097642{{[0-9]*}}, 0.097642{{[0-9]*}}, -0.24410{{[0-9]*}}, 0.097642{{[0-9]*}}, -0.29292{{[0-9]*}}, 0.14646{{[0-9]*}}, 0.048821{{[0-9]*}}, 0.073231{{[0-9]*}}, -0.12205{{[0-9]*}}, 0.14646{{[0-9]*}}, -0.43939{{[0-9]*}}, 0.34174{{[0-9]*}}, 0.024410{{[0-9]*}}, -0.39056{{[0-9]*}}],
// Row maxima of batch 0.
// ATT: {{\[\[\[}}0.15125],
// ATT-NEXT: [0.26468{{[0-9]*}}],
// ATT-NEXT: [0.45375],
// ATT-NEXT: [0.52937{{[0-9]*}}],
// ATT-NEXT: [0.75625],
// ATT-NEXT: [0.79406{{[0-9]*}}],
// ATT-NEXT: [1.05875],
// ATT-NEXT: [1.05875]],
// ATT-NOT: nan
// ATT: gopt-test-alloc: 0 live
