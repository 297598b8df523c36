// Calls into gopt graphs inline: every gopt op is pure, and fusion bodies are
// isolated and move with their op.
// RUN: gopt-opt %s -inline | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-NOT: call
// CHECK: %[[F:.*]] = gopt.fusion(%arg0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK: gopt.exp
// CHECK: gopt.relu %[[F]]
func.func private @block(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = gopt.exp %a : tensor<4xf32>
    gopt.yield %e : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @block(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = gopt.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
