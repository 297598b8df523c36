//===- Passes.td - GOpt GPU code generation passes ---------*- tablegen -*-===//
//
// From bufferized kernels (one scf.forall tile loop nest per kernel, made by
// gopt-fuse-kernel-loops) to gpu.launch ops on device buffers, ready for
// MLIR's GPU/NVVM lowering: the passes of the gopt-lower-to-nvvm pipeline
// (include/GOpt/Codegen/GPU/Pipeline.h). docs/GPU.md describes them.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_GPU_PASSES_TD
#define GOPT_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GOptGPUStageConstants
    : Pass<"gopt-gpu-stage-constants", "::mlir::ModuleOp"> {
  let summary = "Copy constants the host code reads onto the device";
  let description = [{
    Runs on bufferized code, before deallocation is placed. Every
    `memref.get_global` in a host function (a `func.func` outside any
    `gpu.module`) reads a global in host memory, which a kernel cannot
    read. Each is replaced, at the top of its function, by a fresh
    `memref.alloc` and a `memref.copy` from the global into it marked
    `gopt.host_to_device`; `gopt-gpu-device-buffers` later makes the
    allocation device memory and the copy a `gpu.memcpy`. Ownership-based
    deallocation then frees the copy like any other buffer.

    Large weights do not take this path in `gopt-run`: it passes them as
    arguments, copied to the device once. The copies made here happen on
    every call.
  }];
  let statistics = [
    Statistic<"numStagedConstants", "staged-constants",
              "Host globals copied to the device on each call">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GOptGPUMapKernels : Pass<"gopt-gpu-map-kernels", "::mlir::ModuleOp"> {
  let summary = "Turn each kernel's loop nest into one gpu.launch";
  let description = [{
    Runs on bufferized host functions (outside any `gpu.module`) after
    `scf-forall-to-parallel`. In each function body:

    * every top-level `scf.parallel` (a kernel's tile loop nest) becomes one
      `gpu.launch`: its iteration space is flattened into one dimension of
      `ceil(N / block-size)` blocks of `block-size` threads; each thread
      delinearizes its global index into the loop's induction variables
      (the innermost varying fastest, so neighbouring threads touch
      neighbouring elements) and runs one iteration, guarded by
      `index < N`. When N is a multiple of `elements-per-thread` (E) times
      `block-size` and the tile reduces nothing, each thread runs E
      iterations instead, `(b * E + j) * block-size + t` for j < E, as E
      unguarded copies of the body (so that gopt-gpu-hoist-loads can issue
      their loads together), in N / (E * block-size) blocks;
    * every top-level `linalg` op (a kernel left untiled) becomes parallel
      loops first, then a launch, its reduction loops sequential inside
      each thread;
    * every top-level `memref.copy` not marked `gopt.host_to_device`
      becomes a `linalg.copy`, and so a launch;
    * inside a launch, `memref.alloc` of a static shape becomes
      `memref.alloca` (thread-private memory) and `memref.dealloc` goes.

    A tile loop whose tiles reduce rows (softmax, layer norm, reductions,
    global pooling: a linalg op of the tile, no contraction, reduces at
    least 32 elements) runs one tile per **block** instead, of up to
    `block-size` threads (a multiple of 32, no more than the widest op of
    the tile needs): each linalg op of the tile is a loop over its
    iteration space strided by the block's size, each reduction combines
    the threads' partial results with `gpu.all_reduce` (thread 0 stores),
    the tile's temporaries are the launch's workgroup (shared) memory, and
    a `gpu.barrier` follows every op. Tiles whose temporaries would take
    more than 40 KiB of shared memory, or hold ops that cannot be spread
    (a reduction whose body is not `combine(x, out)` with an op
    `gpu.all_reduce` has), keep one thread per tile.

    A tile that allocates a dynamic shape is an error naming the op.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (1 to 1024)">,
    Option<"elementsPerThreadOption", "elements-per-thread", "int64_t",
           /*default=*/"1",
           "Iterations each thread of a one-thread-per-tile launch runs "
           "when the trip count allows (1: one each)">,
  ];
  let statistics = [
    Statistic<"numLaunches", "launches", "gpu.launch ops made">,
    Statistic<"numBlockPerTileLaunches", "block-per-tile-launches",
              "Launches running one tile per thread block">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GOptGPUHoistLoads : Pass<"gopt-gpu-hoist-loads", "::mlir::ModuleOp"> {
  let summary = "Issue a kernel's loads of read-only buffers before its stores";
  let description = [{
    Runs on `gpu.launch` ops whose bodies are loops and scalars (after
    `convert-linalg-to-loops`). In the body's top-level block, every
    `memref.load` of a buffer that nothing in the launch writes or frees
    (through views), and every side-effect-free op without regions, moves
    up to just after the last of its operands' definitions in that block.
    The copies of the body that `gopt-gpu-map-kernels`' elements-per-thread
    makes then issue all their loads before their first store, so several
    loads per thread are in flight at once. A launch with an op of unknown
    effects, or one that writes a buffer passed from outside as a function
    argument (another argument could be the same buffer), is left as it is.
  }];
  let statistics = [
    Statistic<"numHoistedLoads", "hoisted-loads", "Loads moved up">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GOptGPUDeviceBuffers
    : Pass<"gopt-gpu-device-buffers", "::mlir::ModuleOp"> {
  let summary = "Allocate the host code's buffers in device memory";
  let description = [{
    Runs after `gopt-gpu-map-kernels` and deallocation. In host functions,
    a `memref.alloc` whose buffer holds kernel data (a kernel launch uses
    it, a constant is copied into it, or the function returns it) becomes
    `gpu.alloc` and its `memref.dealloc` becomes `gpu.dealloc`; the other
    allocations (the bookkeeping of the deallocation's runtime aliasing
    checks) stay in host memory. A `memref.copy` marked
    `gopt.host_to_device` becomes `gpu.memcpy`. Function arguments and
    results are device buffers. Host code that would still read or write
    device memory (a `memref.load` or `memref.store` of a device buffer, an
    unmarked `memref.copy`, a computation outside any launch) is an error
    naming the op: only kernels touch device memory.
  }];
  let statistics = [
    Statistic<"numDeviceAllocs", "device-allocs",
              "memref.alloc ops made gpu.alloc">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def GOptGPUStreamLibraryCalls
    : Pass<"gopt-gpu-stream-library-calls", "::mlir::ModuleOp"> {
  let summary = "Put library GEMMs on the stream of the launches around them";
  let description = [{
    Runs on host code after `gpu-to-llvm`. `gpu-async-region` puts an entry
    function's launches, copies and allocations on a stream, and before a
    library call (`gopt_cuda_sgemm`, `gopt_cuda_sgemm_epilogue`), which it
    cannot order, waits for that stream and destroys it; after the call a
    new stream starts. The host then waits twice per GEMM: for the work
    before it, and (in the runtime) for the GEMM itself. Where the call
    directly follows the wait (`mgpuStreamSynchronize`, `mgpuStreamDestroy`;
    only side-effect-free host code between, in the same block), it becomes
    the `_async` entry point taking that stream (the runtime puts the GEMM
    on it and returns without waiting), and the wait moves after it. A wait
    then followed, through side-effect-free code, by the creation of the
    next stream is dropped: the next stretch goes on the same stream, which
    orders it after the GEMM on the device. An entry function's work is one
    stream, waited for once before it returns (or before host code that is
    not side-effect free, such as a deallocation). Calls elsewhere (in a
    loop over batches, with other host work between) keep the waits.
  }];
  let statistics = [
    Statistic<"numAsyncCalls", "async-calls",
              "library calls put on the launches' stream">,
    Statistic<"numWaitsRemoved", "waits-removed",
              "stream waits (and stream re-creations) removed">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GOptGPUDropUnlaunchedModules
    : Pass<"gopt-gpu-drop-unlaunched-modules", "::mlir::ModuleOp"> {
  let summary = "Erase the gpu.module ops no launch names";
  let description = [{
    Runs before `gpu-module-to-binary`. `gpu-kernel-outlining` makes a
    `gpu.module` for every `gpu.launch`, and some launches go away after it:
    an entry function's copy of a result whose ownership is only known once
    the kernel functions are inlined (the copy's branch folds away). Their
    modules would still be compiled by `ptxas` and loaded on every call.
    A `gpu.module` that no `gpu.launch_func` names is erased.
  }];
  let statistics = [
    Statistic<"numErased", "erased-modules", "gpu.module ops erased">,
  ];
}

def GOptGPUEmulateLaunches
    : Pass<"gopt-gpu-emulate-launches", "::mlir::ModuleOp"> {
  let summary = "Run each gpu.launch on the host, thread after thread";
  let description = [{
    Runs where `gopt-gpu-hoist-loads` does (launch bodies of loops and
    scalars, on host buffers: `gopt-lower-to-nvvm{emulate}` skips
    `gopt-gpu-device-buffers`), and replaces every `gpu.launch` of a
    one-dimensional grid of one-dimensional blocks of a constant size N by
    host loops that compute what the launch computes: a loop over the
    blocks in which the body runs in stretches between its barriers, each
    stretch a loop over the N threads. Workgroup (shared) memory, values
    kept per thread and the threads' private stack buffers are heap buffers
    allocated once before the loop over the blocks and freed after it,
    reused by each block (or thread: a private buffer must not outlive a
    stretch). Ops whose operands are the same for every
    thread of a block (the block's id, constants, a `gpu.all_reduce`'s
    result, side-effect-free arithmetic on them) run once per block; a value
    a thread computes in one stretch and uses in a later one is kept per
    thread (a buffer of N); a `gpu.all_reduce` combines the N
    threads' values in thread order; a loop or `if` that holds a barrier or
    a block reduction must have bounds or a condition the same for every
    thread (as on the device), and runs once per block with its body in
    stretches.

    Each function whose launches it emulated records them in
    `gopt.emulated_launches`, one string per launch ("5 blocks of 256
    threads", with the shared memory, barriers and block reductions it
    has), which `gopt-run --target=cuda-emulated` prints per kernel.

    The result runs on the CPU (the CPU pipeline's LLVM lowering) and checks
    what the GPU mapping computes (indices, guards, shared memory, barriers,
    block reductions) without a GPU; it is not the device's code (no NVVM,
    no PTX) and not for timing. With `reverse-threads`, each stretch runs
    its threads from the last to the first: a stretch that reads what
    another thread of it writes (a missing barrier) then computes something
    else in one of the two orders.

    A launch this cannot emulate is an error naming what: an async launch,
    a grid or block that is not one-dimensional, a block size that is not a
    constant, private attributions, a `gpu` op other than the barrier, the
    block reduction (in its op form) and the terminator, a barrier under
    control flow whose bounds or condition depend on the thread, and a value
    that is not a scalar or a vector kept across a barrier.
  }];
  let options = [
    Option<"reverseThreads", "reverse-threads", "bool", /*default=*/"false",
           "Run each stretch of a block's threads from the last to the "
           "first">,
  ];
  let statistics = [
    Statistic<"numEmulatedLaunches", "emulated-launches",
              "gpu.launch ops replaced by host loops">,
    Statistic<"numThreadLoops", "thread-loops",
              "Stretches between barriers, each a loop over a block's "
              "threads">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // GOPT_CODEGEN_GPU_PASSES_TD
