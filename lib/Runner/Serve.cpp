//===- Serve.cpp - Answer timing requests for a compiled graph ------------===//
//
// gopt-run --serve: a compiled graph stays loaded while another process (a
// benchmark that interleaves GOpt with other engines round by round) asks
// for timed runs over a line protocol (docs/Runner.md, "Serving timing
// requests").
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runner/Runner.h"
#include "GOpt/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <istream>
#include <string>

using namespace mlir;
using namespace mlir::gopt;

static void printLine(llvm::raw_ostream &os, llvm::json::Object object) {
  os << llvm::json::Value(std::move(object)) << "\n";
  os.flush();
}

llvm::Error
mlir::gopt::serveGraph(CompiledGraph &graph, llvm::ArrayRef<HostTensor> inputs,
                       std::istream &in, llvm::raw_ostream &out,
                       llvm::ArrayRef<CompileTimes> warmUpCompiles) {
  // One measured run gives the peak memory the ready line reports.
  MeasureOptions once;
  once.warmup = 0;
  once.repetitions = 1;
  auto first = measureGraph(graph, inputs, once);
  if (!first)
    return first.takeError();
  llvm::json::Object ready{
      {"ready", true},
      {"gopt_version", GOPT_VERSION_STRING},
      {"entry", graph.getEntry()},
      {"kernels", static_cast<int64_t>(graph.getKernels().size())},
      {"peak_bytes", first->peakBytes},
      {"compile_ms", graph.getCompileTimes().toJSON()}};
  if (!warmUpCompiles.empty()) {
    llvm::json::Array warmUp;
    for (const CompileTimes &times : warmUpCompiles)
      warmUp.push_back(times.toJSON());
    ready["warm_up_compile_ms"] = std::move(warmUp);
  }
  printLine(out, std::move(ready));

  std::string line;
  while (std::getline(in, line)) {
    llvm::StringRef command = llvm::StringRef(line).trim();
    if (command.empty())
      continue;
    if (command == "quit")
      return llvm::Error::success();
    auto [verb, argument] = command.split(' ');
    unsigned count = 0;
    if (verb != "run" || argument.trim().getAsInteger(10, count) ||
        count == 0) {
      printLine(out,
                llvm::json::Object{{"error", ("unknown command '" + command +
                                              "' (run N with N >= 1, or quit)")
                                                 .str()}});
      continue;
    }
    MeasureOptions options;
    options.warmup = 0;
    options.repetitions = static_cast<int>(count);
    auto report = measureGraph(graph, inputs, options);
    if (!report)
      return report.takeError();
    llvm::json::Array times;
    for (double ms : report->latencyMs)
      times.push_back(ms);
    printLine(out, llvm::json::Object{{"times_ms", std::move(times)},
                                      {"peak_bytes", report->peakBytes}});
  }
  return llvm::Error::success();
}
