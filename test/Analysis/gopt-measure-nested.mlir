// Nested pipelines with an upstream pass in the middle: adaptor rows hold
// the per-function rows (indented, with their parent), in program order.
// RUN: gopt-opt %s --pass-pipeline='builtin.module(func.func(gopt-fold,gopt-dce),cse,func.func(gopt-fuse))' --gopt-measure -o /dev/null 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE:      (baseline) - 7 0 7 48 B
// TABLE-NEXT: 0 func.func(gopt-fold... {{[0-9.]+}} 4 -3 4 48 B yes
// TABLE-NEXT: 1 gopt-fold on @a {{[0-9.]+}} 3 -1 3 32 B yes
// TABLE-NEXT: 2 gopt-dce on @a {{[0-9.]+}} 1 -2 1 16 B yes
// TABLE-NEXT: 3 gopt-fold on @b {{[0-9.]+}} 3 0 3 48 B no
// TABLE-NEXT: 4 gopt-dce on @b {{[0-9.]+}} 3 0 3 48 B no
// TABLE-NEXT: 5 cse {{[0-9.]+}} 3 -1 3 32 B yes
// TABLE-NEXT: 6 func.func(gopt-fuse... {{[0-9.]+}} 3 0 2 16 B yes
// TABLE-NEXT: 7 gopt-fuse on @a {{[0-9.]+}} 1 0 1 16 B no
// TABLE-NEXT: 8 gopt-fuse on @b {{[0-9.]+}} 2 0 1 16 B yes

// The record is the same with and without threading, except for times (the
// last two CSV columns).
// RUN: gopt-opt %s --pass-pipeline='builtin.module(func.func(gopt-fold,gopt-dce),cse,func.func(gopt-fuse))' --gopt-measure=%t.threads.csv --gopt-measure-format=csv -o /dev/null
// RUN: gopt-opt %s --pass-pipeline='builtin.module(func.func(gopt-fold,gopt-dce),cse,func.func(gopt-fuse))' --gopt-measure=%t.serial.csv --gopt-measure-format=csv -mlir-disable-threading -o /dev/null
// RUN: cut -d, -f1-24 %t.threads.csv > %t.threads.counts
// RUN: cut -d, -f1-24 %t.serial.csv > %t.serial.counts
// RUN: diff %t.threads.counts %t.serial.counts
// RUN: FileCheck %s --input-file=%t.serial.csv --check-prefix=CSV
// CSV: 1,0,1,"gopt-fold","func.func","builtin.module/func.func@a",0,1,

func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.exp %x : tensor<4xf32>
  %1 = gopt.neg %0 : tensor<4xf32>
  %2 = gopt.neg %1 : tensor<4xf32>
  %d = gopt.relu %2 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.exp %x : tensor<4xf32>
  %1 = gopt.exp %x : tensor<4xf32>
  %2 = gopt.add %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
