// Integer division on gopt-explore's random inputs (integers in [0, 8)):
// some divisors are zero, and the compiled code traps.
func.func @main(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  %d = gopt.div %x, %y : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32>
  return %d : tensor<8xi32>
}
