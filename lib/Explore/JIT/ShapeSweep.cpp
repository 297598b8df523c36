//===- ShapeSweep.cpp - The analysis at every shape of a grid -------------===//
//
// gopt-explore --shapes: the model imported at each point of the grid,
// analyzed as the single-shape run is (its stored runs reused when an
// identical exploration made them), and the points grouped into classes
// (ShapeClasses.h).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/JITBackend.h"
#include "GOpt/Explore/MeasurementCache.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/Runtime.h"

#include <map>

using namespace mlir;
using namespace mlir::gopt;

std::string mlir::gopt::getJITMeasurementContext() {
  return describeCodegenContext() + "|gemm " + gopt_sgemm_backend() +
         " threads " + std::to_string(runtime::getLibraryThreads());
}

llvm::Expected<ExploreReport> mlir::gopt::exploreWithStoredRuns(
    ModuleOp module, const ExploreOptions &options, bool remeasure,
    const ExploreProgress &progress, llvm::StringRef modelHash,
    std::string *storeWarning) {
  std::string path;
  if (!options.cacheDir.empty() && options.mode != ExploreMode::Verify) {
    std::string hash =
        modelHash.empty() ? computeProgramHash(module) : modelHash.str();
    path = measurementRecordPath(
        options.cacheDir, computeMeasurementKey(hash, "cpu", options,
                                                getJITMeasurementContext()));
    if (!remeasure) {
      auto stored = loadMeasurements(path);
      if (!stored)
        return stored.takeError();
      if (*stored)
        return analyzeStoredMeasurements(std::move(**stored), path,
                                         options.analysis);
    }
  }
  std::unique_ptr<ExploreBackend> backend = createJITBackend(module, options);
  auto report = explore(*backend, options, progress);
  if (!report)
    return report.takeError();
  if (!path.empty() && !report->setup.interrupted)
    if (llvm::Error error = storeMeasurements(path, *report)) {
      std::string why = llvm::toString(std::move(error));
      if (storeWarning)
        *storeWarning = why;
    }
  return report;
}

ShapeClassing mlir::gopt::exploreShapes(const ModelAtShape &model,
                                        llvm::ArrayRef<ShapePoint> shapes,
                                        const ExploreOptions &options,
                                        bool remeasure,
                                        const ExploreReport *first,
                                        const ExploreProgress &progress) {
  ShapeClassing classing;
  if (!shapes.empty())
    for (const auto &[name, size] : shapes.front().dims)
      classing.dimNames.push_back(name);
  // Each configuration's pipeline, as the analyses name them.
  std::map<std::string, std::pair<std::string, std::string>> pipelines;
  auto remember = [&](const ExploreReport &report) {
    for (const Configuration &c : report.configurations)
      pipelines.try_emplace(c.name, c.pipeline, c.loweringOptions);
  };
  for (size_t s = 0; s < shapes.size(); ++s) {
    const ShapePoint &shape = shapes[s];
    if (s == 0 && first) {
      remember(*first);
      classing.shapes.push_back(summarizeShape(shape, *first));
      continue;
    }
    if (options.interrupted && options.interrupted->load()) {
      ShapeOutcome skipped;
      skipped.shape = shape;
      skipped.error = "not analyzed: interrupted";
      classing.shapes.push_back(std::move(skipped));
      continue;
    }
    std::string label = shape.label();
    auto failed = [&](const llvm::Twine &why) {
      ShapeOutcome outcome;
      outcome.shape = shape;
      outcome.error = why.str();
      classing.shapes.push_back(std::move(outcome));
    };
    auto module = model(shape);
    if (!module) {
      failed(llvm::toString(module.takeError()));
      continue;
    }
    auto report = exploreWithStoredRuns(
        **module, options, remeasure,
        [&](int done, int total, llvm::StringRef what) {
          if (progress)
            progress(done, total, (label + ": " + what).str());
        });
    if (!report) {
      failed(llvm::toString(report.takeError()));
      continue;
    }
    remember(*report);
    classing.shapes.push_back(summarizeShape(shape, *report));
  }
  classifyShapes(classing, [&](llvm::StringRef name) {
    auto it = pipelines.find(name.str());
    return it == pipelines.end() ? std::pair<std::string, std::string>()
                                 : it->second;
  });
  return classing;
}
