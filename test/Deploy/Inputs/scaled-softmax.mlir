// Three kernels, one of which reads a 16-byte constant the host code copies
// to the device on every call (below the size that becomes a weight).
func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %c = gopt.constant dense<[[0.5], [1.0], [1.5], [2.0]]> : tensor<4x1xf32>
  %a = gopt.mul %x, %c : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  %r = gopt.relu %a : tensor<4x64xf32>
  %s = gopt.softmax %r axis = 1 : tensor<4x64xf32>
  return %s : tensor<4x64xf32>
}
