//===- StandInDriver.h - Tests of the CUDA runtime over a stand-in driver -*-
//C++ -*-===//
//
// The fixture of GOptCUDAStandInTests: the runtime opens the driver's
// stand-in (FakeCUDADriver.cpp, GOPT_FAKE_CUDA_DRIVER) instead of
// libcuda.so.1, so tests of what runs over a driver run on any machine.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_UNITTESTS_RUNTIME_STANDINDRIVER_H
#define GOPT_UNITTESTS_RUNTIME_STANDINDRIVER_H

#include "GOpt/Runtime/CUDA.h"

#include <gtest/gtest.h>

#include <cstdlib>

class StandInDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Before the runtime opens a driver (it does once per process).
    setenv("GOPT_LIBCUDA", GOPT_FAKE_CUDA_DRIVER, 1);
    ASSERT_EQ(gopt::runtime::cuda::initialize(), "");
    // Blocks cached by the tests before would change sizes and contents.
    gopt::runtime::cuda::emptyCache();
  }
};

#endif // GOPT_UNITTESTS_RUNTIME_STANDINDRIVER_H
