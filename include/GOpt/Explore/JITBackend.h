//===- JITBackend.h - The explorer over the JIT -----------------*- C++ -*-===//
//
// The real ExploreBackend: runs the graph passes, lowers with
// gopt-lower-to-llvm and JITs with the runner (lib/Runner) on seeded random
// inputs; and the batch-size sweep built on it. Library GOptExploreJIT; the
// driver (Explorer.h, GOptExplore) does not depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_JITBACKEND_H
#define GOPT_EXPLORE_JITBACKEND_H

#include "GOpt/Explore/Explorer.h"

#include <functional>
#include <memory>

namespace mlir {
namespace gopt {

/// The JIT backend for `module`: compiles each configuration once (through
/// the object cache of `options.cacheDir`), checks and times it.
std::unique_ptr<ExploreBackend> createJITBackend(ModuleOp module,
                                                 const ExploreOptions &options);

/// The model at a batch size (dimension 0 of every input), or why not.
using ModelAtBatchSize =
    std::function<llvm::Expected<OwningOpRef<ModuleOp>>(int64_t batchSize)>;

/// Throughput over batch sizes: for each size, the model at that size, and
/// `configurations` (the baseline first) compiled, verified and timed on it
/// with the JIT backend. A size at which the model or a configuration fails
/// gets a row with the error; the sweep goes on.
std::vector<BatchMeasurement>
sweepBatchSizes(const ModelAtBatchSize &model,
                llvm::ArrayRef<int64_t> batchSizes,
                llvm::ArrayRef<Configuration> configurations,
                const ExploreOptions &options,
                const ExploreProgress &progress = {});

/// What the measurements of a JIT exploration depend on besides the model
/// and the options (this build, the CPU, the GEMM library and its
/// threads): the context of their key in the measurement cache
/// (computeMeasurementKey).
std::string getJITMeasurementContext();

/// The analysis of `module` on the JIT: the runs of an identical earlier
/// exploration when `options.cacheDir` holds them (and not `remeasure`),
/// analyzed with this run's criteria; else explored anew, the runs stored
/// for the next time (timed modes). `modelHash` is computeProgramHash of
/// `module` when the caller has it (empty: computed here). A stored record
/// that does not read is an error; one that cannot be written is not: the
/// next run times the runs again, and `storeWarning`, when given, says why.
llvm::Expected<ExploreReport>
exploreWithStoredRuns(ModuleOp module, const ExploreOptions &options,
                      bool remeasure, const ExploreProgress &progress = {},
                      llvm::StringRef modelHash = "",
                      std::string *storeWarning = nullptr);

/// The model at a shape (sizes of its named dimensions), or why not.
using ModelAtShape =
    std::function<llvm::Expected<OwningOpRef<ModuleOp>>(const ShapePoint &)>;

/// The analysis at every point of `shapes` (exploreWithStoredRuns, each
/// with the whole of `options`, budget included), grouped into classes
/// (classifyShapes). `first`, when given, is the analysis already made at
/// `shapes[0]`. A point whose model or baseline fails gets its error and
/// no class; the sweep goes on.
ShapeClassing exploreShapes(const ModelAtShape &model,
                            llvm::ArrayRef<ShapePoint> shapes,
                            const ExploreOptions &options, bool remeasure,
                            const ExploreReport *first = nullptr,
                            const ExploreProgress &progress = {});

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_JITBACKEND_H
