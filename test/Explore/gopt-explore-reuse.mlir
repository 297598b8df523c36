// A rerun on the same model, machine, build and measurement settings reuses
// the first run's timings, kept next to the compile cache, and analyzes
// them with its own criteria; --remeasure, other settings or no cache time
// anew; a damaged record is named with the way out.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --progress=never --cache-dir=%t/cache --json=%t/first.json > %t/first.txt
// RUN: FileCheck %s --check-prefix=FIRST < %t/first.txt
// RUN: ls %t/cache/*.measurements.json | count 1
// FIRST-NOT: reused
// FIRST: Choice:

// Reused, with another alpha: nothing compiled or timed, the same runs,
// water levels and kernel costs (the predictions are made from them).
// RUN: gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --progress=never --cache-dir=%t/cache --alpha=0.5 --predict=h100 --json=%t/second.json > %t/second.txt
// RUN: FileCheck %s --check-prefix=REUSED < %t/second.txt
// RUN: FileCheck %s --check-prefix=REUSED-JSON < %t/second.json
// RUN: %python -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert [c['measured']['run_ms'] for c in a['configurations']] == [c['measured']['run_ms'] for c in b['configurations']]; assert b['criteria']['alpha'] == 0.5; assert [c['measured']['water_level'] for c in a['configurations']] == [c['measured']['water_level'] for c in b['configurations']]; assert all(c['measured']['water_level'] for c in b['configurations']); p = b['predictions'][0]['configurations']; assert len(p) == len(b['configurations']) and all(c['predicted_ms'] > 0 for c in p)" %t/first.json %t/second.json
// REUSED: elapsed {{.*}} (statistics only: the runs were reused)
// REUSED: Runs reused from an identical exploration (timed {{.*}} UTC):
// REUSED: --remeasure
// REUSED: Choice:
// REUSED-JSON-DAG: "reused_measurements": "{{.*}}.measurements.json",
// REUSED-JSON-DAG: "measured_at": {{[0-9]+}},

// --remeasure, other measurement settings, no cache: timed anew.
// RUN: gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --progress=never --cache-dir=%t/cache --remeasure | FileCheck %s --check-prefix=FRESH
// RUN: gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=3 --round-ms=0 --max-rounds=2 --progress=never --cache-dir=%t/cache | FileCheck %s --check-prefix=FRESH
// RUN: gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --progress=never --cache-dir= | FileCheck %s --check-prefix=FRESH
// FRESH-NOT: reused
// FRESH: Choice:

// A damaged record: the error names it and the way out, which works.
// RUN: for f in %t/cache/*.measurements.json; do echo '{"schema": "gopt-explore-measurements", "version": 3}' > $f; done
// RUN: not gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --progress=never --cache-dir=%t/cache 2>&1 | FileCheck %s --check-prefix=DAMAGED
// DAMAGED: gopt-explore: error: the stored measurements {{.*}}.measurements.json have no setup; --remeasure replaces them
// RUN: gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --progress=never --cache-dir=%t/cache --remeasure --quiet
// RUN: gopt-explore %s --passes=fold,fuse --pairs=false --budget=5 --reps=2 --round-ms=0 --max-rounds=2 --progress=never --cache-dir=%t/cache | FileCheck %s --check-prefix=REUSED

func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = gopt.constant dense<2.0> : tensor<16xf32>
  %one = gopt.constant dense<1.0> : tensor<16xf32>
  %s = gopt.mul %c, %one : tensor<16xf32>
  %a = gopt.add %x, %s : tensor<8x16xf32>, tensor<16xf32> -> tensor<8x16xf32>
  %r = gopt.relu %a : tensor<8x16xf32>
  %t = gopt.tanh %r : tensor<8x16xf32>
  return %t : tensor<8x16xf32>
}
