//===- DiffTest.cpp - Differential testing of the graph passes ------------===//
//
// Each configuration's graph pipeline runs on a clone of the module; when
// the resulting IR is textually identical to one already compiled (a pass
// that found nothing to do, or dce after fold removing what dce alone
// removes), that configuration's outputs are reused instead of lowering and
// JIT-compiling the same IR again.
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

DiffTestResult mlir::gopt::runDiffTest(ModuleOp module,
                                       const DiffTestOptions &options) {
  DiffTestResult result;
  std::vector<DiffConfiguration> configs = getDiffConfigurations();
  auto fail = [&](const DiffConfiguration &config, const llvm::Twine &what) {
    result.failures.push_back(config.name + ": " + what.str());
  };

  // The reference: no graph pass.
  CompileOptions compileOptions;
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
  auto evaluated = evaluateWithConstantEvaluator(
      module, (*reference)->getEntry(), inputs);
  if (!evaluated) {
    result.evaluatorSkipped = llvm::toString(evaluated.takeError());
  } else {
    result.checkedAgainstEvaluator = true;
    for (size_t i = 0; i < expected->size(); ++i) {
      TensorComparison c = compareTensors((*expected)[i], (*evaluated)[i],
                                          options.rtol, options.atol);
      if (!c.matches) {
        fail(configs.front(),
             llvm::formatv("result #{0} differs from the constant "
                           "evaluator's ({1} of {2} elements, max abs error "
                           "{3}): {4}",
                           i, c.mismatches, (*evaluated)[i].getNumElements(),
                           c.maxAbsError, c.detail)
                 .str());
        break;
      }
    }
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
    if (auto ms = runGraphPipeline(*clone, config.pipeline); !ms) {
      fail(config, llvm::toString(ms.takeError()));
      continue;
    }
    int64_t opsAfter = countGraphOps(*clone);
    if (opsAfter > opsBefore)
      fail(config, llvm::formatv("the graph grew from {0} to {1} ops",
                                 opsBefore, opsAfter)
                       .str());
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
    const std::vector<HostTensor> &got = it->second;
    for (size_t i = 0; i < want.size(); ++i) {
      TensorComparison c =
          compareTensors(got[i], want[i], options.rtol, options.atol);
      if (!c.matches) {
        fail(config, llvm::formatv("result #{0} differs from the reference "
                                   "({1} of {2} elements, max abs error "
                                   "{3}): {4}",
                                   i, c.mismatches, want[i].getNumElements(),
                                   c.maxAbsError, c.detail)
                         .str());
        break;
      }
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
