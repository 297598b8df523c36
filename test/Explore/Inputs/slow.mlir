// Eight 1024x1024 matmuls in a chain: a run of tens to hundreds of ms.
func.func @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %w = gopt.constant dense<0.001> : tensor<1024x1024xf32>
  %a = gopt.matmul %x, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %b = gopt.matmul %a, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %c = gopt.matmul %b, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %d = gopt.matmul %c, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %e = gopt.matmul %d, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %f = gopt.matmul %e, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %g = gopt.matmul %f, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %h = gopt.matmul %g, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  return %h : tensor<1024x1024xf32>
}
