// The table on stderr: one row per pass with ops, Δops, kernels, estimated
// peak memory and the changed flag (times are checked for shape only).
// RUN: gopt-opt %s --gopt-optimize --gopt-measure -o /dev/null 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE:      gopt-measure: graph after every pass (6 pass executions)
// TABLE:      # pass time ms ops Δops kernels est. peak changed
// TABLE-NEXT: (baseline) - 13 0 12 256 B
// TABLE-NEXT: 0 gopt-fold {{[0-9]+\.[0-9]+}} 12 -1 10 256 B yes
// TABLE-NEXT: 1 gopt-channels-last {{[0-9]+\.[0-9]+}} 12 0 10 256 B no
// TABLE-NEXT: 2 gopt-dce {{[0-9]+\.[0-9]+}} 8 -4 7 192 B yes
// TABLE-NEXT: 3 cse {{[0-9]+\.[0-9]+}} 7 -1 6 192 B yes
// TABLE-NEXT: 4 gopt-fuse {{[0-9]+\.[0-9]+}} 7 0 3 192 B yes
// TABLE-NEXT: 5 gopt-dce {{[0-9]+\.[0-9]+}} 7 0 3 192 B no
// TABLE-NEXT: total {{[0-9]+\.[0-9]+}} 7 3 192 B

// JSON record: versioned schema, tool, pipeline, input, host and rows.
// RUN: gopt-opt %s --gopt-optimize --gopt-measure=%t.json -o /dev/null
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// JSON:      "baseline": {
// JSON:        "fusion_groups": 0,
// JSON:        "kernels": 12,
// JSON:        "ops": 13,
// JSON:      "host": {
// JSON-NEXT:   "cores": {{[0-9]+}},
// JSON-NEXT:   "cpu": "{{.+}}"
// JSON:      "input": "{{.*}}gopt-measure.mlir",
// JSON:      "passes": [
// JSON:          "argument": "gopt-fold",
// JSON-NEXT:     "changed": true,
// JSON-NEXT:     "cpu_ms": {{[0-9.e+-]+}},
// JSON-NEXT:     "depth": 0,
// JSON-NEXT:     "failed": false,
// JSON-NEXT:     "fusion_groups_added": 0,
// JSON-NEXT:     "fusion_groups_removed": 0,
// JSON-NEXT:     "index": 0,
// JSON:          "op": "builtin.module",
// JSON-NEXT:     "ops_added": 1,
// JSON-NEXT:     "ops_removed": 2,
// JSON-NEXT:     "parent": -1,
// JSON-NEXT:     "path": "builtin.module",
// JSON-NEXT:     "pipeline": "gopt-fold{max-folded-elements=65536}",
// JSON:          "argument": "gopt-fuse",
// JSON:          "fusion_groups_added": 3,
// JSON:      "pipeline": "builtin.module(gopt-fold{max-folded-elements=65536},gopt-channels-last,gopt-dce{},cse,gopt-fuse{
// JSON:      "schema": "gopt-measure",
// JSON:      "threading": true,
// JSON:      "tool": {
// JSON-NEXT:   "name": "gopt-opt",
// JSON-NEXT:   "version": "{{[0-9]+\.[0-9]+\.[0-9]+}}"
// JSON:      "totals": {
// JSON:        "kernels_after": 3,
// JSON-NEXT:   "kernels_before": 12,
// JSON-NEXT:   "ops_after": 7,
// JSON-NEXT:   "ops_before": 13,
// JSON-NEXT:   "passes": 6,
// JSON-NEXT:   "peak_memory_bytes_estimate_after": 192,
// JSON-NEXT:   "peak_memory_bytes_estimate_before": 256,
// JSON:      "version": 1

// Comma-separated values: a header, the baseline row, one row per pass;
// times come last.
// RUN: gopt-opt %s --gopt-optimize --gopt-measure=%t.csv --gopt-measure-format=csv -o /dev/null
// RUN: FileCheck %s --input-file=%t.csv --check-prefix=CSV
// CSV:      index,parent,depth,pass,op,path,failed,changed,ops,ops_added,ops_removed,fusion_groups,fusion_groups_added,fusion_groups_removed,kernels,{{.*}},wall_ms,cpu_ms
// CSV-NEXT: -1,-1,0,(baseline),"","",0,0,13,0,0,0,0,0,12,
// CSV-NEXT: 0,-1,0,"gopt-fold","builtin.module","builtin.module",0,1,12,1,2,0,0,0,10,
// CSV-NEXT: 1,-1,0,"gopt-channels-last","builtin.module","builtin.module",0,0,12,0,0,0,0,0,10,
// CSV-NEXT: 2,-1,0,"gopt-dce","builtin.module","builtin.module",0,1,8,0,4,0,0,0,7,
// CSV-NEXT: 3,-1,0,"cse","builtin.module","builtin.module",0,1,7,0,1,0,0,0,6,
// CSV-NEXT: 4,-1,0,"gopt-fuse","builtin.module","builtin.module",0,1,7,0,0,3,3,0,3,
// CSV-NEXT: 5,-1,0,"gopt-dce","builtin.module","builtin.module",0,0,7,0,0,3,0,0,3,

// Chrome trace: one complete event per pass and counters for ops and memory.
// RUN: gopt-opt %s --gopt-optimize --gopt-measure=%t.trace.json --gopt-measure-format=trace -o /dev/null
// RUN: FileCheck %s --input-file=%t.trace.json --check-prefix=TRACE
// TRACE:      "traceEvents": [
// TRACE:        "name": "gopt-fold",
// TRACE-NEXT:   "ph": "X",
// TRACE:        "name": "ops",
// TRACE-NEXT:   "ph": "C",
// TRACE:        "name": "estimated peak memory (bytes)",
// TRACE-NEXT:   "ph": "C",

func.func @attention_tail(%x: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c = gopt.constant dense<2.0> : tensor<f32>
  %s = gopt.sqrt %c : tensor<f32>
  %a = gopt.mul %x, %s : tensor<4x4xf32>, tensor<f32> -> tensor<4x4xf32>
  %dup = gopt.mul %x, %s : tensor<4x4xf32>, tensor<f32> -> tensor<4x4xf32>
  %dead = gopt.add %a, %dup : tensor<4x4xf32>
  %unused = gopt.relu %dead : tensor<4x4xf32>
  %p = gopt.softmax %a axis = -1 : tensor<4x4xf32>
  %o = gopt.matmul %p, %v : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %r = gopt.add %o, %dup : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @mlp(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %h = gopt.linear %x, %w : tensor<2x4xf32>, tensor<4x4xf32> -> tensor<2x4xf32>
  %n = gopt.neg %h : tensor<2x4xf32>
  %nn = gopt.neg %n : tensor<2x4xf32>
  %g = gopt.gelu %nn : tensor<2x4xf32>
  return %g : tensor<2x4xf32>
}
