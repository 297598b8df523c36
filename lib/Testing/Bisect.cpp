//===- Bisect.cpp - The pass, then the rewrite, that breaks a pipeline ----===//

#include "GOpt/Testing/Bisect.h"
#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Support/Error.h"
#include "GOpt/Support/Statistics.h"
#include "GOpt/Testing/DiffTest.h"

#include "mlir/IR/Action.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"


using namespace mlir;
using namespace mlir::gopt;

namespace {

/// An action handler: lets the first `limit` `apply-pattern` actions run
/// (every one when `limit` < 0), skips the rest, counts them all, and records
/// the pattern and the op of application number `record`. Other actions
/// (pass execution) run.
struct PatternLimit {
  int64_t limit = -1;
  int64_t record = -1;
  int64_t seen = 0;
  std::string pattern, anchor;

  void operator()(llvm::function_ref<void()> transform,
                  const tracing::Action &action) {
    if (action.getTag() != ApplyPatternAction::tag) {
      transform();
      return;
    }
    ++seen;
    if (seen == record)
      describe(action);
    if (limit >= 0 && seen > limit)
      return;
    transform();
  }

  void describe(const tracing::Action &action) {
    std::string text;
    llvm::raw_string_ostream os(text);
    action.print(os); // "`apply-pattern pattern: <debug name>"
    pattern = llvm::StringRef(text).split("pattern: ").second.str();
    for (IRUnit unit : action.getContextIRUnits())
      if (auto *op = llvm::dyn_cast_if_present<Operation *>(unit)) {
        std::string where;
        llvm::raw_string_ostream los(where);
        los << "'" << op->getName() << "' at " << op->getLoc();
        anchor = where;
        break;
      }
  }
};

/// Runs `pipeline` on `module` in place with `limit` installed as the
/// context's action handler (removed after).
llvm::Error runLimited(ModuleOp module, llvm::StringRef pipeline,
                       PatternLimit &limit) {
  MLIRContext *context = module.getContext();
  context->registerActionHandler(
      [&limit](llvm::function_ref<void()> transform,
               const tracing::Action &action) { limit(transform, action); });
  auto ms = runGraphPipeline(module, pipeline, /*passTiming=*/false,
                             /*verifyEachPass=*/true);
  context->registerActionHandler(nullptr);
  return ms ? llvm::Error::success() : ms.takeError();
}

std::string wrap(llvm::ArrayRef<std::string> passes) {
  return "builtin.module(" + llvm::join(passes, ",") + ")";
}

std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// The lines of `before` and `after` around their first difference (all of
/// them when short), each numbered.
std::pair<std::string, std::string> excerpt(llvm::StringRef before,
                                            llvm::StringRef after) {
  llvm::SmallVector<llvm::StringRef> a, b;
  before.rtrim('\n').split(a, '\n');
  after.rtrim('\n').split(b, '\n');
  size_t first = 0;
  while (first < a.size() && first < b.size() && a[first] == b[first])
    ++first;
  constexpr size_t kShort = 80, kBefore = 6, kAfter = 24;
  auto window = [&](llvm::ArrayRef<llvm::StringRef> lines) {
    size_t from = 0, to = lines.size();
    if (std::max(a.size(), b.size()) > kShort) {
      from = first > kBefore ? first - kBefore : 0;
      to = std::min(lines.size(), first + kAfter);
    }
    std::string text;
    if (from > 0)
      text += "  ...\n";
    for (size_t i = from; i < to; ++i)
      text += llvm::formatv("{0,4} {1}\n", i + 1, lines[i]).str();
    if (to < lines.size())
      text += "  ...\n";
    return text;
  };
  return {window(a), window(b)};
}

/// A bisection is after a bug: the pass that breaks the IR is named.
CompileOptions compileOptions() {
  CompileOptions options;
  options.verifyEachPass = true;
  return options;
}

/// Compiles and checks candidate graphs against the unoptimized one.
class Checker {
public:
  Checker(const BisectOptions &options, int &checks)
      : options(options), checks(checks) {}

  llvm::Error init(ModuleOp module) {
    auto compiled = CompiledGraph::compile(module, compileOptions());
    if (!compiled)
      return makeError("the unoptimized graph does not compile: " +
                       llvm::toString(compiled.takeError()));
    reference = std::move(*compiled);
    inputs = reference->makeRandomInputs(options.inputSeed);
    if (llvm::Error e = reference->checkRunsWithoutTrapping(inputs))
      return makeError("the unoptimized graph does not run: " +
                       llvm::toString(std::move(e)));
    auto outputs = reference->run(inputs);
    if (!outputs)
      return makeError("the unoptimized graph does not run: " +
                       llvm::toString(outputs.takeError()));
    expected = std::move(*outputs);
    return llvm::Error::success();
  }

  /// How `candidate` is bad, or "" when it is not.
  llvm::Expected<std::string> check(ModuleOp candidate) {
    ++checks;
    auto compiled = CompiledGraph::compile(candidate, compileOptions());
    if (!compiled)
      return "does not compile: " + firstLine(compiled.takeError());
    CompiledGraph &graph = **compiled;
    if (graph.getFunctionType() != reference->getFunctionType())
      return std::string("the entry's signature changed");
    if (llvm::Error e = graph.checkRunsWithoutTrapping(inputs))
      return "does not run: " + firstLine(std::move(e));
    if (options.criterion == BisectCriterion::Slower)
      return slower(graph);
    auto outputs = graph.run(inputs);
    if (!outputs)
      return "does not run: " + firstLine(outputs.takeError());
    return describeFirstMismatch(*outputs, expected, options.rtol,
                                 options.atol, "",
                                 "the unoptimized graph's");
  }

private:
  static std::string firstLine(llvm::Error error) {
    std::string text = llvm::toString(std::move(error));
    return llvm::StringRef(text).split('\n').first.str();
  }

  /// Rounds of the reference and the candidate, interleaved so drift hits
  /// both; the ratio of the medians of their round medians.
  llvm::Expected<std::string> slower(CompiledGraph &graph) {
    MeasureOptions measure;
    measure.warmup = 2;
    measure.repetitions = options.runsPerRound;
    std::vector<double> base, cand;
    for (int r = 0; r < options.rounds; ++r) {
      auto a = measureGraph(*reference, inputs, measure);
      if (!a)
        return a.takeError();
      auto b = measureGraph(graph, inputs, measure);
      if (!b)
        return "does not run: " + firstLine(b.takeError());
      base.push_back(a->latency.median);
      cand.push_back(b->latency.median);
    }
    double ratio = median(cand) / median(base);
    if (ratio <= 1 + options.slowerMargin)
      return std::string();
    return llvm::formatv("median {0:f4} ms against {1:f4} ms unoptimized "
                         "({2:f2}x, medians of {3} interleaved rounds of {4} "
                         "runs; margin {5:f2})",
                         median(cand), median(base), ratio, options.rounds,
                         options.runsPerRound, options.slowerMargin)
        .str();
  }

  const BisectOptions &options;
  int &checks;
  std::unique_ptr<CompiledGraph> reference;
  std::vector<HostTensor> inputs, expected;
};

} // namespace

llvm::Expected<BisectResult>
mlir::gopt::bisectPipeline(ModuleOp module, const BisectOptions &options) {
  BisectResult result;
  MLIRContext *context = module.getContext();
  auto say = [&](const llvm::Twine &line) {
    if (options.progress) {
      *options.progress << line << "\n";
      options.progress->flush();
    }
  };

  // The pipeline's passes, one textual element each.
  PassManager parsed(context, ModuleOp::getOperationName());
  std::string parseError;
  if (failed(parseGraphPipeline(options.pipeline, parsed, parseError)))
    return makeError("bad pipeline '" + options.pipeline + "': " + parseError);
  for (Pass &pass : parsed.getPasses()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    pass.printAsTextualPipeline(os);
    result.passes.push_back(text);
  }
  if (result.passes.empty())
    return makeError("the pipeline '" + options.pipeline + "' has no pass");

  // Action order must be the program's: one thread.
  bool threaded = context->isMultithreadingEnabled();
  context->disableMultithreading();
  auto restore = llvm::make_scope_exit([&] {
    if (threaded)
      context->enableMultithreading();
  });

  Checker checker(options, result.checks);
  if (llvm::Error e = checker.init(module))
    return std::move(e);

  // A prefix of the pipeline applied to a copy of the module.
  auto applyPrefix =
      [&](size_t count) -> llvm::Expected<OwningOpRef<ModuleOp>> {
    OwningOpRef<ModuleOp> copy = module.clone();
    if (count > 0) {
      auto ms = runGraphPipeline(
          *copy, wrap(llvm::ArrayRef(result.passes).take_front(count)),
          /*passTiming=*/false, /*verifyEachPass=*/true);
      if (!ms)
        return ms.takeError();
    }
    return std::move(copy);
  };
  auto checkPrefix = [&](size_t count) -> llvm::Expected<std::string> {
    auto copy = applyPrefix(count);
    if (!copy)
      return copy.takeError();
    auto how = checker.check(**copy);
    if (how)
      say(llvm::formatv("  {0,-52} {1}", wrap(llvm::ArrayRef(result.passes)
                                                  .take_front(count)),
                        how->empty() ? "good" : "BAD: " + *how));
    return how;
  };

  say("checking the whole pipeline and each prefix of it:");
  auto whole = checkPrefix(result.passes.size());
  if (!whole)
    return whole.takeError();
  result.bad = !whole->empty();
  result.difference = *whole;
  if (!result.bad)
    return result;

  // The first pass whose prefix is bad.
  for (size_t count = 1; count <= result.passes.size(); ++count) {
    std::string how = *whole;
    if (count < result.passes.size()) {
      auto checked = checkPrefix(count);
      if (!checked)
        return checked.takeError();
      how = *checked;
    }
    if (!how.empty()) {
      result.firstBadPass = count - 1;
      result.passDifference = how;
      break;
    }
  }

  // Within that pass: bisect the number of pattern applications allowed.
  auto base = applyPrefix(result.firstBadPass);
  if (!base)
    return base.takeError();
  std::string pass = wrap(result.passes[result.firstBadPass]);
  auto runWith = [&](int64_t limit, int64_t record,
                     PatternLimit &state) -> llvm::Expected<OwningOpRef<ModuleOp>> {
    OwningOpRef<ModuleOp> copy = (*base)->clone();
    state.limit = limit;
    state.record = record;
    if (llvm::Error e = runLimited(*copy, pass, state))
      return std::move(e);
    return std::move(copy);
  };
  auto checkLimit = [&](int64_t limit) -> llvm::Expected<std::string> {
    PatternLimit state;
    auto copy = runWith(limit, -1, state);
    if (!copy)
      return copy.takeError();
    auto how = checker.check(**copy);
    if (how)
      say(llvm::formatv("  {0} with {1} of {2} pattern applications: {3}",
                        result.passes[result.firstBadPass], limit,
                        result.attempts, how->empty() ? "good" : "BAD"));
    return how;
  };

  PatternLimit counting;
  if (auto all = runWith(-1, -1, counting); !all)
    return all.takeError();
  result.attempts = counting.seen;
  if (result.attempts == 0)
    return result;
  say(llvm::formatv("bisecting the {0} pattern applications of {1}:",
                    result.attempts, result.passes[result.firstBadPass]));
  auto none = checkLimit(0);
  if (!none)
    return none.takeError();
  if (!none->empty())
    return result; // bad without any pattern: the pass's own code
  int64_t good = 0, bad = result.attempts;
  while (bad - good > 1) {
    int64_t mid = good + (bad - good) / 2;
    auto how = checkLimit(mid);
    if (!how)
      return how.takeError();
    (how->empty() ? good : bad) = mid;
  }
  // `bad` = result.attempts was not checked with the limit installed when
  // the loop never ran; a pass whose full run is bad is bad there too.
  result.firstBadAttempt = bad;
  PatternLimit before, after;
  auto irBefore = runWith(bad - 1, -1, before);
  if (!irBefore)
    return irBefore.takeError();
  auto irAfter = runWith(bad, bad, after);
  if (!irAfter)
    return irAfter.takeError();
  result.pattern = after.pattern;
  result.anchor = after.anchor;
  std::tie(result.irBefore, result.irAfter) =
      excerpt(print(**irBefore), print(**irAfter));
  return result;
}

void mlir::gopt::printBisectResult(const BisectResult &result,
                                   llvm::StringRef model,
                                   const BisectOptions &options,
                                   llvm::raw_ostream &os) {
  const char *what =
      options.criterion == BisectCriterion::Wrong ? "wrong" : "slower";
  if (!result.bad) {
    os << "the pipeline is not " << what << " on " << model << " ("
       << wrap(result.passes) << "); nothing to bisect\n";
    return;
  }
  os << "\nthe pipeline is " << what << ": " << result.difference << "\n";
  std::string passText = result.passes[result.firstBadPass];
  os << "first bad pass: " << passText << " (pass " << result.firstBadPass + 1
     << " of " << result.passes.size() << "): " << result.passDifference
     << "\n";
  auto before = llvm::ArrayRef(result.passes).take_front(result.firstBadPass);
  std::string reproduce =
      before.empty()
          ? "gopt-opt " + model.str()
          : "gopt-opt " + model.str() + " --pass-pipeline='" + wrap(before) +
                "' | gopt-opt";
  if (result.attempts == 0) {
    os << "it applies no rewrite pattern (no apply-pattern action), so "
          "bisection stops at the pass\n";
    return;
  }
  if (result.firstBadAttempt < 0) {
    os << "it is " << what << " even with none of its " << result.attempts
       << " pattern applications allowed: the difference comes from the "
          "pass's own code, not a pattern\n";
    return;
  }
  os << "first bad rewrite: pattern application " << result.firstBadAttempt
     << " of " << result.attempts << ", pattern " << result.pattern << " on "
     << result.anchor << "\n";
  os << "reproduce: " << reproduce << " --pass-pipeline='" << wrap(passText)
     << "' --mlir-debug-counter=apply-pattern-count="
     << result.firstBadAttempt << "\n";
  os << "\nIR before that rewrite (applications 1.."
     << result.firstBadAttempt - 1 << "):\n"
     << result.irBefore;
  os << "\nIR after it (applications 1.." << result.firstBadAttempt << "):\n"
     << result.irAfter;
}
