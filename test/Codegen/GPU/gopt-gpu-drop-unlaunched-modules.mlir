// RUN: gopt-opt %s --allow-unregistered-dialect --gopt-gpu-drop-unlaunched-modules | FileCheck %s

// A module no launch names is erased; launched ones stay, and so does a
// module another op names.
// CHECK-NOT: gpu.module @unlaunched
// CHECK: gpu.module @launched
// CHECK: gpu.module @named_otherwise
// CHECK-NOT: gpu.module @unlaunched
module attributes {gpu.container_module} {
  func.func @entry(%n: index) {
    gpu.launch_func @launched::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    "test.names"() {ref = @named_otherwise} : () -> ()
    return
  }
  gpu.module @unlaunched {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @launched {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @named_otherwise {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
