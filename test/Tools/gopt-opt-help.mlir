// RUN: gopt-opt --help | FileCheck %s

// The gopt passes and the pipeline are registered, with their summaries and
// options.
// CHECK: OVERVIEW: GOpt optimizer driver
// CHECK: Available Dialects: {{.*}}, gopt,
// CHECK-DAG: --gopt-dce {{.*}}Remove ops whose results cannot reach a function result
// CHECK-DAG: --keep-ops=<string>
// CHECK-DAG: --gopt-fold {{.*}}Fold constants and algebraic identities in gopt graphs
// CHECK-DAG: --max-folded-elements=<long>
// CHECK-DAG: --gopt-fuse {{.*}}Group producer→consumer chains into gopt.fusion kernels
// CHECK-DAG: --fuse-contraction-epilogues
// CHECK-DAG: --fuse-reductions
// CHECK-DAG: --max-group-size=<long>
// CHECK-DAG: --gopt-optimize {{.*}}GOpt's default graph pipeline: gopt-fold, gopt-dce, cse, gopt-fuse, gopt-dce
