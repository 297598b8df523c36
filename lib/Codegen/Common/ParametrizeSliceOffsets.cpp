//===- ParametrizeSliceOffsets.cpp - Slice offsets as arguments ----------===//
//
// An unrolled recurrence reads step t's part of a tensor computed once for
// every step (an LSTM's input projection, [seq, batch, 4·hidden]) in a
// kernel per step that is the same but for where it slices: t. As a
// constant of each kernel, t makes every step's kernel a function of its
// own, lowered and compiled 64 times over. This pass gives kernels that
// differ only in the static offsets of slices of their arguments those
// offsets as index arguments, which their calls pass as constants; they are
// then the same function, and gopt-deduplicate-kernels merges them.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/KernelEquivalence.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTPARAMETRIZESLICEOFFSETS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Whether `slice` slices an argument of `kernel` at static offsets.
bool isArgumentSlice(tensor::ExtractSliceOp slice, func::FuncOp kernel) {
  auto source = dyn_cast<BlockArgument>(slice.getSource());
  return source && source.getOwner() == &kernel.getBody().front() &&
         slice.getOffsets().empty();
}

/// The slices of `kernel`'s arguments at static offsets, in walk order.
SmallVector<tensor::ExtractSliceOp> argumentSlices(func::FuncOp kernel) {
  SmallVector<tensor::ExtractSliceOp> slices;
  kernel.getBody().walk([&](tensor::ExtractSliceOp slice) {
    if (isArgumentSlice(slice, kernel))
      slices.push_back(slice);
  });
  return slices;
}

/// hashKernel with the offsets of its argument slices left out.
llvm::hash_code hashModuloOffsets(func::FuncOp kernel) {
  return hashKernel(kernel,
                    [&](Operation *op) -> std::optional<llvm::hash_code> {
                      auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
                      if (!slice || !isArgumentSlice(slice, kernel))
                        return std::nullopt;
                      return llvm::hash_combine(op->getName(), slice.getType(),
                                                slice.getStaticSizes(),
                                                slice.getStaticStrides());
                    });
}

/// Whether `a` and `b` are the same kernel once `b`'s argument slices take
/// `a`'s offsets (aligned in walk order).
bool isSameModuloOffsets(func::FuncOp a,
                         ArrayRef<tensor::ExtractSliceOp> aSlices,
                         func::FuncOp b,
                         ArrayRef<tensor::ExtractSliceOp> bSlices) {
  if (aSlices.size() != bSlices.size())
    return false;
  SmallVector<tensor::ExtractSliceOp> from(aSlices), to(bSlices);
  SmallVector<SmallVector<int64_t>> saved;
  for (auto [aSlice, bSlice] : llvm::zip_equal(from, to)) {
    if (aSlice.getStaticOffsets().size() != bSlice.getStaticOffsets().size())
      return false;
    saved.emplace_back(bSlice.getStaticOffsets());
  }
  for (auto [aSlice, bSlice] : llvm::zip_equal(from, to))
    bSlice.setStaticOffsets(aSlice.getStaticOffsets());
  bool same = isSameKernel(a, b);
  for (auto [bSlice, offsets] : llvm::zip_equal(to, saved))
    bSlice.setStaticOffsets(offsets);
  return same;
}

/// Kernels that are one function but for their argument slices' offsets,
/// with those slices aligned in walk order.
struct OffsetClass {
  SmallVector<func::FuncOp> kernels;
  SmallVector<SmallVector<tensor::ExtractSliceOp>> slices;
};

struct GOptParametrizeSliceOffsetsPass
    : gopt::impl::GOptParametrizeSliceOffsetsBase<
          GOptParametrizeSliceOffsetsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<KernelCalls> uses = collectKernelCalls(module);
    if (!uses)
      return;

    // Classes by hash, then by comparison, in module order.
    llvm::MapVector<llvm::hash_code, SmallVector<OffsetClass, 1>> byHash;
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!isMergeableKernel(kernel) ||
          uses->namedOtherwise.contains(kernel.getSymNameAttr()))
        continue;
      SmallVector<tensor::ExtractSliceOp> slices = argumentSlices(kernel);
      if (slices.empty())
        continue;
      SmallVector<OffsetClass, 1> &classes = byHash[hashModuloOffsets(kernel)];
      auto same = llvm::find_if(classes, [&](const OffsetClass &c) {
        return isSameModuloOffsets(c.kernels.front(), c.slices.front(), kernel,
                                   slices);
      });
      if (same == classes.end()) {
        classes.emplace_back();
        same = std::prev(classes.end());
      }
      same->kernels.push_back(kernel);
      same->slices.push_back(std::move(slices));
    }
    for (auto &[hash, classes] : byHash)
      for (OffsetClass &c : classes)
        if (c.kernels.size() > 1)
          parametrize(c, *uses);
  }

  /// Makes each offset that differs within `c` an index argument of every
  /// kernel of `c`, passed by its calls as a constant.
  void parametrize(OffsetClass &c, KernelCalls &uses) {
    // (slice, dim) pairs whose offset is not the same in every kernel.
    SmallVector<std::pair<unsigned, unsigned>> varying;
    auto offsetOf = [&](unsigned kernel, unsigned slice, unsigned dim) {
      tensor::ExtractSliceOp op = c.slices[kernel][slice];
      return op.getStaticOffsets()[dim];
    };
    for (unsigned i = 0, e = c.slices.front().size(); i < e; ++i) {
      tensor::ExtractSliceOp slice = c.slices.front()[i];
      for (unsigned d = 0, rank = slice.getStaticOffsets().size(); d < rank;
           ++d)
        for (unsigned k = 1; k < c.kernels.size(); ++k)
          if (offsetOf(k, i, d) != offsetOf(0, i, d)) {
            varying.push_back({i, d});
            break;
          }
    }
    if (varying.empty())
      return;
    for (auto [kernel, slices] : llvm::zip_equal(c.kernels, c.slices)) {
      Block &body = kernel.getBody().front();
      unsigned firstNew = kernel.getNumArguments();
      Location loc = kernel.getLoc();
      IndexType index = IndexType::get(&getContext());
      SmallVector<unsigned> positions;
      SmallVector<Type> types;
      SmallVector<DictionaryAttr> attrs;
      SmallVector<Location> locs;
      for (unsigned k = 0; k < varying.size(); ++k) {
        positions.push_back(firstNew);
        types.push_back(index);
        attrs.push_back(DictionaryAttr::get(&getContext()));
        locs.push_back(loc);
      }
      if (failed(kernel.insertArguments(positions, types, attrs, locs)))
        return signalPassFailure();
      // The constants each call passes, read before the slices change.
      SmallVector<int64_t> offsets;
      for (auto [i, d] : varying) {
        tensor::ExtractSliceOp slice = slices[i];
        offsets.push_back(slice.getStaticOffsets()[d]);
      }
      for (func::CallOp call : uses.calls.lookup(kernel.getSymNameAttr())) {
        OpBuilder builder(call);
        SmallVector<Value> values;
        for (int64_t offset : offsets)
          values.push_back(
              arith::ConstantIndexOp::create(builder, call.getLoc(), offset));
        call.getOperandsMutable().append(values);
      }
      // Each slice with its varying offsets read from the new arguments.
      for (auto [i, sliceRef] : llvm::enumerate(slices)) {
        tensor::ExtractSliceOp slice = sliceRef;
        SmallVector<OpFoldResult> mixed = slice.getMixedOffsets();
        bool changed = false;
        for (auto [k, pair] : llvm::enumerate(varying)) {
          if (pair.first != i)
            continue;
          mixed[pair.second] = body.getArgument(firstNew + k);
          changed = true;
        }
        if (!changed)
          continue;
        OpBuilder builder(slice);
        auto replacement = tensor::ExtractSliceOp::create(
            builder, slice.getLoc(), slice.getType(), slice.getSource(), mixed,
            slice.getMixedSizes(), slice.getMixedStrides());
        slice.replaceAllUsesWith(replacement.getResult());
        slice.erase();
      }
      ++numParametrized;
    }
  }
};

} // namespace
