//===- CommandLine.cpp - What a GOpt tool's --help lists ------------------===//

#include "GOpt/Support/CommandLine.h"

#include "llvm/Support/CommandLine.h"

void mlir::gopt::hideLibraryOptions() {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    // LLVM's own category of --help, --version, ... is not exported; its
    // name is.
    bool generic = llvm::any_of(option->Categories, [](auto *category) {
      return category->getName() == "Generic Options";
    });
    if (!generic && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}
