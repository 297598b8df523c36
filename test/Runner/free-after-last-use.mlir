// The lowering frees each intermediate after its last use: a chain of ten
// 64 KiB kernels holds two buffers at once, not all of them.
// With free-after-last-use=false (the block-end frees of ownership-based
// deallocation) the peak is every intermediate's.

// RUN: gopt-run %s --reps=2 | FileCheck %s --check-prefix=EARLY
// RUN: gopt-run %s --reps=2 --lowering-options=free-after-last-use=false | FileCheck %s --check-prefix=LATE

// Two buffers of 65,536 bytes (the next one is allocated before the last is
// freed), against all ten.
// EARLY: peak memory {{1[0-9][0-9][0-9][0-9][0-9]}} bytes held by the compiled code
// LATE: peak memory {{6[0-9][0-9][0-9][0-9][0-9]}} bytes held by the compiled code

func.func @main(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %0 = gopt.exp %x : tensor<128x128xf32>
  %1 = gopt.tanh %0 : tensor<128x128xf32>
  %2 = gopt.neg %1 : tensor<128x128xf32>
  %3 = gopt.exp %2 : tensor<128x128xf32>
  %4 = gopt.tanh %3 : tensor<128x128xf32>
  %5 = gopt.neg %4 : tensor<128x128xf32>
  %6 = gopt.exp %5 : tensor<128x128xf32>
  %7 = gopt.tanh %6 : tensor<128x128xf32>
  %8 = gopt.neg %7 : tensor<128x128xf32>
  %9 = gopt.exp %8 : tensor<128x128xf32>
  return %9 : tensor<128x128xf32>
}
