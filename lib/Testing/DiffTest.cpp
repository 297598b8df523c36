//===- DiffTest.cpp - Differential testing of the graph passes ------------===//
//
// Each configuration's graph pipeline runs on a clone of the module. The
// constant evaluator computes the result graph, to compare with what it
// computes on the unoptimized one: a pass that changes the graph's meaning
// shows there, with no lowering involved. Then the graph is compiled and run,
// unless its IR is textually identical to one already compiled (a pass that
// found nothing to do, or dce after fold removing what dce alone removes),
// whose outputs are reused, or the caller asked for the reference and
// gopt-optimize only.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Testing/DiffTest.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Testing/EvaluatorReference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::gopt;

std::vector<DiffConfiguration> mlir::gopt::getDiffConfigurations() {
  static const char *const passes[] = {"gopt-fold", "gopt-dce", "cse",
                                       "gopt-fuse"};
  static const char *const names[] = {"fold", "dce", "cse", "fuse"};
  std::vector<DiffConfiguration> configs = {{"reference", ""}};
  for (unsigned mask = 1; mask < 16; ++mask) {
    std::string name, pipeline;
    for (unsigned i = 0; i < 4; ++i) {
      if (!(mask & (1u << i)))
        continue;
      name += (name.empty() ? "" : "+") + std::string(names[i]);
      pipeline += (pipeline.empty() ? "" : ",") + std::string(passes[i]);
    }
    configs.push_back({name, "builtin.module(" + pipeline + ")"});
  }
  configs.push_back({"gopt-optimize", "builtin.module(gopt-optimize)"});
  return configs;
}

namespace {

/// Top-level ops of the module's functions (a gopt.fusion counts once).
int64_t countGraphOps(ModuleOp module) {
  int64_t n = 0;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal())
      n += fn.getBody().front().getOperations().size();
  return n;
}

std::string printIR(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, OpPrintingFlags().printGenericOpForm());
  return text;
}

} // namespace

std::string mlir::gopt::describeFirstMismatch(llvm::ArrayRef<HostTensor> got,
                                              llvm::ArrayRef<HostTensor> want,
                                              double rtol, double atol,
                                              llvm::StringRef whose,
                                              llvm::StringRef against) {
  for (size_t i = 0; i < want.size(); ++i) {
    TensorComparison c = compareTensors(got[i], want[i], rtol, atol);
    if (!c.matches)
      return llvm::formatv("result #{0}{1} differs from {2} ({3} of {4} "
                           "elements, max abs error {5}): {6}",
                           i, whose, against, c.mismatches,
                           want[i].getNumElements(), c.maxAbsError, c.detail)
          .str();
  }
  return "";
}

DiffTestResult mlir::gopt::runDiffTest(ModuleOp module,
                                       const DiffTestOptions &options) {
  DiffTestResult result;
  std::vector<DiffConfiguration> configs = getDiffConfigurations();
  auto fail = [&](const DiffConfiguration &config, const llvm::Twine &what) {
    result.failures.push_back(config.name + ": " + what.str());
  };

  // The reference: no graph pass.
  CompileOptions compileOptions;
  compileOptions.codegenOptLevel = options.codegenOptLevel;
  // A differential test is after bugs: the pass that breaks the IR is named.
  compileOptions.verifyEachPass = true;
  auto reference = CompiledGraph::compile(module, compileOptions);
  if (!reference) {
    fail(configs.front(),
         "does not compile: " + llvm::toString(reference.takeError()));
    return result;
  }
  std::vector<HostTensor> inputs =
      (*reference)->makeRandomInputs(options.inputSeed);
  auto expected = (*reference)->run(inputs);
  if (!expected) {
    fail(configs.front(),
         "does not run: " + llvm::toString(expected.takeError()));
    return result;
  }
  // The independent reference: the constant evaluator, op by op.
  auto compare = [&](const DiffConfiguration &config,
                     const std::vector<HostTensor> &got,
                     const std::vector<HostTensor> &want, llvm::StringRef whose,
                     llvm::StringRef against) {
    std::string how = describeFirstMismatch(got, want, options.rtol,
                                            options.atol, whose, against);
    if (!how.empty())
      fail(config, how);
  };
  auto evaluated = evaluateWithConstantEvaluator(
      module, (*reference)->getEntry(), inputs);
  if (!evaluated) {
    result.evaluatorSkipped = llvm::toString(evaluated.takeError());
  } else {
    result.checkedAgainstEvaluator = true;
    compare(configs.front(), *expected, *evaluated, "",
            "the constant evaluator's");
  }
  FunctionType referenceType = (*reference)->getFunctionType();
  int64_t opsBefore = countGraphOps(module);

  // Outputs of each distinct IR compiled so far.
  llvm::StringMap<std::vector<HostTensor>> outputsByIR;
  outputsByIR[printIR(module)] = std::move(*expected);
  const std::vector<HostTensor> &want = outputsByIR.begin()->second;

  for (const DiffConfiguration &config : llvm::drop_begin(configs)) {
    ++result.configurations;
    OwningOpRef<ModuleOp> clone = module.clone();
    if (auto ms =
            runGraphPipeline(*clone, config.pipeline, /*passTiming=*/false,
                             /*verifyEachPass=*/true);
        !ms) {
      fail(config, llvm::toString(ms.takeError()));
      continue;
    }
    int64_t opsAfter = countGraphOps(*clone);
    if (opsAfter > opsBefore)
      fail(config, llvm::formatv("the graph grew from {0} to {1} ops",
                                 opsBefore, opsAfter)
                       .str());
    if (result.checkedAgainstEvaluator) {
      auto got = evaluateWithConstantEvaluator(
          *clone, (*reference)->getEntry(), inputs);
      if (!got) {
        fail(config, "the constant evaluator cannot compute the optimized "
                     "graph: " +
                         llvm::toString(got.takeError()));
        continue;
      }
      ++result.evaluated;
      compare(config, *got, *evaluated, " (evaluated)",
              "the constant evaluator's on the unoptimized graph");
    }
    bool isOptimize = config.pipeline == "builtin.module(gopt-optimize)";
    if (!options.compileEveryConfiguration && !isOptimize)
      continue;
    std::string ir = printIR(*clone);
    auto it = outputsByIR.find(ir);
    if (it == outputsByIR.end()) {
      ++result.compiled;
      auto graph = CompiledGraph::compile(*clone, compileOptions);
      if (!graph) {
        fail(config, "does not compile: " + llvm::toString(graph.takeError()));
        continue;
      }
      if ((*graph)->getFunctionType() != referenceType) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "the signature changed from " << referenceType << " to "
           << (*graph)->getFunctionType();
        fail(config, text);
        continue;
      }
      auto outputs = (*graph)->run(inputs);
      if (!outputs) {
        fail(config, "does not run: " + llvm::toString(outputs.takeError()));
        continue;
      }
      it = outputsByIR.try_emplace(ir, std::move(*outputs)).first;
    }
    compare(config, it->second, want, "", "the reference");
  }

  // The GPU's kernels, emulated on this CPU, unoptimized and optimized.
  if (options.emulateGPU) {
    for (const DiffConfiguration &config :
         {DiffConfiguration{"gpu-emulated", ""},
          DiffConfiguration{"gopt-optimize+gpu-emulated",
                            "builtin.module(gopt-optimize)"}}) {
      ++result.configurations;
      ++result.compiled;
      CompileOptions gpu = compileOptions;
      gpu.target = Target::EmulatedCUDA;
      gpu.nvvmOptions = options.nvvmOptions;
      gpu.graphPipeline = config.pipeline;
      auto graph = CompiledGraph::compile(module, gpu);
      if (!graph) {
        fail(config, "does not compile: " + llvm::toString(graph.takeError()));
        continue;
      }
      // An access out of bounds stops emulated code (emulate-check-bounds):
      // a failure of this configuration, not of the process.
      if (llvm::Error error = (*graph)->checkRunsWithoutTrapping(inputs)) {
        fail(config, "does not run: " + llvm::toString(std::move(error)));
        continue;
      }
      auto outputs = (*graph)->run(inputs);
      if (!outputs) {
        fail(config, "does not run: " + llvm::toString(outputs.takeError()));
        continue;
      }
      compare(config, *outputs, want, "", "the reference");
    }
  }
  return result;
}

llvm::Expected<std::pair<uint64_t, uint64_t>>
mlir::gopt::parseSeedRange(llvm::StringRef text) {
  auto bad = [&]() {
    return llvm::createStringError("bad seed range '" + text.str() +
                                   "': expected N or A-B with A <= B");
  };
  auto [first, last] = text.split('-');
  uint64_t a, b;
  if (first.trim().getAsInteger(10, a))
    return bad();
  if (!text.contains('-'))
    return std::make_pair(a, a);
  if (last.trim().getAsInteger(10, b) || a > b)
    return bad();
  return std::make_pair(a, b);
}
