//===- ConstantEvaluatorTest.cpp - Evaluate gopt ops on constants ---------===//

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "TestIR.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

/// Evaluates the first op of type OpTy in `source` with its constant operands.
template <typename OpTy>
LogicalResult evaluateFirst(TestIR &ir, StringRef source, int64_t limit,
                            SmallVectorImpl<Attribute> &results) {
  auto module = ir.parse(source);
  if (!module)
    return failure();
  OpTy op = TestIR::first<OpTy>(*module);
  SmallVector<Attribute> operands;
  for (Value v : op->getOperands()) {
    Attribute attr;
    matchPattern(v, m_Constant(&attr));
    operands.push_back(attr);
  }
  return evaluateConstantOp(op, operands, limit, results);
}

std::vector<float> floats(Attribute attr) {
  std::vector<float> out;
  for (float f : cast<DenseElementsAttr>(attr).getValues<float>())
    out.push_back(f);
  return out;
}

TEST(ConstantEvaluator, BroadcastsBinaryOps) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<AddOp>(ir, R"mlir(
func.func @f() -> tensor<2x3xf32> {
  %a = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = gopt.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %c = gopt.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %c : tensor<2x3xf32>
})mlir",
                                             1024, results)));
  EXPECT_EQ(floats(results[0]),
            (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(ConstantEvaluator, LeavesDivisionByZero) {
  TestIR ir;
  SmallVector<Attribute> results;
  EXPECT_TRUE(failed(evaluateFirst<DivOp>(ir, R"mlir(
func.func @f() -> tensor<2xf32> {
  %a = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = gopt.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %c = gopt.div %a, %b : tensor<2xf32>
  return %c : tensor<2xf32>
})mlir",
                                          1024, results)));
}

TEST(ConstantEvaluator, KeepsNaNAndSignedZero) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<MaxOp>(ir, R"mlir(
func.func @f() -> tensor<3xf32> {
  %a = gopt.constant dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>
  %b = gopt.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %c = gopt.max %a, %b : tensor<3xf32>
  return %c : tensor<3xf32>
})mlir",
                                             1024, results)));
  std::vector<float> v = floats(results[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_FALSE(std::signbit(v[1]));
  EXPECT_EQ(v[2], 2.0f);
}

TEST(ConstantEvaluator, RespectsTheElementBound) {
  TestIR ir;
  const char *source = R"mlir(
func.func @f() -> tensor<2x2xf32> {
  %a = gopt.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = gopt.transpose %a perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  return %t : tensor<2x2xf32>
})mlir";
  SmallVector<Attribute> results;
  EXPECT_TRUE(failed(evaluateFirst<TransposeOp>(ir, source, 3, results)));
  ASSERT_TRUE(succeeded(evaluateFirst<TransposeOp>(ir, source, 4, results)));
  EXPECT_EQ(floats(results[0]), (std::vector<float>{1, 3, 2, 4}));
}

TEST(ConstantEvaluator, SplatsNeedNoBudget) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<ReduceOp>(ir, R"mlir(
func.func @f() -> tensor<8xf32> {
  %a = gopt.constant dense<2.0> : tensor<8x16xf32>
  %r = gopt.reduce sum %a axes = [1] : tensor<8x16xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
})mlir",
                                                /*limit=*/0, results)));
  auto dense = cast<DenseElementsAttr>(results[0]);
  EXPECT_TRUE(dense.isSplat());
  EXPECT_EQ(dense.getSplatValue<float>(), 32.0f);
}

TEST(ConstantEvaluator, GathersWithNegativeIndices) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<GatherOp>(ir, R"mlir(
func.func @f() -> tensor<2xi64> {
  %a = gopt.constant dense<[5, 6, 7]> : tensor<3xi64>
  %i = gopt.constant dense<[-1, 0]> : tensor<2xi64>
  %g = gopt.gather %a[%i] axis = 0 : tensor<3xi64>, tensor<2xi64> -> tensor<2xi64>
  return %g : tensor<2xi64>
})mlir",
                                                1024, results)));
  auto values = cast<DenseElementsAttr>(results[0]).getValues<int64_t>();
  EXPECT_EQ(std::vector<int64_t>(values.begin(), values.end()),
            (std::vector<int64_t>{7, 5}));
}

TEST(ConstantEvaluator, LargeResultsBecomeResources) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<BroadcastToOp>(ir, R"mlir(
func.func @f() -> tensor<100x2xf32> {
  %a = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = gopt.broadcast_to %a : tensor<2xf32> -> tensor<100x2xf32>
  return %b : tensor<100x2xf32>
})mlir",
                                                     1024, results)));
  EXPECT_TRUE(isa<DenseResourceElementsAttr>(results[0]));
}

/// A resource constant of `shape` whose element k holds k, as T.
template <typename T>
DenseResourceElementsAttr iotaResource(MLIRContext &context, Type element,
                                       ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, element);
  std::vector<T> values(type.getNumElements());
  for (size_t k = 0; k < values.size(); ++k)
    values[k] = static_cast<T>(k);
  ArrayRef<char> bytes(reinterpret_cast<const char *>(values.data()),
                       values.size() * sizeof(T));
  return DenseResourceElementsAttr::get(
      type, "iota",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint64_t)));
}

/// The elements of a constant moveConstant made, as T.
template <typename T> std::vector<T> elementsOf(ElementsAttr attr) {
  ArrayRef<char> raw;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    raw = resource.getRawHandle().getBlob()->getData();
  else
    raw = cast<DenseElementsAttr>(attr).getRawData();
  std::vector<T> out(raw.size() / sizeof(T));
  std::memcpy(out.data(), raw.data(), raw.size());
  return out;
}

/// What `perm` makes of a row-major iota of `shape`, element by element.
std::vector<int64_t> transposedIota(ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> perm) {
  int64_t rank = shape.size(), count = 1;
  for (int64_t d : shape)
    count *= d;
  std::vector<int64_t> out;
  SmallVector<int64_t> index(rank, 0); // in the result's dims
  for (int64_t k = 0; k < count; ++k) {
    int64_t source = 0;
    // Input dim perm[d] is at index[d]: accumulate row-major in the input.
    SmallVector<int64_t> inputIndex(rank);
    for (int64_t d = 0; d < rank; ++d)
      inputIndex[perm[d]] = index[d];
    for (int64_t d = 0; d < rank; ++d)
      source = source * shape[d] + inputIndex[d];
    out.push_back(source);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[perm[d]])
        break;
      index[d] = 0;
    }
  }
  return out;
}

TEST(ConstantEvaluator, MovesConstantsOfEveryElementWidth) {
  TestIR ir;
  Builder b(&ir.context);
  // NCHW to NHWC and back, a 3x3 kernel's OIHW to OHWI, and a permutation
  // with unit dims between the ones that move.
  struct Case {
    SmallVector<int64_t> shape, perm;
  };
  // Then transposes copied in tiles, whole and cut at the edges (a
  // linear's weight), and one whose contiguous dim stays innermost.
  for (const Case &c :
       {Case{{2, 3, 4, 5}, {0, 2, 3, 1}}, Case{{2, 4, 5, 3}, {0, 3, 1, 2}},
        Case{{4, 3, 3, 3}, {0, 2, 3, 1}},
        Case{{3, 1, 4, 1, 5}, {4, 1, 0, 3, 2}}, Case{{32, 48}, {1, 0}},
        Case{{37, 21}, {1, 0}}, Case{{3, 18, 33}, {2, 0, 1}},
        Case{{5, 17, 6}, {1, 0, 2}}}) {
    std::vector<int64_t> want = transposedIota(c.shape, c.perm);
    SmallVector<int64_t> resultShape;
    for (int64_t d : c.perm)
      resultShape.push_back(c.shape[d]);
    auto check = [&](auto zero, Type element) {
      using T = decltype(zero);
      auto value = iotaResource<T>(ir.context, element, c.shape);
      auto moved = moveConstant(
          value, RankedTensorType::get(resultShape, element), c.perm);
      ASSERT_TRUE(moved.has_value());
      EXPECT_EQ(moved->getShapedType().getShape(), ArrayRef(resultShape));
      std::vector<T> got = elementsOf<T>(*moved);
      ASSERT_EQ(got.size(), want.size());
      for (size_t k = 0; k < want.size(); ++k)
        ASSERT_EQ(got[k], static_cast<T>(want[k]))
            << "element " << k << " of " << sizeof(T) << "-byte elements";
    };
    check(uint8_t(), b.getIntegerType(8)); // iota and want wrap alike
    check(uint16_t(), b.getIntegerType(16));
    check(float(), b.getF32Type());
    check(int64_t(), b.getI64Type());
  }
}

TEST(ConstantEvaluator, MovedConstantsShareBlobsWhenBytesStayInOrder) {
  TestIR ir;
  Builder b(&ir.context);
  // A 1x1 convolution's weight, OIHW to OHWI: the same bytes.
  auto weight = iotaResource<float>(ir.context, b.getF32Type(), {8, 16, 1, 1});
  auto moved =
      moveConstant(weight, RankedTensorType::get({8, 1, 1, 16}, b.getF32Type()),
                   {0, 2, 3, 1});
  ASSERT_TRUE(moved.has_value());
  auto resource = dyn_cast<DenseResourceElementsAttr>(*moved);
  ASSERT_TRUE(resource);
  EXPECT_EQ(resource.getRawHandle().getBlob(), weight.getRawHandle().getBlob());
  EXPECT_EQ(elementsOf<float>(*moved), elementsOf<float>(weight));
  // A reshape too.
  auto reshaped =
      moveConstant(weight, RankedTensorType::get({128}, b.getF32Type()), {});
  ASSERT_TRUE(reshaped.has_value());
  EXPECT_EQ(cast<DenseResourceElementsAttr>(*reshaped).getRawHandle().getBlob(),
            weight.getRawHandle().getBlob());
  // A transpose that moves bytes gets a blob of its own.
  auto transposed =
      moveConstant(weight, RankedTensorType::get({16, 8, 1, 1}, b.getF32Type()),
                   {1, 0, 2, 3});
  ASSERT_TRUE(transposed.has_value());
  EXPECT_NE(
      cast<DenseResourceElementsAttr>(*transposed).getRawHandle().getBlob(),
      weight.getRawHandle().getBlob());
}

/// Constant storage is 64-byte aligned, and 2 MiB aligned from 2 MiB up
/// (where huge pages can back it); a blob in it is mutable and as large as
/// asked.
TEST(ConstantEvaluator, ConstantStorageIsAlignedForHugePages) {
  constexpr size_t kHugePage = size_t(2) << 20;
  for (size_t bytes : {size_t(1), size_t(4096), kHugePage - 1}) {
    void *data = allocateConstantStorage(bytes);
    ASSERT_TRUE(data);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 64, 0u) << bytes;
    std::free(data);
  }
  for (size_t bytes : {kHugePage, 3 * kHugePage + 5}) {
    void *data = allocateConstantStorage(bytes);
    ASSERT_TRUE(data);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kHugePage, 0u) << bytes;
    std::memset(data, 1, bytes);
    std::free(data);
  }
  AsmResourceBlob blob = allocateConstantBlob(kHugePage + 3);
  EXPECT_EQ(blob.getData().size(), kHugePage + 3);
  EXPECT_TRUE(blob.isMutable());
  blob.getMutableData().back() = 7;
  EXPECT_EQ(blob.getData().back(), 7);
}

/// A blob's bytes can be retained past the blob: a range inside it gives an
/// owner, one that leaves it or lies in other memory gives none, and the
/// block is freed (and forgotten) once the blob and every owner are gone.
TEST(ConstantEvaluator, BlobStorageCanBeRetained) {
  std::shared_ptr<const char> owner;
  const char *start;
  {
    AsmResourceBlob blob = allocateConstantBlob(256);
    start = blob.getData().data();
    blob.getMutableData()[100] = 42;
    EXPECT_TRUE(retainConstantStorage(start, 256));
    EXPECT_FALSE(retainConstantStorage(start + 8, 256));
    EXPECT_FALSE(retainConstantStorage(start - 64, 64));
    std::vector<char> elsewhere(256);
    EXPECT_FALSE(retainConstantStorage(elsewhere.data(), 16));
    owner = retainConstantStorage(start + 64, 64);
    ASSERT_TRUE(owner);
    EXPECT_EQ(owner.get(), start + 64);
  }
  // The blob is gone; its bytes are not.
  EXPECT_EQ(owner.get()[36], 42);
  owner.reset();
  EXPECT_FALSE(retainConstantStorage(start, 1));
}

TEST(ConstantEvaluator, IntegersWrapAtTheirWidth) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<AddOp>(ir, R"mlir(
func.func @f() -> tensor<3xi8> {
  %a = gopt.constant dense<[100, -100, 7]> : tensor<3xi8>
  %b = gopt.constant dense<[100, -100, 1]> : tensor<3xi8>
  %c = gopt.add %a, %b : tensor<3xi8>
  return %c : tensor<3xi8>
})mlir",
                                             1024, results)));
  auto values = cast<DenseElementsAttr>(results[0]).getValues<int8_t>();
  EXPECT_EQ(std::vector<int8_t>(values.begin(), values.end()),
            (std::vector<int8_t>{-56, 56, 8}));
  // Read as signed: a division sees -100, not 156.
  results.clear();
  ASSERT_TRUE(succeeded(evaluateFirst<DivOp>(ir, R"mlir(
func.func @f() -> tensor<3xi16> {
  %a = gopt.constant dense<[-100, 100, 7]> : tensor<3xi16>
  %b = gopt.constant dense<[3, -3, 2]> : tensor<3xi16>
  %c = gopt.div %a, %b : tensor<3xi16>
  return %c : tensor<3xi16>
})mlir",
                                             1024, results)));
  auto quotients = cast<DenseElementsAttr>(results[0]).getValues<int16_t>();
  EXPECT_EQ(std::vector<int16_t>(quotients.begin(), quotients.end()),
            (std::vector<int16_t>{-33, -33, 3}));
}

TEST(ConstantEvaluator, ReadsResourceOperandsAndSplatsEqualResults) {
  TestIR ir;
  Builder b(&ir.context);
  // A weight as the importer makes it (a blob), times zero: every result
  // element equal, so the result is a splat, not a blob of zeros.
  auto weight = iotaResource<float>(ir.context, b.getF32Type(), {10, 10});
  auto type = RankedTensorType::get({10, 10}, b.getF32Type());
  OpBuilder builder(&ir.context);
  auto module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module.getBody());
  Value w = ConstantOp::create(builder, module.getLoc(), weight);
  Value zero = ConstantOp::create(
      builder, module.getLoc(),
      DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()), 0.0f));
  auto mul = MulOp::create(builder, module.getLoc(), type, w, zero);
  auto add = AddOp::create(builder, module.getLoc(), type, w, w);
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateConstantOp(
      mul, {weight, cast<ConstantOp>(zero.getDefiningOp()).getValue()}, 1024,
      results)));
  auto splat = dyn_cast<DenseElementsAttr>(results[0]);
  ASSERT_TRUE(splat && splat.isSplat());
  EXPECT_EQ(splat.getSplatValue<float>(), 0.0f);
  // w + w: 2k at k, a blob like the weight.
  results.clear();
  ASSERT_TRUE(
      succeeded(evaluateConstantOp(add, {weight, weight}, 1024, results)));
  std::vector<float> got = elementsOf<float>(cast<ElementsAttr>(results[0]));
  ASSERT_EQ(got.size(), 100u);
  for (size_t k = 0; k < got.size(); ++k)
    EXPECT_EQ(got[k], 2.0f * k);
  // Over the bound, nothing is read: no result.
  results.clear();
  EXPECT_TRUE(failed(evaluateConstantOp(add, {weight, weight}, 99, results)));
  module->erase();
}

} // namespace
