//===- FormAttentionKernels.cpp - Attention chains to one kernel op -------===//
//
// The first half of the attention kernel's library path (docs/Lowering.md,
// "Attention kernels"): in each function, an attention chain
// (include/GOpt/Transforms/AttentionChain.h) — the kernel gopt-fuse's
// `attention` made — becomes one `gopt.attention_kernel` on tensors, the
// transposes its products read folded into the op's permutations. After
// bufferization gopt-lower-library-contractions makes it a gopt_attention
// call.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/AttentionChain.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFORMATTENTIONKERNELS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// `v` as the attention kernel reads it: the value under the transposes
/// that only lead to it (in `block`, each read once), and the permutation
/// that reads the view from that value (dim i of the view is its dim
/// perm[i]), composed with `perm` (none: the identity). The transposes
/// looked through go into `dead`.
std::pair<Value, SmallVector<int64_t>>
readThroughTransposes(Value v, Block *block, SmallVector<Operation *> &dead,
                      SmallVector<int64_t> perm = {}) {
  int64_t rank = cast<ShapedType>(v.getType()).getRank();
  if (perm.empty())
    perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  while (auto transpose = v.getDefiningOp<TransposeOp>()) {
    if (transpose->getBlock() != block || !v.hasOneUse())
      break;
    ArrayRef<int64_t> t = transpose.getPerm();
    for (int64_t &p : perm)
      p = t[p];
    dead.push_back(transpose);
    v = transpose.getInput();
  }
  return {v, perm};
}

/// Replaces the chain `output` ends by one gopt.attention_kernel.
void formAttentionKernel(AttentionChain &chain, RewriterBase &rewriter) {
  MatmulOp output = chain.output;
  Block *block = output->getBlock();
  SmallVector<Operation *> dead = chain.ops();
  auto [query, queryPerm] = readThroughTransposes(chain.query(), block, dead);
  // Q's scaling is in the chain's scale: the kernel reads what it scaled,
  // through the transposes under it too.
  if (chain.queryScaling && query.getDefiningOp() == chain.queryScaling)
    std::tie(query, queryPerm) =
        readThroughTransposes(chain.unscaledQuery, block, dead, queryPerm);
  auto [key, keyPerm] =
      readThroughTransposes(chain.keyTransposed(), block, dead);
  auto [value, valuePerm] = readThroughTransposes(chain.value(), block, dead);

  rewriter.setInsertionPoint(output);
  auto resultType = cast<RankedTensorType>(output.getType());
  Location loc = output.getLoc();
  Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                       resultType.getElementType());
  auto kernel = AttentionKernelOp::create(
      rewriter, loc, TypeRange{resultType}, query, key, value, chain.mask, init,
      rewriter.getF32FloatAttr(static_cast<float>(chain.scale)),
      rewriter.getDenseI64ArrayAttr(queryPerm),
      rewriter.getDenseI64ArrayAttr(keyPerm),
      rewriter.getDenseI64ArrayAttr(valuePerm));
  rewriter.replaceAllUsesWith(output.getResult(), kernel.getResult()[0]);
  // Users first: the chain and the transposes it read through, all in one
  // block, backwards in program order (a transpose Q·Kᵀ read stays when
  // something else reads it too).
  llvm::sort(dead,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *op : dead)
    if (op->use_empty())
      rewriter.eraseOp(op);
}

struct GOptFormAttentionKernelsPass
    : gopt::impl::GOptFormAttentionKernelsBase<GOptFormAttentionKernelsPass> {
  void runOnOperation() override {
    SmallVector<AttentionChain> chains;
    getOperation()->walk([&](MatmulOp matmul) {
      if (std::optional<AttentionChain> chain = matchAttentionChain(matmul))
        chains.push_back(*chain);
    });
    IRRewriter rewriter(&getContext());
    for (AttentionChain &chain : chains) {
      formAttentionKernel(chain, rewriter);
      ++numKernels;
    }
    if (chains.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
