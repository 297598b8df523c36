//===- GOptFuseSliceInputs.cpp - Slices as views inside their reader ------===//
//
// A slice is a copy kernel when it is a kernel of its own, and a view
// (tensor.extract_slice of the kernel's argument) when it is inside the
// kernel that reads it. This pass moves chains of unit-step slices and
// reshapes that only feed one gopt.fusion into that fusion, and makes an
// op that is a kernel of its own and reads such a chain one fusion with it.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Transforms/FusionPlanner.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/BitVector.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFUSESLICEINPUTS
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

/// Whether `op` is a kernel that can read views in place: a fusion, or an
/// op that is a kernel of its own and not itself a view.
static bool readsViews(Operation *op) {
  return isKernelOp(op) && !isViewOp(op) && !isa<FusionOp>(op->getParentOp());
}

/// Whether every use of `v` is by a kernel that reads views in place, or by
/// a view whose result only such kernels read (through views).
static bool onlyKernelsRead(Value v) {
  return llvm::all_of(v.getUsers(), [](Operation *user) {
    return readsViews(user) ||
           (isViewOp(user) && onlyKernelsRead(user->getResult(0)));
  });
}

/// Gives each use of a view that only kernels read (onlyKernelsRead) a copy
/// of the view of its own, deepest views first, so that each kernel gets a
/// chain of its own to take in (K read by the scores and returned as a
/// cache, both through views of one slice of a QKV projection).
static void cloneSharedViews(Operation *root) {
  SmallVector<Operation *> views;
  root->walk([&](Operation *op) {
    if (isViewOp(op) && !isa<FusionOp>(op->getParentOp()))
      views.push_back(op);
  });
  for (Operation *view : llvm::reverse(views)) {
    Value result = view->getResult(0);
    if (result.hasOneUse() || result.use_empty() || !onlyKernelsRead(result))
      continue;
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : result.getUses())
      uses.push_back(&use);
    OpBuilder builder(view);
    for (OpOperand *use : ArrayRef(uses).drop_front())
      use->set(builder.clone(*view)->getResult(0));
  }
}

namespace {

struct GOptFuseSliceInputsPass
    : gopt::impl::GOptFuseSliceInputsBase<GOptFuseSliceInputsPass> {
  void runOnOperation() override {
    cloneSharedViews(getOperation());
    SmallVector<Operation *> readers;
    getOperation()->walk([&](Operation *op) {
      if (readsViews(op))
        readers.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : readers) {
      if (auto fusion = dyn_cast<FusionOp>(op)) {
        fuseSliceInputs(fusion);
        continue;
      }
      // An op that is a kernel of its own: one fusion with the chains it
      // reads (in program order: each chain's ops, then the op), placed
      // where the op is (its other operands may come after the chains).
      // An op nobody reads (dead code, with no gopt-dce before) is left
      // alone: a fusion must expose a value.
      if (op->use_empty())
        continue;
      SmallVector<Operation *> group;
      for (Value operand : op->getOperands()) {
        SmallVector<Operation *> chain = viewChain(operand, op->getBlock());
        group.append(chain.rbegin(), chain.rend());
      }
      if (group.empty())
        continue;
      for (Operation *member : group)
        member->moveBefore(op);
      numFused += llvm::count_if(
          group, [](Operation *member) { return isa<SliceOp>(member); });
      group.push_back(op);
      materializeFusionGroup(group, rewriter);
    }
  }

  void fuseSliceInputs(FusionOp fusion) {
    Block &body = fusion.getBodyBlock();
    unsigned numInputs = fusion->getNumOperands();
    llvm::BitVector replaced(numInputs);
    SmallVector<Operation *> dead;
    for (unsigned i = 0; i < numInputs; ++i) {
      SmallVector<Operation *> chain =
          viewChain(fusion->getOperand(i), fusion->getBlock());
      if (chain.empty())
        continue;
      // The chain's source as an input (the one already there, or a new
      // one), the chain cloned onto its block argument at the body's start.
      Value source = chain.back()->getOperand(0);
      BlockArgument sourceArg;
      for (unsigned j = 0; j < fusion->getNumOperands(); ++j)
        if (fusion->getOperand(j) == source && !replaced.test(j))
          sourceArg = body.getArgument(j);
      if (!sourceArg) {
        fusion->insertOperands(fusion->getNumOperands(), source);
        sourceArg = body.addArgument(source.getType(), source.getLoc());
        replaced.resize(fusion->getNumOperands());
      }
      OpBuilder builder = OpBuilder::atBlockBegin(&body);
      IRMapping mapping;
      mapping.map(source, sourceArg);
      for (Operation *op : llvm::reverse(chain))
        builder.clone(*op, mapping);
      body.getArgument(i).replaceAllUsesWith(
          mapping.lookup(chain.front()->getResult(0)));
      replaced.set(i);
      dead.append(chain.begin(), chain.end());
      numFused +=
          llvm::count_if(chain, [](Operation *op) { return isa<SliceOp>(op); });
    }
    if (replaced.none())
      return;
    body.eraseArguments(replaced);
    fusion->eraseOperands(replaced);
    for (Operation *op : dead)
      op->erase();
  }
};

} // namespace
