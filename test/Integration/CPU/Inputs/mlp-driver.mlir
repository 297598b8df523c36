// Driver for examples/mlp.mlir (its @main renamed @graph): x = 1.
func.func @main() {
  %x = gopt.constant dense<1.0> : tensor<8x16xf32>
  %y = call @graph(%x) : (tensor<8x16xf32>) -> tensor<8x10xf32>
  %u = tensor.cast %y : tensor<8x10xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
