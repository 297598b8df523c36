//===- LoopSpace.cpp - A tile loop's iterations, flattened ----------------===//

#include "LoopSpace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::gopt;

LoopSpace mlir::gopt::computeLoopSpace(OpBuilder &builder,
                                       scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  LoopSpace space;
  space.total = arith::ConstantIndexOp::create(builder, loc, 1);
  for (auto [lb, ub, step] : llvm::zip(
           loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    Value span = arith::SubIOp::create(builder, loc, ub, lb);
    Value extent = arith::CeilDivUIOp::create(builder, loc, span, step);
    space.extents.push_back(extent);
    space.total = arith::MulIOp::create(builder, loc, space.total, extent);
  }
  return space;
}

SmallVector<Value> mlir::gopt::delinearizeIteration(OpBuilder &builder,
                                                    Location loc, Value linear,
                                                    scf::ParallelOp loop,
                                                    ArrayRef<Value> extents) {
  unsigned rank = extents.size();
  SmallVector<Value> ivs(rank);
  Value rest = linear;
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value index = d == 0 ? rest
                         : arith::RemUIOp::create(builder, loc, rest,
                                                  extents[d])
                               .getResult();
    if (d != 0)
      rest = arith::DivUIOp::create(builder, loc, rest, extents[d]);
    Value scaled =
        arith::MulIOp::create(builder, loc, index, loop.getStep()[d]);
    ivs[d] = arith::AddIOp::create(builder, loc, loop.getLowerBound()[d],
                                   scaled);
  }
  return ivs;
}
