//===- GOptDialect.cpp - GOpt dialect registration ------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CommutativityUtils.h"

using namespace mlir;
using namespace mlir::gopt;

#include "GOpt/Dialect/GOpt/IR/GOptOpsDialect.cpp.inc"

void GOptDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "GOpt/Dialect/GOpt/IR/GOptOps.cpp.inc"
      >();
}

Operation *GOptDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

/// Dialect-wide canonicalization: commutative operands are put in a canonical
/// order, so that `add(a, b)` and `add(b, a)` become one value under CSE.
void GOptDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  populateCommutativityUtilsPatterns(results);
}
