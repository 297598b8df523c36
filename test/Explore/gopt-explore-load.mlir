// gopt-explore --load-test: every distinct program under an open-loop
// stream of Poisson arrivals (latency with queueing), the highest rate
// within a p99 bound, and the choice applying the bound to the p99 under
// load.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-explore %s --passes=fuse --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --min-rounds=2 \
// RUN:   --load-test --qps=2000 --p99-ms=50 --requests=50 --threads=1 \
// RUN:   --progress=never --cache-dir=%t/cache --markdown=%t/r.md --json=%t/r.json \
// RUN:   > %t/stdout.txt
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/stdout.txt
// RUN: FileCheck %s --check-prefix=MD < %t/r.md
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json

// SUMMARY: Under load (--load-test; latency from arrival, queueing included):
// SUMMARY-NEXT: configuration rate/s p50 ms p99 ms achieved/s busy sustained /s (p99 ≤ 50.0 ms)
// SUMMARY-NEXT: baseline 2000 {{[0-9.e-]+}} {{[0-9.e-]+}} {{[0-9]+}} {{[0-9.]+}}% {{[0-9]+|none}}
// SUMMARY-NEXT: fuse 2000 {{[0-9.e-]+}} {{[0-9.e-]+}} {{[0-9]+}} {{[0-9.]+}}% {{[0-9]+|none}}
// SUMMARY: Choice:

// MD: ## Latency under load
// MD: | configuration | rate /s | p50 ms | p90 ms | p99 ms | max ms | achieved /s | busy | sustained /s (p99 ≤ 50.0 ms) |
// MD-NEXT: |---|---:|---:|---:|---:|---:|---:|---:|---:|
// MD-NEXT: | baseline | 2000 |
// MD-NEXT: | fuse | 2000 |
// MD: ## Choice
// MD: the p99 bound of 50.0 ms under load at 2000 requests/s

// JSON: "load": {
// JSON-NEXT: "achieved_per_second": {{[0-9.e+]+}},
// JSON: "p99_ms": {{[0-9.e+-]+}},
// JSON: "qps": 2000,
// JSON-NEXT: "requests": 50,
// JSON: "sustained_qps": {{[0-9.e+]+}},
// JSON: "workers": 1

// A rerun reuses the runs, the load tests with them; another rate, more
// requests or another bound tests anew.
// RUN: gopt-explore %s --passes=fuse --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --min-rounds=2 \
// RUN:   --load-test --qps=2000 --p99-ms=50 --requests=50 --threads=1 \
// RUN:   --progress=never --cache-dir=%t/cache | FileCheck %s --check-prefix=REUSED
// REUSED: Runs reused from an identical exploration
// REUSED: Under load
// RUN: gopt-explore %s --passes=fuse --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --min-rounds=2 \
// RUN:   --load-test --qps=1000 --requests=50 --threads=1 \
// RUN:   --progress=never --cache-dir=%t/cache | FileCheck %s --check-prefix=FRESH
// FRESH-NOT: reused
// FRESH: configuration rate/s p50 ms p99 ms achieved/s busy sustained /s
// FRESH-NEXT: baseline 1000 {{.*}} —

// Errors, before anything is measured.
// RUN: not gopt-explore %s --load-test 2>&1 | FileCheck %s --check-prefix=NORATE
// NORATE: gopt-explore: error: --load-test needs --qps=R (a stream at that rate) or --p99-ms=B (the highest rate within it)
// RUN: not gopt-explore %s --load-test --qps=10 --requests=0 2>&1 | FileCheck %s --check-prefix=REQUESTS
// REQUESTS: gopt-explore: error: --requests and --workers must be at least 1

func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = gopt.exp %x : tensor<64x64xf32>
  %b = gopt.add %a, %x : tensor<64x64xf32>
  %c = gopt.relu %b : tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
