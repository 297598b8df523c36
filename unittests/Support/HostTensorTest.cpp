//===- HostTensorTest.cpp - Host tensors, .npy files, comparison ----------===//

#include "GOpt/Support/HostTensor.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

namespace {

std::string tempPath(llvm::StringRef name) {
  llvm::SmallString<128> path;
  llvm::sys::fs::createUniquePath("gopt-test-%%%%%%-" + name, path, true);
  return std::string(path);
}

TEST(Npy, RoundTripsEveryKindAndRank) {
  for (ElementKind kind : {ElementKind::F32, ElementKind::F64, ElementKind::F16,
                           ElementKind::I64, ElementKind::I32, ElementKind::I8,
                           ElementKind::I1}) {
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{}, {5}, {2, 3}, {2, 1, 4}}) {
      HostTensor t(kind, shape);
      for (int64_t i = 0; i < t.getNumElements(); ++i)
        t.setFromDouble(i, kind == ElementKind::I1 ? i % 2 : i - 2);
      std::string path = tempPath("t.npy");
      ASSERT_FALSE(bool(writeNpy(path, t)));
      auto back = readNpy(path);
      ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
      EXPECT_EQ(back->getKind(), kind);
      EXPECT_EQ(back->getShape(), shape);
      EXPECT_TRUE(compareTensors(*back, t, 0, 0).matches) << t.describe();
      llvm::sys::fs::remove(path);
    }
  }
}

TEST(Npy, WritesNumPysHeader) {
  HostTensor t(ElementKind::F32, {4});
  std::string path = tempPath("h.npy");
  ASSERT_FALSE(bool(writeNpy(path, t)));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  llvm::StringRef bytes = (*buffer)->getBuffer();
  EXPECT_TRUE(bytes.starts_with("\x93NUMPY\x01"));
  EXPECT_NE(bytes.find("{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (4,), }"),
            llvm::StringRef::npos);
  // Header padded so the data starts at a multiple of 64.
  EXPECT_EQ((bytes.size() - 16) % 64, 0u);
  llvm::sys::fs::remove(path);
}

TEST(Npy, RejectsWhatItCannotRead) {
  std::string path = tempPath("bad.npy");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    std::string header =
        "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n";
    os << "\x93NUMPY\x01" << '\0' << static_cast<char>(header.size())
       << '\0' << header << std::string(8, '\0');
  }
  auto t = readNpy(path);
  ASSERT_FALSE(bool(t));
  EXPECT_NE(llvm::toString(t.takeError()).find("unsupported dtype '>f4'"),
            std::string::npos);
  llvm::sys::fs::remove(path);
  auto missing = readNpy(path);
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read"),
            std::string::npos);
}

TEST(CompareTensors, UsesRelativeAndAbsoluteTolerance) {
  HostTensor a(ElementKind::F32, {3}), b(ElementKind::F32, {3});
  for (int i = 0; i < 3; ++i) {
    a.setFromDouble(i, 100.0 + i);
    b.setFromDouble(i, 100.0 + i);
  }
  a.setFromDouble(1, 101.05);
  EXPECT_TRUE(compareTensors(a, b, 1e-3, 0).matches);
  TensorComparison c = compareTensors(a, b, 1e-4, 0);
  EXPECT_FALSE(c.matches);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_NEAR(c.maxAbsError, 0.05, 1e-4);
  EXPECT_NE(c.detail.find("element 1"), std::string::npos);
}

TEST(CompareTensors, NaNMatchesNaNAndShapesMustAgree) {
  HostTensor a(ElementKind::F32, {2}), b(ElementKind::F32, {2});
  a.setFromDouble(0, NAN);
  b.setFromDouble(0, NAN);
  EXPECT_TRUE(compareTensors(a, b, 0, 0).matches);
  b.setFromDouble(0, 1.0);
  EXPECT_FALSE(compareTensors(a, b, 1, 1).matches);
  HostTensor c(ElementKind::F32, {1, 2});
  TensorComparison shape = compareTensors(a, c, 1, 1);
  EXPECT_FALSE(shape.matches);
  EXPECT_EQ(shape.detail, "got tensor<2xf32>, expected tensor<1x2xf32>");
}

TEST(RandomTensor, IsSeeded) {
  MLIRContext context;
  auto type = RankedTensorType::get({16}, Float32Type::get(&context));
  HostTensor a = makeRandomTensor(type, 3), b = makeRandomTensor(type, 3),
             c = makeRandomTensor(type, 4);
  EXPECT_TRUE(compareTensors(a, b, 0, 0).matches);
  EXPECT_FALSE(compareTensors(a, c, 0, 0).matches);
  for (int64_t i = 0; i < 16; ++i) {
    EXPECT_GE(a.getAsDouble(i), -1.0);
    EXPECT_LT(a.getAsDouble(i), 1.0);
  }
}

} // namespace

TEST(HostTensor, BorrowedTensorsReadTheirOwnersBytes) {
  // A tensor over another owner's bytes: no copy, and it leaves them to
  // their owner (the compiled graph's weight block).
  std::vector<float> owner = {1.5f, -2.0f, 3.25f, 0.0f, 8.0f, -0.5f};
  {
    HostTensor view =
        HostTensor::borrow(ElementKind::F32, {2, 3}, owner.data());
    EXPECT_EQ(view.getData(), owner.data());
    EXPECT_EQ(view.getByteSize(), 24u);
    EXPECT_EQ(view.getAsDouble(2), 3.25);
    view.setFromDouble(3, 7.0);
    HostTensor moved = std::move(view);
    EXPECT_EQ(moved.getData(), owner.data());
  }
  // Still the owner's, and written through the view.
  EXPECT_EQ(owner[3], 7.0f);
  EXPECT_EQ(owner[5], -0.5f);
}
