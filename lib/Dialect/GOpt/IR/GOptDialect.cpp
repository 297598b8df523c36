//===- GOptDialect.cpp - GOpt dialect registration ------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CommutativityUtils.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::gopt;

#include "GOpt/Dialect/GOpt/IR/GOptOpsDialect.cpp.inc"

namespace {
/// Every gopt op is pure and refers to nothing outside its operands, so calls
/// into graphs of gopt ops can always be inlined (gopt.fusion bodies are
/// isolated and move with their op).
struct GOptInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void GOptDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "GOpt/Dialect/GOpt/IR/GOptOps.cpp.inc"
      >();
  addInterfaces<GOptInlinerInterface>();
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
