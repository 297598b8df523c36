// The static buffer planner as a pass of the set: "plan" is a lowering
// pass (gopt-lower-to-llvm's plan-buffers), on in the configurations that
// name it and off in the others, the baseline included; the default
// pipeline runs it. Its pairs come in one order, the graph pass first
// (planning runs after every graph pass whatever the order).

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-explore %s --passes=fuse,plan --budget=5 --reps=2 --round-ms=0 \
// RUN:   --max-rounds=2 --progress=never --cache-dir= --json=%t/r.json \
// RUN:   --markdown=%t/r.md --manifest=%t/m.json --threads=1 > %t/stdout.txt
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// RUN: FileCheck %s --check-prefix=MD < %t/r.md
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/m.json
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/stdout.txt

// JSON: "configurations": [
// JSON: "lowering_options": "plan-buffers=false",
// JSON: "planned_buffers": 0,
// JSON: "name": "baseline",
// JSON: "lowering_options": "plan-buffers=false",
// JSON: "name": "fuse",
// JSON: "pipeline": "builtin.module(gopt-fuse)",
// JSON: "lowering_options": "plan-buffers=true",
// JSON: "planned_buffers": 7,
// JSON-NEXT: "planned_bytes": 4288,
// JSON: "name": "plan",
// JSON-NEXT: "passes": [
// JSON-NEXT: "plan"
// JSON-NEXT: ],
// JSON-NEXT: "pipeline": "",
// JSON: "lowering_options": "plan-buffers=true",
// JSON: "name": "fuse+plan",
// JSON: "pipeline": "builtin.module(gopt-fuse)",
// JSON: "lowering_options": "plan-buffers=true",
// JSON: "name": "default",
// JSON-NOT: "name": "plan+fuse"
// JSON: "pairs": [

// The chosen configuration's row is marked (whichever the noise makes it).
// MD: | {{baseline|\*\*baseline\*\* \(chosen\)}} | baseline | —, lowering `plan-buffers=false` | ok |
// MD: | {{plan|\*\*plan\*\* \(chosen\)}} | single | —, lowering `plan-buffers=true` | ok |
// MD: ## Memory
// MD: | baseline | {{[0-9.]+}} KiB | {{[0-9.]+}} KiB | {{[0-9.]+}} {{B|KiB}} | {{[0-9.]+}} | {{[0-9.]+}} KiB after {{[0-9]+}} | — | — | — | — |
// MD: | plan | {{[0-9.]+}} KiB | {{[0-9.]+}} KiB | {{[0-9.]+}} {{B|KiB}} | {{[0-9.]+}} | {{[0-9.]+}} KiB after {{[0-9]+}} | 7 | 4.2 KiB | 2.1 KiB | 50.7% |

// The choice (whichever the noise makes it) names its lowering options.
// MANIFEST: "lowering_options": {{null|"plan-buffers=(true|false)"}},
// SUMMARY: Choice: {{none|.*plan-buffers=(true|false)\)}}

func.func @main(%x: tensor<8x16xf32>) -> tensor<8x10xf32> {
  %w1 = gopt.constant dense<0.05> : tensor<16x32xf32>
  %b1 = gopt.constant dense<0.01> : tensor<32xf32>
  %w2 = gopt.constant dense<-0.03> : tensor<32x10xf32>
  %b2 = gopt.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]> : tensor<10xf32>
  %two = gopt.constant dense<2.0> : tensor<10xf32>
  %b2x2 = gopt.mul %b2, %two : tensor<10xf32>, tensor<10xf32> -> tensor<10xf32>
  %dead = gopt.exp %x : tensor<8x16xf32>
  %h = gopt.linear %x, %w1 : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %hb = gopt.add %h, %b1 : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %a = gopt.relu %hb : tensor<8x32xf32>
  %o = gopt.linear %a, %w2 : tensor<8x32xf32>, tensor<32x10xf32> -> tensor<8x10xf32>
  %ob = gopt.add %o, %b2x2 : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  %p = gopt.softmax %ob axis = 1 : tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
