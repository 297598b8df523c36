//===- RunnerFixture.h - A context that compiles and runs graphs -*- C++ -*-===//
//
// The runner's unit tests share it: every dialect the lowering passes
// through, and GOpt's and upstream passes registered once per process.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_UNITTESTS_RUNNER_RUNNERFIXTURE_H
#define GOPT_UNITTESTS_RUNNER_RUNNERFIXTURE_H

#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace mlir {
namespace gopt {

struct RunnerFixture : ::testing::Test {
  RunnerFixture() {
    static bool registered = [] {
      gopt::registerAllPasses();
      return true;
    }();
    (void)registered;
    DialectRegistry registry;
    gopt::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
};

} // namespace gopt
} // namespace mlir

#endif // GOPT_UNITTESTS_RUNNER_RUNNERFIXTURE_H
