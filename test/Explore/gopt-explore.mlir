// gopt-explore on a small MLP with a foldable constant chain and a dead op:
// the configurations, their statuses, the program sharing and the structure
// of every report. Figures that are timings are never checked.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-explore %s --passes=fold,dce,fuse --budget=5 --reps=3 --round-ms=1 \
// RUN:   --max-rounds=2 --progress=never --json=%t/r.json --markdown=%t/r.md \
// RUN:   --html=%t/r.html --manifest=%t/m.json --threads=1 --steady-runs=10 > %t/stdout.txt
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// RUN: FileCheck %s --check-prefix=HOST < %t/r.json
// RUN: FileCheck %s --check-prefix=MD < %t/r.md
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/stdout.txt
// --format=markdown prints what --markdown writes.
// RUN: gopt-explore %s --passes=fold,dce,fuse --budget=5 --reps=3 --round-ms=1 \
// RUN:   --max-rounds=2 --progress=never --markdown=%t/r2.md --threads=1 --format=markdown > %t/stdout.md
// RUN: diff %t/r2.md %t/stdout.md
// RUN: not gopt-explore %s --format=html 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: gopt-explore: error: unknown --format 'html' (summary or markdown)

// The terminal summary: setup, one row per configuration (shared programs
// name the one they share), the legend, the choice, where the full tables
// went.
// SUMMARY: gopt-explore: {{.*}}gopt-explore.mlir, @main
// SUMMARY: 2 rounds of at least 3 runs each; elapsed
// SUMMARY: configuration ms S [95% CI] kernels peak η_mem compile break-even
// SUMMARY-NEXT: baseline {{[0-9.e-]+}} 1.00x {{[0-9]+}} {{.*}} —
// SUMMARY-NEXT: fold {{[0-9.e-]+}} {{[0-9.]+}}x [{{[0-9.]+}}x, {{[0-9.]+}}
// SUMMARY: ms: median run time; S = T_base / T_opt, geometric mean over the rounds, with its 95%
// SUMMARY: Choice: {{.*}}
// SUMMARY: Full tables:
// RUN: FileCheck %s --check-prefix=TAIL < %t/r.md
// RUN: FileCheck %s --check-prefix=TAIL-JSON < %t/r.json

// The latency tail of every valid configuration.
// TAIL:      ## Tail latency
// TAIL:      | configuration | runs | p50 ms | p90 ms | p99 ms | max ms |
// TAIL-NEXT: |---|---:|---:|---:|---:|---:|
// TAIL-NEXT: | baseline | {{[0-9]+}} | {{[0-9.e-]+}} | {{[0-9.e-]+}} | {{[0-9.e-]+}} | {{[0-9.e-]+}} |
// TAIL-JSON: "p90_ms":
// TAIL-JSON: "p99_ms":
// TAIL-JSON: "max_ms":
// RUN: FileCheck %s --check-prefix=MEM < %t/r.md
// RUN: FileCheck %s --check-prefix=MEM-JSON < %t/r.json

// Where the peak comes from. The baseline's seven intermediates (the dead
// exp's among them) share a 2.1 KiB arena; dce removes the dead one, and
// the bytes in all fall, but the arena does not: the planner had already
// reused its memory. Fusion leaves fewer, smaller tensors.
// MEM: ## Memory
// The water level follows the first round's runs: 2 warm-up, the 10
// steady runs, then the timed ones (at least 3).
// MEM: | configuration | peak memory | held at peak | largest free | fragmentation | water level | intermediates | their bytes | arena | reuse | static estimate | peak / estimate |
// MEM-NEXT: |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
// MEM-NEXT: | baseline | {{[0-9.]+}} KiB | {{[0-9.]+}} KiB | {{[0-9.]+}} {{B|KiB}} | {{[0-9.]+}} | {{[0-9.]+}} KiB after {{(1[5-9]|[2-9][0-9]|[1-9][0-9][0-9]+)}} | 7 | 4.2 KiB | 2.1 KiB | 50.7% | 2.0 KiB | {{[0-9.]+}} |
// MEM: | dce | {{[0-9.]+}} KiB | {{[0-9.]+}} KiB | {{[0-9.]+}} {{B|KiB}} | {{[0-9.]+}} | {{[0-9.]+}} KiB after {{[0-9]+}} | 6 | 3.7 KiB | 2.1 KiB | 44.1% | 2.0 KiB | {{[0-9.]+}} |
// MEM: | fuse | {{[0-9.]+}} KiB | {{[0-9.]+}} KiB | {{[0-9.]+}} {{B|KiB}} | {{[0-9.]+}} | {{[0-9.]+}} KiB after {{[0-9]+}} | 4 | 1.9 KiB | 1.4 KiB |
// MEM-JSON: "arena_bytes": 2112,
// MEM-JSON: "external_fragmentation": {{[0-9.e+-]+}},
// MEM-JSON: "largest_free_at_peak_bytes": {{[0-9]+}},
// MEM-JSON: "planned_buffers": 7,
// MEM-JSON-NEXT: "planned_bytes": 4288,
// MEM-JSON-NEXT: "reserved_at_peak_bytes": {{[1-9][0-9]*}},
// MEM-JSON: "water_level": [
// MEM-JSON-NEXT: {{[1-9][0-9]*}},
// RUN: FileCheck %s --check-prefix=HTML < %t/r.html
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/m.json

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

// The machine, the library GEMM and the threads --threads gave it.
// HOST: "host": {
// HOST-NEXT: "cores": {{[1-9][0-9]*}},
// HOST-NEXT: "cpu_model":
// HOST-NEXT: "gemm_library": "{{onednn|openblas|loops}}",
// HOST-NEXT: "library_threads": 1

// The JSON record: versioned, every configuration with its status, the
// program it shares, and its static figures (keys print in sorted order).
// JSON: "configurations": [
// JSON: "baseline_ms":
// JSON: "kernels": 8,
// JSON: "ops": 13,
// JSON: "round_ids": [
// JSON-NEXT: 0,
// JSON-NEXT: 1
// JSON: "round_sizes": [
// JSON: "static_peak_bytes": 2088
// JSON: "name": "baseline",
// JSON: "pipeline": "",
// JSON: "same_program_as": null,
// JSON: "status": "ok"
// JSON: "name": "fold",
// JSON: "name": "dce",
// JSON: "kernels": 5,
// JSON: "name": "fuse",
// JSON: "name": "fold+dce",
// JSON: "name": "fold+fuse",
// JSON: "name": "dce+fold",
// JSON: "name": "dce+fuse",
// JSON: "name": "fuse+fold",
// JSON: "name": "fuse+dce",
// JSON: "same_program_as": "dce+fuse",
// JSON: "kernels": 3,
// JSON: "ops": 10,
// JSON: "name": "default",
// JSON: "pipeline": "builtin.module(gopt-optimize)",
// JSON: "pairs": [
// JSON: "verdict": "{{synergy|interference|independent}}"
// JSON: "schema": "gopt-explore",
// JSON: "setup": {
// JSON: "mode": "default",
// JSON: "rounds": {{[12]}},
// JSON: "version": 1
// RUN: not grep '"status": "wrong"' %t/r.json

// The summary: setup, one row per configuration in order (the chosen one,
// whichever the timings make it, in bold), then the derived tables and the
// choice.
// MD: # gopt-explore: {{.*}}gopt-explore.mlir
// MD: **Setup:** {{.*}}mode `default`; 3 repetitions per round (more to fill 1 ms)
// MD: ## Configurations
// MD: | {{(\*\*)?}}baseline{{(\*\* \(chosen\))?}} | baseline | — | ok |
// MD: | {{(\*\*)?}}fold{{(\*\* \(chosen\))?}} | single | `builtin.module(gopt-fold)` | ok |
// MD: | {{(\*\*)?}}fuse+dce{{(\*\* \(chosen\))?}} (same program as dce+fuse) | pair | `builtin.module(gopt-fuse,gopt-dce)` | ok |
// MD: default{{.*}} | default | `builtin.module(gopt-optimize)` | ok |
// MD: ## Excluded configurations
// MD: None: every configuration is valid.
// MD: ## Synergy
// MD-COUNT-6: | {{fold|dce|fuse}} → {{fold|dce|fuse}} |
// MD: ## Utility U(α)
// MD: ## Amdahl view:
// MD: ## Choice
// MD: Chosen: **

// The HTML page is self-contained and has the five charts; the latency CDF
// draws one curve per distinct program, the baseline first.
// HTML: <!DOCTYPE html>
// HTML-NOT: http
// HTML: aria-label="Pareto scatter of compile time against speedup"
// HTML: aria-label="Median run time and op count per configuration"
// HTML: <h2>Memory</h2>
// HTML: <table id="memory">
// HTML: aria-label="Synergy matrix heat map"
// HTML: aria-label="Amdahl bars per kernel"
// HTML: aria-label="Latency distribution of each distinct program"
// HTML: <polyline class="cdf" style="stroke:#1b9e77" points="{{[0-9., ]+}}"><title>baseline: p50
// HTML: <h2>Water level</h2>
// HTML: aria-label="Bytes held by the allocator after each run"
// HTML: <polyline class="cdf" style="stroke:#1b9e77" points="{{[0-9., ]+}}"><title>baseline: {{[0-9.]+}} KiB after {{[0-9]+}} runs</title>
// HTML: </html>

// The manifest names the chosen pipeline, the model by hash and the target.
// MANIFEST: "configuration": "{{.+}}",
// MANIFEST: "measured": {
// MANIFEST: "speedup": {{[0-9.]+}},
// MANIFEST: "model_hash": "{{[0-9a-f]+}}",
// MANIFEST: "pipeline": "{{.*}}",
// MANIFEST: "schema": "gopt-explore-manifest",
// MANIFEST: "target": "cpu-{{.+}}",
