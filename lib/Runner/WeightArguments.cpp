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
  // The constants to hoist and where their bytes go in the block, or the
  // blob storage they stay in.
  struct Hoisted {
    ConstantOp constant;
    ElementKind kind;
    llvm::ArrayRef<char> bytes;
    size_t offset;
    std::shared_ptr<const char> retained;
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
    // Bytes a graph pass wrote (moveConstant) are shared, not copied.
    std::shared_ptr<const char> retained =
        reinterpret_cast<uintptr_t>(bytes.data()) % 64 == 0
            ? retainConstantStorage(bytes.data(), bytes.size())
            : nullptr;
    hoisted.push_back({constant, *kind, bytes, total, retained});
    if (!retained)
      total += (size + 63) / 64 * 64;
  }

  HoistedWeights weights;
  if (hoisted.empty())
    return weights;
  if (total) {
    weights.storage = {allocateConstantStorage(total), std::free};
    if (!weights.storage)
      return weights; // No memory for them: they stay constants in the code.
  }
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
    void *data = const_cast<char *>(h.retained.get());
    if (h.retained) {
      weights.retained.push_back(std::move(h.retained));
    } else {
      data = block + h.offset;
      std::memcpy(data, h.bytes.data(), h.bytes.size());
    }
    weights.tensors.push_back(HostTensor::borrow(
        h.kind,
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
        data));
    h.constant.getResult().replaceAllUsesWith(fn.getArgument(index));
    h.constant.erase();
  }
  return weights;
}
