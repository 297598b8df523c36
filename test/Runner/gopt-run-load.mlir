// Latency under load (docs/Runner.md): an open-loop Poisson stream, and the
// search for the highest rate within a p99 bound. Figures are not checked,
// only what the report holds.
// RUN: gopt-run %s --qps=5000 --requests=50 | FileCheck %s --check-prefix=LOAD
// LOAD:      load        50 requests, Poisson arrivals at 5000.0/s, 1 worker (open loop, first come first served)
// LOAD-NEXT:   latency   p50 {{[0-9.]+}}, p90 {{[0-9.]+}}, p99 {{[0-9.]+}}, max {{[0-9.]+}} ms (arrival to completion, queueing included)
// LOAD-NEXT:   service   {{[0-9.]+}} ms median run
// LOAD-NEXT:   achieved  {{[0-9.]+}} requests/s over {{[0-9.]+}} s; workers busy {{[0-9.]+}}% of the time

// RUN: gopt-run %s --qps=5000 --requests=40 --workers=2 --format=json | FileCheck %s --check-prefix=JSON
// JSON:      "load": {
// JSON-DAG:    "achieved_per_s":
// JSON-DAG:    "p99_ms":
// JSON-DAG:    "requests": 40,
// JSON-DAG:    "workers": 2

// A bound no run can meet: the first rate misses it and its median run
// alone exceeds it, so no lower rate is tried (each halving would double a
// stream's length for nothing).
// RUN: gopt-run %s --p99-ms=0.000001 --requests=20 | FileCheck %s --check-prefix=NONE
// NONE: sustained   rates tried against p99 <= 0.0000 ms:
// NONE-NEXT: missed
// NONE-NEXT: no rate tried kept p99 within the bound
// NONE-NEXT: lower rates were not tried: at {{[0-9.]+}}/s the median run alone took {{[0-9.]+}} ms, more than the bound
// A generous bound: a highest rate is found.
// RUN: gopt-run %s --p99-ms=1000 --requests=20 --format=json | FileCheck %s --check-prefix=RATE
// RATE: "sustained": {
// RATE: "at_rate": {
// RATE: "met": true

// RUN: not gopt-run %s --qps=-1 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: gopt-run: error: --qps must be positive
// RUN: not gopt-run %s --qps=100 --workers=0 2>&1 | FileCheck %s --check-prefix=WORKERS
// WORKERS: gopt-run: error: a load test needs at least one request and one worker
// RUN: not gopt-run %s --qps=100 --serve 2>&1 | FileCheck %s --check-prefix=SERVE
// SERVE: gopt-run: error: --qps and --p99-ms do not go with --serve

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = gopt.relu %x : tensor<4x8xf32>
  %1 = gopt.exp %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
