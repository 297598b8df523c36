// RUN: gopt-opt %s -verify-diagnostics --gopt-verify-llvm-lowered="pipeline=gopt-lower-to-nvvm gpu-host"

// gpu-host: launches and binaries are what translation to LLVM IR takes; the
// GPU pipeline's name is in the message.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, "">]
  llvm.func @launch() {
    %one = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func @k::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64
    // expected-error @+1 {{gopt-lower-to-nvvm: 'arith.constant' was not lowered to the LLVM dialect (1 non-LLVM op remains)}}
    %x = arith.constant 1 : i32
    llvm.return
  }
}
