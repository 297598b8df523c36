//===- PassMeasurementTest.cpp - The per-pass record as a library API -----===//

#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Transforms/Passes.h"
#include "../Dialect/TestIR.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

constexpr const char *kGraph = R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.exp %x : tensor<4xf32>
  %b = gopt.neg %a : tensor<4xf32>
  %c = gopt.neg %b : tensor<4xf32>
  %dead = gopt.relu %c : tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.exp %x : tensor<4xf32>
  return %a : tensor<4xf32>
}
)mlir";

std::shared_ptr<MeasurementRecord> measure(TestIR &ir, ModuleOp module,
                                           bool nested) {
  auto record = std::make_shared<MeasurementRecord>();
  PassManager pm(&ir.context);
  pm.addInstrumentation(
      std::make_unique<PassMeasurementInstrumentation>(record));
  if (nested) {
    OpPassManager &fn = pm.nest<func::FuncOp>();
    fn.addPass(createGOptFold());
    fn.addPass(createGOptDCE());
  } else {
    pm.addPass(createGOptFold());
    pm.addPass(createGOptDCE());
    pm.addPass(createCSEPass());
  }
  EXPECT_TRUE(succeeded(pm.run(module)));
  record->finalize();
  return record;
}

TEST(PassMeasurement, RecordsEveryPassWithDeltas) {
  TestIR ir;
  auto module = ir.parse(kGraph);
  ASSERT_TRUE(module);
  auto record = measure(ir, *module, /*nested=*/false);
  ASSERT_TRUE(record->hasBaseline);
  EXPECT_EQ(record->baseline.numOps, 5);
  ASSERT_EQ(record->rows.size(), 3u);
  const PassRecord &fold = record->rows[0];
  EXPECT_EQ(fold.argument, "gopt-fold");
  EXPECT_TRUE(fold.changed);
  EXPECT_EQ(fold.opsRemoved, 1); // the second neg, replaced by %a
  EXPECT_EQ(fold.after.numOps, 4);
  const PassRecord &dce = record->rows[1];
  EXPECT_TRUE(dce.changed);
  EXPECT_EQ(dce.after.numOps, 2); // exp in @f, exp in @g
  const PassRecord &cse = record->rows[2];
  EXPECT_EQ(cse.argument, "cse");
  EXPECT_FALSE(cse.changed);
  EXPECT_EQ(record->final().numOps, 2);
  for (const PassRecord &row : record->rows) {
    EXPECT_EQ(row.depth, 0);
    EXPECT_EQ(row.parent, -1);
    EXPECT_GE(row.wallMs, 0);
  }
}

TEST(PassMeasurement, NestsFunctionPipelinesUnderTheirAdaptor) {
  TestIR ir;
  auto module = ir.parse(kGraph);
  ASSERT_TRUE(module);
  auto record = measure(ir, *module, /*nested=*/true);
  // The adaptor on the module, then fold and dce on @f, then on @g.
  ASSERT_EQ(record->rows.size(), 5u);
  EXPECT_EQ(record->rows[0].depth, 0);
  EXPECT_EQ(record->rows[0].opName, "builtin.module");
  std::vector<std::string> order;
  for (const PassRecord &row : llvm::drop_begin(record->rows)) {
    EXPECT_EQ(row.parent, 0);
    EXPECT_EQ(row.depth, 1);
    order.push_back(row.argument + "@" + row.opSymbol);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"gopt-fold@f", "gopt-dce@f",
                                             "gopt-fold@g", "gopt-dce@g"}));
  EXPECT_FALSE(record->rows[3].changed); // nothing to fold in @g
  EXPECT_EQ(record->rows[0].after.numOps, 2);
}

TEST(PassMeasurement, ParsesFormats) {
  EXPECT_EQ(parseMeasurementFormat("json"), MeasurementFormat::JSON);
  EXPECT_EQ(parseMeasurementFormat("trace"), MeasurementFormat::Trace);
  EXPECT_FALSE(parseMeasurementFormat("xml").has_value());
}

} // namespace
