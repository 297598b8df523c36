//===- WeightArguments.cpp - Weights handed to compiled code --------------===//

#include "WeightArguments.h"

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::gopt;

HoistedWeights mlir::gopt::hoistWeightsIntoArguments(func::FuncOp fn,
                                                     size_t minBytes) {
  // The constants to hoist and where their bytes go in the block.
  struct Hoisted {
    ConstantOp constant;
    ElementKind kind;
    llvm::ArrayRef<char> bytes;
    size_t offset;
  };
  std::vector<Hoisted> hoisted;
  size_t total = 0;
  for (ConstantOp constant : fn.getBody().getOps<ConstantOp>()) {
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    std::optional<ElementKind> kind =
        type ? getElementKind(type.getElementType()) : std::nullopt;
    if (!kind || *kind == ElementKind::I1 || !type.hasStaticShape())
      continue;
    llvm::ArrayRef<char> bytes = getRawConstantBytes(constant.getValue());
    size_t size = getElementBytes(*kind) * type.getNumElements();
    if (bytes.size() != size || size < minBytes)
      continue;
    hoisted.push_back({constant, *kind, bytes, total});
    total += (size + 63) / 64 * 64;
  }

  HoistedWeights weights;
  if (hoisted.empty())
    return weights;
  weights.storage = {allocateConstantStorage(total), std::free};
  if (!weights.storage)
    return weights; // No memory for them: they stay constants in the code.
  char *block = static_cast<char *>(weights.storage.get());
  MLIRContext *ctx = fn.getContext();
  NamedAttribute attrs[] = {
      NamedAttribute(
          StringAttr::get(
              ctx, bufferization::BufferizationDialect::kWritableAttrName),
          BoolAttr::get(ctx, false)),
      NamedAttribute(StringAttr::get(ctx, kWeightArgAttrName),
                     UnitAttr::get(ctx))};
  for (Hoisted &h : hoisted) {
    auto type = cast<RankedTensorType>(h.constant.getType());
    unsigned index = fn.getNumArguments();
    if (failed(fn.insertArgument(index, type, DictionaryAttr::get(ctx, attrs),
                                 h.constant.getLoc())))
      continue;
    std::memcpy(block + h.offset, h.bytes.data(), h.bytes.size());
    weights.tensors.push_back(HostTensor::borrow(
        h.kind,
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
        block + h.offset));
    h.constant.getResult().replaceAllUsesWith(fn.getArgument(index));
    h.constant.erase();
  }
  return weights;
}
