// gopt-explore's modes and its choice: verify checks outputs and times
// nothing; autotune adds orders and options; a configuration that fails is
// reported and the run goes on; the choice honours the memory limit.

// RUN: not gopt-explore %s --mode=verify --passes=fold,fuse --progress=never --format=markdown \
// RUN:   --pipeline='lowered=builtin.module(gopt-lower-to-llvm)' 2>%t.err | FileCheck %s --check-prefix=VERIFY
// RUN: FileCheck %s --check-prefix=VERIFYERR < %t.err
// The terminal summary of the same: one line per configuration.
// RUN: not gopt-explore %s --mode=verify --passes=fold,fuse --progress=never \
// RUN:   --pipeline='lowered=builtin.module(gopt-lower-to-llvm)' 2>/dev/null | FileCheck %s --check-prefix=VSUMMARY
// VSUMMARY: outputs checked only, nothing timed; elapsed
// VSUMMARY: baseline 4 kernels  reference
// VSUMMARY: fold {{[0-9]+}} kernels  outputs match
// VSUMMARY: fold+fuse (=fold) {{[0-9]+}} kernels  outputs match
// VSUMMARY: lowered 0 kernels  compile-failed: {{.*}}no public function to run
// VERIFYERR: gopt-explore: 1 of 7 configurations failed verification: lowered (compile-failed)
// Every configuration matching: exit 0.
// RUN: gopt-explore %s --mode=verify --passes=fold,fuse --progress=never --quiet
// VERIFY: mode `verify`; outputs checked only, nothing timed
// VERIFY: ## Verification
// VERIFY: | baseline | baseline | — | reference | 4 | 5 |
// VERIFY: | fold | single | `builtin.module(gopt-fold)` | match |
// VERIFY: | fold+fuse | pair | `builtin.module(gopt-fold,gopt-fuse)` | match | {{.*}} | same program as fold |
// VERIFY: | lowered | user | `builtin.module(gopt-lower-to-llvm)` | compile-failed | — | — | — | — | the module has no public function to run |

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-explore %s --mode=autotune --passes=fold,dce,fuse --pairs=false \
// RUN:   --budget=20 --reps=2 --round-ms=0 --max-rounds=1 --min-rounds=1 \
// RUN:   --progress=never --json=%t/tuned.json --quiet
// RUN: FileCheck %s --check-prefix=TUNED < %t/tuned.json
// TUNED-DAG: "name": "tuned:dce+fold+fuse",
// TUNED-DAG: "name": "tuned:fuse+fold+dce",
// TUNED-DAG: "name": "tuned:default{max-group-size=4}",
// TUNED-DAG: "kind": "tuned",
// TUNED-DAG: "mode": "autotune",

// No configuration fits in one byte: nothing is chosen, and it says why.
// RUN: not gopt-explore %s --passes=fold --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=1 --min-rounds=1 \
// RUN:   --progress=never --memory-limit=1 --choose | FileCheck %s --check-prefix=LIMIT
// LIMIT: No configuration can be chosen: all 2 valid configurations exceed the memory limit of 1 B; the smallest peak is {{[0-9]+}} B, by `{{baseline|fold}}`.

// The compile cache: a second run of the same analysis (timing anew, not
// reusing the first run's runs) loads every program it compiled the first
// time.
// RUN: gopt-explore %s --passes=fold --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=1 --min-rounds=1 \
// RUN:   --progress=never --cache-dir=%t/cache --json=%t/c1.json --quiet
// RUN: gopt-explore %s --passes=fold --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=1 --min-rounds=1 \
// RUN:   --progress=never --cache-dir=%t/cache --json=%t/c2.json --quiet --remeasure
// RUN: FileCheck %s --check-prefix=COLD < %t/c1.json
// RUN: FileCheck %s --check-prefix=WARM < %t/c2.json
// COLD:      "cache": {
// COLD-NEXT:   "dir": "{{.*}}cache",
// COLD-NEXT:   "hits": 0,
// COLD-NEXT:   "misses": 2,
// WARM:      "from_cache": true,
// WARM:      "cache": {
// WARM-NEXT:   "dir": "{{.*}}cache",
// WARM-NEXT:   "hits": 2,
// WARM-NEXT:   "misses": 0,

// A bounded cache: with --cache-limit-mb=0 each program stored evicts the
// others, so one entry (its object and its sidecar) is left, and the record
// of the runs (trimmed like an entry the next time a program is stored).
// RUN: gopt-explore %s --passes=fold --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=1 --min-rounds=1 \
// RUN:   --progress=never --cache-dir=%t/small --cache-limit-mb=0 --quiet
// RUN: ls %t/small | grep -v measurements | count 2

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = gopt.constant dense<0.5> : tensor<4x8xf32>
  %c2 = gopt.add %c, %c : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %a = gopt.mul %x, %c2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %b = gopt.relu %a : tensor<4x8xf32>
  %d = gopt.exp %x : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// A p99 bound: no configuration meets an impossible one; a generous one
// chooses within it.
// RUN: not gopt-explore %s --passes=fold --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=1 --min-rounds=1 \
// RUN:   --progress=never --cache-dir= --p99-ms=0.0000001 --choose | FileCheck %s --check-prefix=P99-NONE
// P99-NONE: No configuration can be chosen: all 2 valid configurations exceed the p99 bound of {{.*}} ms; the lowest p99 is {{.*}} ms, by `{{.*}}`.
// RUN: gopt-explore %s --passes=fold --pairs=false --default-pipeline=false \
// RUN:   --budget=5 --reps=2 --round-ms=0 --max-rounds=1 --min-rounds=1 \
// RUN:   --progress=never --cache-dir= --p99-ms=1000 --choose | FileCheck %s --check-prefix=P99-OK
// P99-OK: valid configurations within the p99 bound of 1000 ms
// RUN: not gopt-explore %s --p99-ms=-2 2>&1 | FileCheck %s --check-prefix=P99-BAD
// P99-BAD: gopt-explore: error: --p99-ms must be positive
