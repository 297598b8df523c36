//===- WeightArguments.cpp - Weights handed to compiled code --------------===//

#include "WeightArguments.h"

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace mlir::gopt;

/// The row-major bytes of `value`, or none when they are not at hand as such
/// (a resource without its blob, an attribute kind without raw storage).
static std::optional<llvm::ArrayRef<char>> rawBytes(ElementsAttr value) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    if (!dense.isSplat())
      return dense.getRawData();
  return std::nullopt;
}

std::vector<HostTensor> mlir::gopt::hoistWeightsIntoArguments(func::FuncOp fn,
                                                              size_t minBytes) {
  std::vector<HostTensor> weights;
  SmallVector<ConstantOp> constants(fn.getBody().getOps<ConstantOp>());
  for (ConstantOp constant : constants) {
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    std::optional<ElementKind> kind =
        type ? getElementKind(type.getElementType()) : std::nullopt;
    if (!kind || *kind == ElementKind::I1 || !type.hasStaticShape())
      continue;
    std::optional<llvm::ArrayRef<char>> bytes = rawBytes(constant.getValue());
    HostTensor weight(*kind, std::vector<int64_t>(type.getShape().begin(),
                                                  type.getShape().end()));
    if (!bytes || bytes->size() != weight.getByteSize() ||
        weight.getByteSize() < minBytes)
      continue;
    std::memcpy(weight.getData(), bytes->data(), bytes->size());

    unsigned index = fn.getNumArguments();
    MLIRContext *ctx = fn.getContext();
    NamedAttribute attrs[] = {
        NamedAttribute(
            StringAttr::get(
                ctx, bufferization::BufferizationDialect::kWritableAttrName),
            BoolAttr::get(ctx, false)),
        NamedAttribute(StringAttr::get(ctx, kWeightArgAttrName),
                       UnitAttr::get(ctx))};
    if (failed(fn.insertArgument(index, type, DictionaryAttr::get(ctx, attrs),
                                 constant.getLoc())))
      continue;
    constant.getResult().replaceAllUsesWith(fn.getArgument(index));
    constant.erase();
    weights.push_back(std::move(weight));
  }
  return weights;
}
