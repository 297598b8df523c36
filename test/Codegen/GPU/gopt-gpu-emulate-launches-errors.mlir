// RUN: gopt-opt %s -split-input-file -verify-diagnostics --gopt-gpu-emulate-launches

func.func @two_dimensional_blocks() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{gopt-gpu-emulate-launches: only one-dimensional grids and blocks are emulated}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @block_size_not_constant(%n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{gopt-gpu-emulate-launches: the block size must be a positive constant}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @async_launch() {
  %c1 = arith.constant 1 : index
  %token = gpu.wait async
  // expected-error @+1 {{gopt-gpu-emulate-launches: an async launch is not emulated}}
  %done = gpu.launch async [%token] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.wait [%done]
  return
}

// -----

func.func @thread_id_op(%out: memref<32xindex>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{gopt-gpu-emulate-launches: not emulated (a launch body may hold barriers, op-form block reductions and its terminator)}}
    %t = gpu.thread_id x
    memref.store %t, %out[%t] : memref<32xindex>
    gpu.terminator
  }
  return
}

// -----

// A barrier only some threads reach: undefined on the device.
func.func @barrier_under_thread_condition(%out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    // expected-error @+1 {{gopt-gpu-emulate-launches: holds a barrier or a block reduction, but its condition may differ between the threads of a block}}
    scf.if %first {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

func.func @barrier_in_loop_with_values(%out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{gopt-gpu-emulate-launches: a loop carrying values around a barrier or a block reduction is not emulated}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      gpu.barrier
      scf.yield %acc : f32
    }
    memref.store %r, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @region_all_reduce(%out: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{gopt-gpu-emulate-launches: only the op form of gpu.all_reduce (a combining kind, no region) is emulated}}
    %sum = gpu.all_reduce %one {
    ^bb(%lhs : f32, %rhs : f32):
      %s = arith.addf %lhs, %rhs : f32
      "gpu.yield"(%s) : (f32) -> ()
    } : (f32) -> (f32)
    memref.store %sum, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// A view computed per thread and used after a barrier would have to be
// kept per thread: not done.
func.func @view_across_barrier(%buf: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{gopt-gpu-emulate-launches: a 'memref<2xf32, strided<[1], offset: ?>>' computed per thread is used after a barrier; only scalars and vectors can be kept per thread}}
    %v = memref.subview %buf[%tx] [2] [1] : memref<64xf32> to memref<2xf32, strided<[1], offset: ?>>
    memref.store %zero, %buf[%tx] : memref<64xf32>
    gpu.barrier
    memref.store %zero, %v[%c1] : memref<2xf32, strided<[1], offset: ?>>
    gpu.terminator
  }
  return
}
