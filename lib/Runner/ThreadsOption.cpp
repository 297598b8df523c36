//===- ThreadsOption.cpp - The --threads flag of GOpt's tools -------------===//

#include "GOpt/Runner/ThreadsOption.h"
#include "GOpt/Runtime/Runtime.h"

#include "llvm/Support/raw_ostream.h"

#include <thread>

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

static constexpr const char *kThreadsDescription =
    "Threads of the library GEMM and convolutions and of the generated "
    "code's parallel loops, one OpenMP pool (0: its default, one per core). "
    "More than this machine's cores are clamped";

cl::opt<int> &mlir::gopt::adoptThreadsOption(cl::OptionCategory &category) {
  auto &registered = cl::getRegisteredOptions();
  auto it = registered.find("threads");
  cl::opt<int> *option = nullptr;
  if (it != registered.end()) {
    // libLLVM's own `--threads=<int>` (a cl::opt<int>, unused by GOpt's
    // code paths).
    option = static_cast<cl::opt<int> *>(it->second);
  } else {
    static cl::opt<int> own("threads", cl::init(0));
    option = &own;
  }
  option->setDescription(kThreadsDescription);
  option->setHiddenFlag(cl::NotHidden);
  option->addCategory(category);
  return *option;
}

llvm::Expected<int> mlir::gopt::applyThreadsOption(llvm::StringRef tool,
                                                   int threads) {
  if (threads < 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--threads must not be negative, got " +
                                       std::to_string(threads));
  if (threads == 0)
    return runtime::getLibraryThreads();
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  int used = threads;
  if (cores > 0 && used > cores) {
    llvm::errs() << tool << ": warning: --threads=" << threads
                 << " is more than this machine's " << cores << " cores; using "
                 << cores << "\n";
    used = cores;
  }
  runtime::setLibraryThreads(used);
  return used;
}
