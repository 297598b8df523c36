//===- GOptDCE.cpp - Remove ops that cannot reach a function result -------===//

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTDCE
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// One backward sweep per block: users are visited before their producers,
/// so a dead subgraph disappears in a single pass, in linear time.
class DeadCodeEliminator {
public:
  DeadCodeEliminator(const llvm::StringSet<> &keep) : keep(keep) {}

  /// Blocks in reverse order, so users in later blocks go first.
  void sweepRegion(Region &region) {
    for (Block &block : llvm::make_early_inc_range(llvm::reverse(region)))
      sweep(block);
  }

  void sweep(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      if (isRemovable(&op)) {
        op.erase();
        ++erased;
        changed = true;
        continue;
      }
      if (auto fusion = dyn_cast<FusionOp>(op)) {
        pruneFusion(fusion);
        continue;
      }
      for (Region &region : op.getRegions())
        sweepRegion(region);
    }
  }

  bool changed = false;
  int64_t erased = 0;
  int64_t forwarded = 0;
  int64_t pruned = 0;

private:
  bool isRemovable(Operation *op) const {
    return !keep.contains(op->getName().getStringRef()) &&
           !keepsAnyNested(op) && isOpTriviallyDead(op);
  }

  bool keepsAnyNested(Operation *op) const {
    if (op->getNumRegions() == 0 || keep.empty())
      return false;
    bool found = false;
    op->walk([&](Operation *nested) {
      if (nested != op && keep.contains(nested->getName().getStringRef()))
        found = true;
    });
    return found;
  }

  /// Drops unused results (and the body ops that only fed them), then inputs
  /// the body no longer reads.
  void pruneFusion(FusionOp fusion) {
    Block &body = fusion.getBodyBlock();
    Operation *yield = body.getTerminator();
    // A result that only forwards an input is that input.
    for (OpResult r : fusion->getResults())
      if (auto arg = dyn_cast<BlockArgument>(
              yield->getOperand(r.getResultNumber()));
          arg && arg.getOwner() == &body && !r.use_empty()) {
        r.replaceAllUsesWith(fusion.getInputs()[arg.getArgNumber()]);
        ++forwarded;
        changed = true;
      }
    if (isRemovable(fusion)) {
      fusion.erase();
      ++erased;
      changed = true;
      return;
    }
    // A fusion kept for a kept op inside keeps its results: it must expose
    // at least one value.
    if (llvm::all_of(fusion->getResults(),
                     [](OpResult r) { return r.use_empty(); })) {
      sweep(body);
      return;
    }
    llvm::BitVector deadResults(fusion.getNumResults());
    for (OpResult r : fusion->getResults())
      if (r.use_empty())
        deadResults.set(r.getResultNumber());
    if (deadResults.any()) {
      yield->eraseOperands(deadResults);
      pruned += deadResults.count();
      changed = true;
    }
    sweep(body);
    llvm::BitVector deadInputs(body.getNumArguments());
    for (BlockArgument arg : body.getArguments())
      if (arg.use_empty())
        deadInputs.set(arg.getArgNumber());
    if (deadInputs.any()) {
      body.eraseArguments(deadInputs);
      fusion->eraseOperands(deadInputs);
      pruned += deadInputs.count();
      changed = true;
    }
    if (deadResults.none())
      return;
    // Results cannot be erased in place: rebuild the op with the live ones.
    IRRewriter rewriter(fusion);
    SmallVector<Value> live;
    for (OpResult r : fusion->getResults())
      if (!deadResults.test(r.getResultNumber()))
        live.push_back(r);
    auto replacement =
        FusionOp::create(rewriter, fusion.getLoc(), ValueRange(live).getTypes(),
                         fusion.getInputs());
    replacement->setAttrs(fusion->getAttrs());
    replacement.getBody().takeBody(fusion.getBody());
    for (auto [old, updated] : llvm::zip(live, replacement.getResults()))
      old.replaceAllUsesWith(updated);
    fusion.erase();
  }

  const llvm::StringSet<> &keep;
};

struct GOptDCEPass : gopt::impl::GOptDCEBase<GOptDCEPass> {
  using GOptDCEBase::GOptDCEBase;

  void runOnOperation() override {
    llvm::StringSet<> keep;
    for (const std::string &name : keepOps)
      keep.insert(name);
    DeadCodeEliminator eliminator(keep);
    for (Region &region : getOperation()->getRegions())
      eliminator.sweepRegion(region);
    numErased += eliminator.erased;
    numPrunedFusionValues += eliminator.pruned + eliminator.forwarded;
    if (!eliminator.changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
