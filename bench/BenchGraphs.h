//===- BenchGraphs.h - Generated graphs for compile-time benchmarks -*- C++ -*-===//
//
// A deterministic graph generator shared by the compile-time benchmarks.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_BENCH_BENCHGRAPHS_H
#define GOPT_BENCH_BENCHGRAPHS_H

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace gopt_bench {
using namespace mlir;
using namespace mlir::gopt;

/// Appends one block of 12 ops to the graph; returns the block's output.
inline Value appendBlock(OpBuilder &b, Location loc, Value x, Value w,
                         int64_t index) {
  auto type = cast<RankedTensorType>(x.getType());
  auto rowType = RankedTensorType::get({type.getDimSize(1)}, b.getF32Type());
  SmallVector<float> row;
  for (int64_t i = 0; i < rowType.getNumElements(); ++i)
    row.push_back(1.0f + 0.01f * static_cast<float>((index + i) % 7));
  // A constant subgraph: sqrt of a dense row folds to a constant.
  Value rowConst = ConstantOp::create(
      b, loc, DenseElementsAttr::get(rowType, ArrayRef<float>(row)));
  Value shift = SqrtOp::create(b, loc, rowConst);
  Value scale = ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(0.5f)));
  Value a = AddOp::create(b, loc, x, shift);
  Value m1 = MulOp::create(b, loc, a, scale);
  Value m2 = MulOp::create(b, loc, a, scale); // duplicate: CSE merges it
  Value r = ReluOp::create(b, loc, m1);
  ExpOp::create(b, loc, m2); // dead once nothing uses it
  Value y = AddOp::create(b, loc, r, m2);
  if (index % 4 == 3) {
    // A matmul with a bias + activation epilogue every fourth block.
    Value mm = MatmulOp::create(b, loc, y, w);
    Value bias = AddOp::create(b, loc, mm, shift);
    return TanhOp::create(b, loc, bias);
  }
  Value n = NegOp::create(b, loc, y);
  Value nn = NegOp::create(b, loc, n); // neg∘neg folds away
  return SigmoidOp::create(b, loc, nn);
}

inline OwningOpRef<ModuleOp> generateGraph(MLIRContext &context,
                                           int64_t targetOps) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  auto type = RankedTensorType::get({8, 8}, b.getF32Type());
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(
      b, loc, "graph", b.getFunctionType({type, type}, {type}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  Value x = entry->getArgument(0), w = entry->getArgument(1);
  for (int64_t i = 0; i * 12 < targetOps; ++i)
    x = appendBlock(b, loc, x, w, i);
  func::ReturnOp::create(b, loc, x);
  return module;
}

inline int64_t countOps(ModuleOp module) {
  int64_t n = 0;
  module.walk([&](Operation *) { ++n; });
  return n;
}

} // namespace gopt_bench

#endif // GOPT_BENCH_BENCHGRAPHS_H
