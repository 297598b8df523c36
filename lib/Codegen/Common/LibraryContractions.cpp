//===- LibraryContractions.cpp - Contractions computed by sgemm -----------===//
//
// Which contraction generics sgemm computes, the patterns that mark them
// (and convolutions and poolings) on tensors, and the patterns that replace
// them on memrefs by calls of the runtime (lib/Runtime/Blas.cpp, Conv.cpp,
// Pool.cpp). The marks themselves, and the epilogue written in place, are in
// lib/Codegen/Common/LibraryCalls.cpp.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/Codegen/Common/BufferViews.h"
#include "GOpt/Codegen/Common/ConvolutionEpilogue.h"
#include "GOpt/Conversion/GOptToLinalg/GOptToLinalg.h"
#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gopt;

/// `v` with its multiplications by f32 constants stripped, their product
/// multiplied into `alpha`.
static Value stripConstantFactors(Value v, double &alpha) {
  while (auto mul = v.getDefiningOp<arith::MulFOp>()) {
    FloatAttr factor;
    if (matchPattern(mul.getRhs(), m_Constant(&factor)))
      v = mul.getLhs();
    else if (matchPattern(mul.getLhs(), m_Constant(&factor)))
      v = mul.getRhs();
    else
      break;
    alpha *= factor.getValueAsDouble();
  }
  return v;
}

/// The alpha of `op`'s body when it is `out + alpha · in0 · in1` (either
/// operand order, alpha the product of f32 constants multiplying either
/// input element or the product; 1 without), or none.
static std::optional<float> multiplyAccumulateAlpha(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getNumArguments() != 3)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues().size() == 1
                 ? yield.getValues()[0].getDefiningOp<arith::AddFOp>()
                 : nullptr;
  if (!add)
    return std::nullopt;
  Value acc = body.getArgument(2);
  if (add.getLhs() != acc && add.getRhs() != acc)
    return std::nullopt;
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  double alpha = 1.0;
  // The product's own factors first, then the multiplication of the two
  // inputs, each possibly scaled.
  auto mul =
      stripConstantFactors(product, alpha).getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  Value x = stripConstantFactors(mul.getLhs(), alpha);
  Value y = stripConstantFactors(mul.getRhs(), alpha);
  Value in0 = body.getArgument(0), in1 = body.getArgument(1);
  if (!((x == in0 && y == in1) || (x == in1 && y == in0)))
    return std::nullopt;
  // Nothing else in the body: an op off that path would end in one whose
  // result nothing reads (constants may sit in the body or outside it).
  for (Operation &inner : body.without_terminator())
    if (!isa<arith::MulFOp, arith::AddFOp, arith::ConstantOp>(inner) ||
        inner.getResult(0).use_empty())
      return std::nullopt;
  return static_cast<float>(alpha);
}

/// The loop dims a projected-permutation map reads, or none when the map is
/// not one.
static std::optional<SmallVector<unsigned>> mapDims(AffineMap map) {
  if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
    return std::nullopt;
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults())
    dims.push_back(cast<AffineDimExpr>(e).getPosition());
  return dims;
}

std::optional<SgemmLoops>
mlir::gopt::matchSgemmContraction(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  for (Value v : op->getOperands())
    if (!getElementTypeOrSelf(v.getType()).isF32())
      return std::nullopt;
  auto iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> reductions;
  for (auto [d, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::reduction)
      reductions.push_back(d);
  if (reductions.size() != 1)
    return std::nullopt;
  std::optional<float> alpha = multiplyAccumulateAlpha(op);
  if (!alpha)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto a = mapDims(maps[0]), b = mapDims(maps[1]), c = mapDims(maps[2]);
  if (!a || !b || !c)
    return std::nullopt;
  SgemmLoops loops;
  loops.alpha = *alpha;
  loops.k = reductions.front();
  // The result holds every parallel loop, n innermost.
  if (c->size() != op.getNumLoops() - 1 || c->size() < 2)
    return std::nullopt;
  auto has = [](ArrayRef<unsigned> dims, unsigned d) {
    return llvm::is_contained(dims, d);
  };
  loops.n = c->back();
  // m: the innermost other result dim that A reads and B does not (the
  // others, read by both, by one or by none, are batch dims).
  std::optional<unsigned> m;
  for (unsigned d : llvm::reverse(ArrayRef(*c).drop_back()))
    if (has(*a, d) && !has(*b, d)) {
      m = d;
      break;
    }
  if (!m)
    return std::nullopt;
  loops.m = *m;
  for (unsigned d : ArrayRef(*c).drop_back())
    if (d != loops.m)
      loops.batch.push_back(d);
  if (!has(*a, loops.k) || has(*a, loops.n) || !has(*b, loops.n) ||
      !has(*b, loops.k))
    return std::nullopt;
  return loops;
}

/// Whether every operand of `op` is an f32 tensor or memref.
static bool allF32(Operation *op) {
  return llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return getElementTypeOrSelf(t).isF32(); });
}

/// Whether `op` is a convolution gopt_conv2d (or gopt_conv2d_nhwc)
/// computes: an f32 `linalg.conv_2d_nchw_fchw` or `linalg.conv_2d_nhwc_fhwc`,
/// or the generic of a grouped one.
static bool isConvolutionForLibrary(Operation *op) {
  if (!allF32(op) || op->getNumResults() > 1)
    return false;
  if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcFhwcOp>(op))
    return true;
  return isa<linalg::GenericOp>(op) &&
         op->getAttrOfType<DictionaryAttr>(kGroupedConv2DAttrName);
}

/// The loop an operand's projected-permutation map reads innermost.
static unsigned innermostLoop(AffineMap map) {
  return cast<AffineDimExpr>(map.getResults().back()).getPosition();
}

bool mlir::gopt::hasGemmLayouts(ArrayRef<AffineMap> maps,
                                const SgemmLoops &loops) {
  std::pair<unsigned, unsigned> matrixDims[3] = {
      {loops.m, loops.k}, {loops.k, loops.n}, {loops.m, loops.n}};
  for (auto [map, dims] : llvm::zip(maps, matrixDims)) {
    unsigned innermost = innermostLoop(map);
    if (innermost != dims.first && innermost != dims.second)
      return false;
  }
  return true;
}

/// Whether A's innermost dim is k and B's is n: the layout the codegen path
/// vectorizes along n without strided reads.
static bool hasRowMajorOperands(linalg::GenericOp op, const SgemmLoops &loops) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return innermostLoop(maps[0]) == loops.k && innermostLoop(maps[1]) == loops.n;
}

namespace {

/// Marks an f32 contraction generic that sgemm computes with
/// `library_call = "gopt_sgemm"`.
struct MarkSgemmContraction : OpRewritePattern<linalg::GenericOp> {
  MarkSgemmContraction(MLIRContext *context, int64_t minFlops)
      : OpRewritePattern(context), minFlops(minFlops) {}
  int64_t minFlops;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SgemmLoops> loops;
    if (op.getLibraryCallAttr() || !(loops = matchSgemmContraction(op)) ||
        !hasGemmLayouts(op.getIndexingMapsArray(), *loops))
      return failure();
    // Small GEMMs in the row-major layout the generated loops vectorize
    // (A's rows along k, B's along n) stay generated; transposed operands
    // are read strided there and keep the library even when small.
    if (minFlops > 0 && hasRowMajorOperands(op, *loops)) {
      std::optional<int64_t> flops = gemmFlops(op, *loops);
      if (flops && *flops < minFlops)
        return failure();
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.setLibraryCallAttr(rewriter.getStringAttr(kSgemmLibraryCall));
    });
    return success();
  }
};

/// Marks an f32 convolution (plain or grouped) for `gopt_conv2d` and an
/// f32 max or sum pooling for `gopt_pool2d`.
struct MarkLibraryWindowedOp : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || isLibraryCall(op))
      return failure();
    StringRef callee;
    if (isConvolutionForLibrary(op))
      callee = kConv2DLibraryCall;
    else if (isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp,
                 linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp>(
                 op.getOperation()) &&
             allF32(op))
      callee = kPool2DLibraryCall;
    else
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op->setAttr(kLibraryCallAttrName, rewriter.getStringAttr(callee));
    });
    return success();
  }
};

/// Whether `v` is a buffer `memref.alloc` made in this function: it
/// aliases no other root (an argument, another allocation).
static bool isFreshAllocation(Value v) {
  return v.getDefiningOp<memref::AllocOp>() != nullptr;
}

/// Whether `op` may have an effect on a buffer whose root is `root` (with
/// `writesOnly`, a write or a free; else a read too): unknown effects may;
/// an effect on another root may unless one of the two is a fresh
/// allocation.
static bool mayAffect(Operation *op, Value root, bool writesOnly) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !isMemoryEffectFree(op);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](MemoryEffects::EffectInstance &effect) {
    if (writesOnly &&
        !isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
      return false;
    Value value = effect.getValue();
    if (!value)
      return true;
    Value affected = rootBuffer(value);
    return affected == root ||
           (!isFreshAllocation(root) && !isFreshAllocation(affected));
  });
}

/// Whether `op` may read, write or free a buffer whose root is `root`
/// (mayAffect). So the dealloc of a kernel's scratch buffer does not touch
/// the buffer its caller passed in for its result.
static bool mayTouch(Operation *op, Value root) {
  return mayAffect(op, root, /*writesOnly=*/false);
}

/// Whether `op` may write or free a buffer whose root is `root` (mayAffect).
static bool mayWrite(Operation *op, Value root) {
  return mayAffect(op, root, /*writesOnly=*/true);
}

/// The `linalg.fill` of `c` with a constant `accepts` takes, or of another
/// view of its buffer covering it whole (a reshape), before `op` with
/// nothing between that may touch that buffer (mayTouch); or null.
static linalg::FillOp
fillBefore(Operation *op, Value c,
           llvm::function_ref<bool(const APFloat &)> accepts) {
  SmallVector<Value> views = {c};
  while (auto reshape = views.back().getDefiningOp<memref::CollapseShapeOp>())
    views.push_back(reshape.getSrc());
  while (auto reshape = views.back().getDefiningOp<memref::ExpandShapeOp>())
    views.push_back(reshape.getSrc());
  Value root = rootBuffer(c);
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      Value target = fill.getOutputs()[0];
      FloatAttr value;
      if (fill.hasPureBufferSemantics() && llvm::is_contained(views, target) &&
          matchPattern(fill.getInputs()[0], m_Constant(&value)) &&
          accepts(value.getValue()))
        return fill;
    }
    if (isMemoryEffectFree(prev))
      continue;
    if (mayTouch(prev, root))
      return nullptr;
  }
  return nullptr;
}

/// The zero fill of `c` before `op` (fillBefore), or null.
static linalg::FillOp zeroFillBefore(Operation *op, Value c) {
  return fillBefore(op, c, [](const APFloat &v) { return v.isZero(); });
}

/// The declaration of `name`, a function with gopt_sgemm's signature, in
/// `module`, created when missing.
static func::FuncOp declareSgemm(PatternRewriter &rewriter, ModuleOp module,
                                 StringRef name) {
  Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  SmallVector<Type> args = {i64, i64, i64, i64, f32};
  for (int operand = 0; operand < 3; ++operand) {
    if (operand == 2)
      args.push_back(f32); // beta
    args.append({ptr, i64, i64, i64});
  }
  return declareRuntimeFunction(rewriter, module, name, args);
}

/// The declaration of `name`, gopt_cuda_sgemm_epilogue's signature:
/// gopt_sgemm's without beta (0), then the bias and the epilogue's code.
static func::FuncOp declareSgemmEpilogue(PatternRewriter &rewriter,
                                         ModuleOp module, StringRef name) {
  Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  SmallVector<Type> args = {i64, i64, i64, i64, f32};
  for (int operand = 0; operand < 3; ++operand)
    args.append({ptr, i64, i64, i64});
  args.append({ptr, rewriter.getI32Type()});
  return declareRuntimeFunction(rewriter, module, name, args);
}

/// Whether `v` is available at `conv` (a library op): it dominates `conv`, or
/// is computed by side-effect-free ops (views: the reshape of a bias) from
/// values that do, which are then appended to `toHoist` (operands first) to be
/// moved before `conv`.
static bool availableAt(Value v, Operation *conv, DominanceInfo &dominance,
                        SmallVectorImpl<Operation *> &toHoist) {
  if (dominance.properlyDominates(v, conv))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != conv->getBlock() ||
      def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  if (llvm::is_contained(toHoist, def))
    return true;
  for (Value operand : def->getOperands())
    if (!availableAt(operand, conv, dominance, toHoist))
      return false;
  toHoist.push_back(def);
  return true;
}

/// The first op after `op` (a library op) that may touch the buffer `root`,
/// when it is a generic on buffers that `isMarked` accepts; the ops passed
/// on the way (which touch other buffers) in `between`. Null otherwise.
static linalg::GenericOp
markedEpilogueAfter(Operation *op, Value root,
                    llvm::function_ref<bool(Operation *)> isMarked,
                    SmallVectorImpl<Operation *> &between) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    auto generic = dyn_cast<linalg::GenericOp>(next);
    if (generic && isMarked(generic))
      return generic.hasPureBufferSemantics() && generic.getNumDpsInits() == 1
                 ? generic
                 : nullptr;
    if (isMemoryEffectFree(next))
      continue;
    if (mayTouch(next, root))
      return nullptr;
    between.push_back(next);
  }
  return nullptr;
}

/// Whether the library call made in place of `op`, which writes the buffer
/// `root`, can read the epilogue operand `v`: a contiguous static buffer of
/// its own, ready at `op` (availableAt, the views to move in `toHoist`),
/// that none of the ops `between` `op` and the epilogue writes.
static bool isReadableAt(Value v, Operation *op, Value root,
                         ArrayRef<Operation *> between,
                         SmallVectorImpl<Operation *> &toHoist) {
  auto type = dyn_cast<MemRefType>(v.getType());
  Value operandRoot = rootBuffer(v);
  DominanceInfo dominance(op->getParentOp());
  return type && memref::isStaticShapeAndContiguousRowMajor(type) &&
         operandRoot != root && availableAt(v, op, dominance, toHoist) &&
         llvm::none_of(between,
                       [&](Operation *o) { return mayWrite(o, operandRoot); });
}

/// The epilogue marked for the GEMM `op` (kSgemmEpilogueLibraryCall) that
/// overwrites the buffer of its result `c` (or a reshape of it) with a
/// bias (or a bias and a ReLU) the call can read (isReadableAt, the views
/// to move before `op` in `toHoist`); the bias in `bias`, the epilogue's
/// code in `code`. Null otherwise.
static linalg::GenericOp
gemmEpilogueAfter(Operation *op, Value c, Value &bias, int32_t &code,
                  SmallVectorImpl<Operation *> &toHoist) {
  Value root = rootBuffer(c);
  SmallVector<Operation *> between;
  linalg::GenericOp generic =
      markedEpilogueAfter(op, root, isLibrarySgemmEpilogue, between);
  if (!generic || rootBuffer(generic.getDpsInitOperand(0)->get()) != root)
    return nullptr;
  std::optional<SmallVector<EpilogueStep>> steps =
      matchChannelEpilogue(generic, generic.getDpsInitOperand(0));
  std::optional<int32_t> epilogue =
      steps ? getGemmEpilogueCode(*steps) : std::nullopt;
  if (!epilogue ||
      !isReadableAt((*steps)[0].operand->get(), op, root, between, toHoist))
    return nullptr;
  bias = (*steps)[0].operand->get();
  code = *epilogue;
  return generic;
}

/// The epilogue marked for the convolution `conv` that writes `output`,
/// which the call made in place of `conv` can apply: a marked generic that
/// overwrites `output` with a chain of steps (set in `steps`) whose
/// operands the call can read (isReadableAt, the views to move before
/// `conv` in `toHoist`); or null.
static linalg::GenericOp
epilogueAfter(Operation *conv, Value output,
              std::optional<SmallVector<EpilogueStep>> &steps,
              SmallVectorImpl<Operation *> &toHoist) {
  Value root = rootBuffer(output);
  SmallVector<Operation *> between;
  linalg::GenericOp generic =
      markedEpilogueAfter(conv, root, isLibraryConvolutionEpilogue, between);
  if (!generic || generic.getDpsInitOperand(0)->get() != output)
    return nullptr;
  steps = matchConvolutionEpilogue(generic, generic.getDpsInitOperand(0));
  if (!steps)
    return nullptr;
  for (const EpilogueStep &step : *steps)
    if (step.operand &&
        !isReadableAt(step.operand->get(), conv, root, between, toHoist))
      return nullptr;
  return generic;
}

/// The static element stride of memref operand `operand` of `op` along
/// loop `d` (0 when it does not read `d`), or none when its layout is not
/// static.
static std::optional<int64_t> staticLoopStride(linalg::GenericOp op,
                                               OpOperand &operand, unsigned d) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [j, e] : llvm::enumerate(map.getResults()))
    if (cast<AffineDimExpr>(e).getPosition() == d)
      return ShapedType::isDynamic(strides[j]) ? std::nullopt
                                               : std::optional(strides[j]);
  return 0;
}

/// Whether each call made for `op` multiplies one B by the rows of all its
/// batches, one after the other in A and C (what gopt_cuda_sgemm_epilogue
/// takes: one GEMM of batch·m rows), provably from static layouts: no
/// batch, or along the call's batch loop, B's stride 0 and A's and C's m
/// times their row stride.
static bool batchesAreRowsStatically(linalg::GenericOp op,
                                     const SgemmLoops &loops) {
  if (loops.batch.empty())
    return true;
  unsigned d = loops.batch.back();
  std::optional<int64_t> m = op.getStaticLoopRanges()[loops.m];
  if (!m || ShapedType::isDynamic(*m))
    return false;
  auto stride = [&](unsigned operand, unsigned loop) {
    return staticLoopStride(op, op->getOpOperand(operand), loop);
  };
  std::optional<int64_t> bBatch = stride(1, d);
  if (!bBatch || *bBatch != 0)
    return false;
  for (unsigned operand : {0u, 2u}) {
    std::optional<int64_t> batch = stride(operand, d),
                           row = stride(operand, loops.m);
    if (!batch || !row || *batch != *m * *row)
      return false;
  }
  return true;
}

/// One operand of the call: the address of its first element (index) and
/// its element stride along every loop (0 along loops it does not read).
struct CallOperand {
  Value address;
  SmallVector<Value> strides;
};

/// A marked contraction on memrefs → loops over all batch dims but the
/// innermost, and in them one call of `callee` (gopt_sgemm's signature) over
/// the innermost batch dim.
struct LowerSgemmContractionToCall : OpRewritePattern<linalg::GenericOp> {
  LowerSgemmContractionToCall(MLIRContext *context, StringRef callee,
                              StringRef epilogueCallee)
      : OpRewritePattern(context), callee(callee.str()),
        epilogueCallee(epilogueCallee.str()) {}
  std::string callee;
  /// The function a GEMM and its marked epilogue become one call of; none
  /// when empty.
  std::string epilogueCallee;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isLibrarySgemm(op) || !op.hasPureBufferSemantics())
      return failure();
    std::optional<SgemmLoops> loops = matchSgemmContraction(op);
    auto module = op->getParentOfType<ModuleOp>();
    if (!loops || !module)
      return failure();
    Location loc = op.getLoc();
    Value c = op.getDpsInitOperand(0)->get();
    linalg::FillOp zeroFill = zeroFillBefore(op, c);
    // A marked epilogue: applied by the call when it overwrites the zeroed
    // result and the batches are one GEMM of all their rows (cuBLASLt's
    // bias takes no other batch); otherwise computed by the loops (its
    // mark removed).
    Value bias;
    int32_t epilogueCode = 0;
    SmallVector<Operation *> toHoist;
    linalg::GenericOp epilogue =
        gemmEpilogueAfter(op, c, bias, epilogueCode, toHoist);
    if (epilogue && (epilogueCallee.empty() || !zeroFill ||
                     !batchesAreRowsStatically(op, *loops))) {
      rewriter.modifyOpInPlace(
          epilogue, [&] { epilogue->removeAttr(kLibraryCallAttrName); });
      epilogue = nullptr;
    }
    if (epilogue)
      for (Operation *view : toHoist)
        rewriter.moveOpBefore(view, op);
    func::FuncOp function =
        epilogue ? declareSgemmEpilogue(rewriter, module, epilogueCallee)
                 : declareSgemm(rewriter, module, callee);
    float beta = 1.0f;
    if (zeroFill) {
      rewriter.eraseOp(zeroFill);
      beta = 0.0f;
    }

    // Addresses, strides and loop sizes from each operand's metadata.
    unsigned numLoops = op.getNumLoops();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value elemBytes = arith::ConstantIndexOp::create(rewriter, loc, 4);
    SmallVector<Value> loopSizes(numLoops);
    SmallVector<CallOperand> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      auto meta = memref::ExtractStridedMetadataOp::create(rewriter, loc, v);
      Value aligned =
          memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, v);
      CallOperand call;
      call.address = arith::AddIOp::create(
          rewriter, loc, aligned,
          arith::MulIOp::create(rewriter, loc, meta.getOffset(), elemBytes));
      call.strides.assign(numLoops, zero);
      AffineMap map = op.getMatchingIndexingMap(&operand);
      for (auto [j, e] : llvm::enumerate(map.getResults())) {
        unsigned d = cast<AffineDimExpr>(e).getPosition();
        call.strides[d] = meta.getStrides()[j];
        loopSizes[d] = meta.getSizes()[j];
      }
      operands.push_back(std::move(call));
    }

    // Loops over the outer batch dims; the innermost one is the call's.
    ArrayRef<unsigned> batch = loops->batch;
    ArrayRef<unsigned> outer =
        batch.empty() ? ArrayRef<unsigned>() : batch.drop_back();
    SmallVector<Value> lbs(outer.size(), zero), steps(outer.size(), one), ubs;
    for (unsigned d : outer)
      ubs.push_back(loopSizes[d]);
    scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Type i64 = b.getI64Type();
          auto toI64 = [&](Value index) -> Value {
            return arith::IndexCastOp::create(b, l, i64, index);
          };
          auto f32 = [&](float v) -> Value {
            return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v));
          };
          Value batchCount = batch.empty() ? one : loopSizes[batch.back()];
          SmallVector<Value> args = {
              toI64(batchCount), toI64(loopSizes[loops->m]),
              toI64(loopSizes[loops->n]), toI64(loopSizes[loops->k]),
              f32(loops->alpha)};
          // A is [m, k], B is [k, n], C is [m, n].
          std::pair<unsigned, unsigned> matrixDims[3] = {
              {loops->m, loops->k}, {loops->k, loops->n}, {loops->m, loops->n}};
          for (auto [i, call] : llvm::enumerate(operands)) {
            Value address = call.address;
            for (auto [iv, d] : llvm::zip(ivs, outer)) {
              Value step =
                  arith::MulIOp::create(b, l, call.strides[d], elemBytes);
              address = arith::AddIOp::create(
                  b, l, address, arith::MulIOp::create(b, l, iv, step));
            }
            if (i == 2 && !epilogue)
              args.push_back(f32(beta));
            args.push_back(indexToPointer(b, l, address));
            args.push_back(
                toI64(batch.empty() ? zero : call.strides[batch.back()]));
            args.push_back(toI64(call.strides[matrixDims[i].first]));
            args.push_back(toI64(call.strides[matrixDims[i].second]));
          }
          if (epilogue) {
            // One bias for every batch: it runs along n only.
            args.push_back(firstElementPointer(b, l, bias));
            args.push_back(arith::ConstantOp::create(
                b, l, b.getI32IntegerAttr(epilogueCode)));
          }
          func::CallOp::create(b, l, function, args);
        });
    if (epilogue)
      rewriter.eraseOp(epilogue);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The declaration of `gopt_conv2d` in `module`, or (`channelsLast`) of
/// `gopt_conv2d_nhwc`, which also takes the input's zero padding (four i64
/// after `groups`) and the epilogue (its step count, then pointers to the
/// kinds, the parameters and the operands); created when missing.
static func::FuncOp declareConv2D(PatternRewriter &rewriter, ModuleOp module,
                                  bool channelsLast) {
  Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  // sizes, strides, dilations, groups (and padding)
  SmallVector<Type> args(channelsLast ? 18 : 14, i64);
  args.append({ptr, ptr, i64, f32, ptr});
  if (channelsLast)
    args.append({i64, ptr, ptr, ptr});
  return declareRuntimeFunction(
      rewriter, module,
      channelsLast ? kConv2DChannelsLastLibraryCall : kConv2DLibraryCall, args);
}

/// Whether `v` is a static, contiguous, row-major 4-D memref (what the
/// runtime's convolution and pooling read and write).
static bool isContiguousStatic4D(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getRank() == 4 &&
         memref::isStaticShapeAndContiguousRowMajor(type);
}

/// The padding lowered in front of a channels-last convolution or pooling,
/// on buffers: `padded` is a fresh allocation that a `linalg.map` or
/// `linalg.fill` sets to the padding value (zero for a convolution, the
/// reduction's identity for a pooling), then a `memref.copy` fills an
/// interior view (offset only along H and W) from `source`, and nothing
/// else but `conv` (and its deallocation) uses it. The runtime can then read
/// `source` and pad as it reads: the fill, the copy and the buffer go.
struct PaddedInput {
  Value source;
  int64_t top, left, bottom, right;
  /// The fill, the copy and the view, erased once the call reads `source`.
  SmallVector<Operation *> steps;
};

static std::optional<PaddedInput>
matchPaddedInput(Value padded, Operation *conv,
                 llvm::function_ref<bool(Value)> isPadValue) {
  auto alloc = padded.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape() ||
      alloc.getType().getRank() != 4 || alloc->getBlock() != conv->getBlock())
    return std::nullopt;
  Operation *fill = nullptr;
  memref::SubViewOp view;
  for (Operation *user : alloc->getUsers()) {
    if (user == conv || isa<memref::DeallocOp>(user))
      continue;
    if (auto map = dyn_cast<linalg::MapOp>(user)) {
      auto yield = cast<linalg::YieldOp>(map.getMapper().front().back());
      if (fill || !map.getInputs().empty() || map.getInit() != padded ||
          yield.getNumOperands() != 1 || !isPadValue(yield.getOperand(0)))
        return std::nullopt;
      fill = map;
      continue;
    }
    if (auto f = dyn_cast<linalg::FillOp>(user)) {
      if (fill || f.getOutputs().front() != padded ||
          !isPadValue(f.getInputs().front()))
        return std::nullopt;
      fill = f;
      continue;
    }
    if (auto v = dyn_cast<memref::SubViewOp>(user)) {
      if (view)
        return std::nullopt;
      view = v;
      continue;
    }
    return std::nullopt;
  }
  if (!fill || !view || !view->hasOneUse())
    return std::nullopt;
  auto copy = dyn_cast<memref::CopyOp>(*view->user_begin());
  if (!copy || copy.getTarget() != view.getResult() ||
      !isContiguousStatic4D(copy.getSource()) ||
      fill->getBlock() != conv->getBlock() ||
      copy->getBlock() != conv->getBlock() || !fill->isBeforeInBlock(copy) ||
      !copy->isBeforeInBlock(conv))
    return std::nullopt;
  // Channels last: the interior starts at [0, top, left, 0].
  ArrayRef<int64_t> offsets = view.getStaticOffsets(),
                    sizes = view.getStaticSizes(),
                    strides = view.getStaticStrides();
  ArrayRef<int64_t> full = alloc.getType().getShape();
  if (llvm::any_of(offsets, ShapedType::isDynamic) ||
      llvm::any_of(sizes, ShapedType::isDynamic) ||
      llvm::any_of(strides, [](int64_t s) { return s != 1; }) ||
      offsets[0] != 0 || offsets[3] != 0 || sizes[0] != full[0] ||
      sizes[3] != full[3])
    return std::nullopt;
  // The source must still hold what was copied when the convolution reads
  // (loops count by what their bodies touch: the bias written into the
  // output before the call is a loop of vector writes).
  Value sourceRoot = rootBuffer(copy.getSource());
  auto touches = [&](Operation *op) {
    bool touched = false;
    op->walk([&](Operation *nested) {
      if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return;
      touched |= mayTouch(nested, sourceRoot) || mayTouch(nested, padded);
    });
    return touched;
  };
  for (Operation *op = copy->getNextNode(); op && op != conv;
       op = op->getNextNode())
    if (touches(op))
      return std::nullopt;
  // Nor may the call write where it would then read: bufferization may put
  // the result into the source's buffer, dead once it was copied (a fused
  // kernel transposing its input, then convolving it).
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(conv))
    for (Value init : dps.getDpsInits())
      if (rootBuffer(init) == sourceRoot)
        return std::nullopt;
  return PaddedInput{copy.getSource(),
                     offsets[1],
                     offsets[2],
                     full[1] - offsets[1] - sizes[1],
                     full[2] - offsets[2] - sizes[2],
                     {fill, copy, view}};
}

/// The padding arguments of a channels-last call (top, left, bottom,
/// right): the matched padding, or none.
static SmallVector<int64_t, 4>
paddingArguments(const std::optional<PaddedInput> &padding) {
  if (!padding)
    return {0, 0, 0, 0};
  return {padding->top, padding->left, padding->bottom, padding->right};
}

/// Erases the padding the runtime now does: the copy, then its view, then
/// the fill; the buffer, unread once its reader is gone, with its
/// deallocation.
static void erasePadding(PatternRewriter &rewriter, const PaddedInput &padding,
                         Value padded) {
  for (Operation *step : padding.steps)
    rewriter.eraseOp(step);
  Operation *alloc = padded.getDefiningOp();
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    rewriter.eraseOp(user);
  rewriter.eraseOp(alloc);
}

/// Whether the buffer `v` views is an argument of its function marked
/// `gopt.weight`.
static bool isConstantWeight(Value v) {
  auto arg = dyn_cast<BlockArgument>(rootBuffer(v));
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && func.getArgAttr(arg.getArgNumber(), kWeightArgAttrName);
}

/// The epilogue arguments of gopt_conv2d_nhwc for `steps` (none: no steps):
/// the step count and pointers to stack arrays of the kinds, the parameter
/// pairs and the operand addresses (0 for unary steps).
static SmallVector<Value> epilogueArguments(OpBuilder &b, Location loc,
                                            ArrayRef<EpilogueStep> steps) {
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value count = arith::ConstantOp::create(
      b, loc, b.getI64IntegerAttr(static_cast<int64_t>(steps.size())));
  if (steps.empty()) {
    Value null = LLVM::ZeroOp::create(b, loc, ptrType);
    return {count, null, null, null};
  }
  int64_t n = static_cast<int64_t>(steps.size());
  auto kinds =
      memref::AllocaOp::create(b, loc, MemRefType::get({n}, b.getI64Type()));
  auto params = memref::AllocaOp::create(
      b, loc, MemRefType::get({2 * n}, b.getF32Type()));
  auto operands =
      memref::AllocaOp::create(b, loc, MemRefType::get({n}, b.getIndexType()));
  auto index = [&](int64_t i) -> Value {
    return arith::ConstantIndexOp::create(b, loc, i);
  };
  auto f32 = [&](float v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  };
  for (auto [i, step] : llvm::enumerate(steps)) {
    int64_t k = static_cast<int64_t>(i);
    memref::StoreOp::create(
        b, loc,
        arith::ConstantOp::create(
            b, loc, b.getI64IntegerAttr(static_cast<int64_t>(step.kind))),
        kinds, index(k));
    memref::StoreOp::create(b, loc, f32(step.alpha), params, index(2 * k));
    memref::StoreOp::create(b, loc, f32(step.beta), params, index(2 * k + 1));
    Value address = step.operand
                        ? firstElementAddress(b, loc, step.operand->get())
                        : index(0);
    memref::StoreOp::create(b, loc, address, operands, index(k));
  }
  auto pointer = [&](Value buffer) {
    return indexToPointer(
        b, loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
  };
  return {count, pointer(kinds), pointer(params), pointer(operands)};
}

/// A marked convolution on contiguous, static NCHW / FCHW / NCHW memrefs →
/// one `gopt_conv2d` call (its input is already padded); on NHWC / FHWC /
/// NHWC ones → one `gopt_conv2d_nhwc` call, which reads the unpadded input
/// when the padding before it is the zero fill and copy the lowering makes
/// (matchPaddedInput), and the padded buffer otherwise, and applies the
/// marked epilogue after it, which goes (epilogueAfter).
struct LowerConvolutionToCall : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isLibraryConvolution(op) || !op.hasPureBufferSemantics() ||
        op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return failure();
    Value input = op.getDpsInputOperand(0)->get();
    Value weight = op.getDpsInputOperand(1)->get();
    Value output = op.getDpsInitOperand(0)->get();
    if (!llvm::all_of(ValueRange{input, weight, output}, isContiguousStatic4D))
      return failure();
    SmallVector<int64_t> strides, dilations;
    int64_t groups = 1;
    bool channelsLast = false;
    bool named =
        llvm::TypeSwitch<Operation *, bool>(op.getOperation())
            .Case<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcFhwcOp>(
                [&](auto conv) {
                  strides = llvm::to_vector(
                      conv.getStrides().template getValues<int64_t>());
                  dilations = llvm::to_vector(
                      conv.getDilations().template getValues<int64_t>());
                  channelsLast =
                      isa<linalg::Conv2DNhwcFhwcOp>(op.getOperation());
                  return true;
                })
            .Default(false);
    if (!named) {
      auto info = op->getAttrOfType<DictionaryAttr>(kGroupedConv2DAttrName);
      auto g = info ? info.getAs<IntegerAttr>("groups") : IntegerAttr();
      auto s =
          info ? info.getAs<DenseI64ArrayAttr>("strides") : DenseI64ArrayAttr();
      auto d = info ? info.getAs<DenseI64ArrayAttr>("dilations")
                    : DenseI64ArrayAttr();
      if (!g || !s || !d)
        return failure();
      groups = g.getInt();
      channelsLast = static_cast<bool>(info.get("channels_last"));
      strides.assign(s.asArrayRef().begin(), s.asArrayRef().end());
      dilations.assign(d.asArrayRef().begin(), d.asArrayRef().end());
    }
    if (strides.size() != 2 || dilations.size() != 2)
      return failure();
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return failure();
    // A channels-last convolution reads its unpadded input and pads as it
    // reads.
    std::optional<PaddedInput> padding;
    if (channelsLast)
      padding = matchPaddedInput(
          input, op, [](Value v) { return matchPattern(v, m_AnyZeroFloat()); });
    func::FuncOp callee = declareConv2D(rewriter, module, channelsLast);
    Location loc = op.getLoc();
    float beta = 1.0f;
    if (linalg::FillOp fill = zeroFillBefore(op, output)) {
      rewriter.eraseOp(fill);
      beta = 0.0f;
    }
    auto i64 = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI64IntegerAttr(v));
    };
    ArrayRef<int64_t> in = cast<MemRefType>(input.getType()).getShape();
    ArrayRef<int64_t> w = cast<MemRefType>(weight.getType()).getShape();
    ArrayRef<int64_t> out = cast<MemRefType>(output.getType()).getShape();
    if (padding) {
      input = padding->source;
      in = cast<MemRefType>(input.getType()).getShape();
    }
    // Sizes as (n, c, h, w), (f, kh, kw), (oh, ow) in either layout.
    unsigned c = channelsLast ? 3 : 1, h = channelsLast ? 1 : 2, wd = h + 1;
    SmallVector<Value> args;
    for (int64_t v : {in[0], in[c], in[h], in[wd], w[0], w[h], w[wd], out[h],
                      out[wd], strides[0], strides[1], dilations[0],
                      dilations[1], groups})
      args.push_back(i64(v));
    if (channelsLast)
      for (int64_t v : paddingArguments(padding))
        args.push_back(i64(v));
    args.push_back(firstElementPointer(rewriter, loc, input));
    args.push_back(firstElementPointer(rewriter, loc, weight));
    args.push_back(i64(isConstantWeight(weight) ? 1 : 0));
    args.push_back(arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getF32FloatAttr(beta)));
    args.push_back(firstElementPointer(rewriter, loc, output));
    std::optional<SmallVector<EpilogueStep>> steps;
    SmallVector<Operation *> toHoist;
    linalg::GenericOp epilogue;
    if (channelsLast) {
      epilogue = epilogueAfter(op, output, steps, toHoist);
      if (epilogue)
        for (Operation *view : toHoist)
          rewriter.moveOpBefore(view, op);
      args.append(epilogueArguments(rewriter, loc,
                                    epilogue ? ArrayRef(*steps)
                                             : ArrayRef<EpilogueStep>()));
    }
    func::CallOp::create(rewriter, loc, callee, args);
    Value padded = op.getDpsInputOperand(0)->get();
    if (epilogue)
      rewriter.eraseOp(epilogue);
    rewriter.eraseOp(op);
    if (padding)
      erasePadding(rewriter, *padding, padded);
    return success();
  }
};

/// The declaration of `gopt_pool2d` (or, `channelsLast`,
/// `gopt_pool2d_nhwc`) in `module`, created when missing.
static func::FuncOp declarePool2D(PatternRewriter &rewriter, ModuleOp module,
                                  bool channelsLast) {
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  // kind, sizes, windows (and the padding, channels last)
  SmallVector<Type> args(channelsLast ? 17 : 13, rewriter.getI64Type());
  args.append({ptr, ptr});
  return declareRuntimeFunction(
      rewriter, module,
      channelsLast ? kPool2DChannelsLastLibraryCall : kPool2DLibraryCall, args);
}

/// A marked max or sum pooling on contiguous, static NCHW (NHWC) memrefs,
/// its output filled just before with the reduction's identity (-inf for
/// max, 0 for sum) -> one `gopt_pool2d` (`gopt_pool2d_nhwc`) call, the fill
/// dropped. Channels last, the padded input the lowering makes (filled with
/// the identity, matchPaddedInput) goes too: the runtime skips the window
/// positions outside the unpadded input.
struct LowerPoolingToCall : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isLibraryPooling(op) || !op.hasPureBufferSemantics() ||
        op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return failure();
    bool isMax = isa<linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp>(
        op.getOperation());
    bool channelsLast = isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp>(
        op.getOperation());
    DenseIntElementsAttr strideAttr, dilationAttr;
    bool known = llvm::TypeSwitch<Operation *, bool>(op.getOperation())
                     .Case<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp,
                           linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp>(
                         [&](auto pool) {
                           strideAttr = pool.getStrides();
                           dilationAttr = pool.getDilations();
                           return true;
                         })
                     .Default(false);
    if (!known)
      return failure();
    Value input = op.getDpsInputOperand(0)->get();
    Value window = op.getDpsInputOperand(1)->get();
    Value output = op.getDpsInitOperand(0)->get();
    if (!llvm::all_of(ValueRange{input, output}, isContiguousStatic4D))
      return failure();
    auto windowType = dyn_cast<MemRefType>(window.getType());
    if (!windowType || windowType.getRank() != 2 ||
        !windowType.hasStaticShape())
      return failure();
    linalg::FillOp fill = fillBefore(op, output, [&](const APFloat &v) {
      return isMax ? v.isInfinity() && v.isNegative() : v.isZero();
    });
    auto module = op->getParentOfType<ModuleOp>();
    if (!fill || !module)
      return failure();
    auto isIdentity = [&](Value v) {
      FloatAttr attr;
      if (!matchPattern(v, m_Constant(&attr)))
        return false;
      APFloat value = attr.getValue();
      return isMax ? value.isInfinity() && value.isNegative() : value.isZero();
    };
    std::optional<PaddedInput> padding;
    if (channelsLast)
      padding = matchPaddedInput(input, op, isIdentity);
    func::FuncOp callee = declarePool2D(rewriter, module, channelsLast);
    rewriter.eraseOp(fill);
    Location loc = op.getLoc();
    auto i64 = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI64IntegerAttr(v));
    };
    Value padded = input;
    if (padding)
      input = padding->source;
    ArrayRef<int64_t> in = cast<MemRefType>(input.getType()).getShape();
    ArrayRef<int64_t> out = cast<MemRefType>(output.getType()).getShape();
    ArrayRef<int64_t> k = windowType.getShape();
    SmallVector<int64_t> strides =
        llvm::to_vector(strideAttr.getValues<int64_t>());
    SmallVector<int64_t> dilations =
        llvm::to_vector(dilationAttr.getValues<int64_t>());
    // Sizes as (n, c, h, w), (oh, ow) in either layout.
    unsigned c = channelsLast ? 3 : 1, h = channelsLast ? 1 : 2, w = h + 1;
    SmallVector<Value> args;
    for (int64_t v : {isMax ? int64_t(0) : int64_t(1), in[0], in[c], in[h],
                      in[w], k[0], k[1], out[h], out[w], strides[0],
                      strides[1], dilations[0], dilations[1]})
      args.push_back(i64(v));
    if (channelsLast)
      for (int64_t v : paddingArguments(padding))
        args.push_back(i64(v));
    args.push_back(firstElementPointer(rewriter, loc, input));
    args.push_back(firstElementPointer(rewriter, loc, output));
    func::CallOp::create(rewriter, loc, callee, args);
    rewriter.eraseOp(op);
    if (padding)
      erasePadding(rewriter, *padding, padded);
    return success();
  }
};

} // namespace

std::optional<int64_t> mlir::gopt::gemmFlops(linalg::GenericOp op,
                                             const SgemmLoops &loops) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t flops = 2;
  for (unsigned d : {loops.m, loops.n, loops.k}) {
    if (ShapedType::isDynamic(ranges[d]))
      return std::nullopt;
    flops *= ranges[d];
  }
  return flops;
}

void mlir::gopt::populateSelectLibraryContractionsPatterns(
    RewritePatternSet &patterns, bool windowedOps, int64_t minFlops) {
  patterns.add<MarkSgemmContraction>(patterns.getContext(), minFlops);
  if (windowedOps)
    patterns.add<MarkLibraryWindowedOp>(patterns.getContext());
}

void mlir::gopt::populateLowerLibraryContractionsPatterns(
    RewritePatternSet &patterns, StringRef sgemmCallee,
    StringRef sgemmEpilogueCallee) {
  patterns.add<LowerSgemmContractionToCall>(patterns.getContext(), sgemmCallee,
                                            sgemmEpilogueCallee);
  patterns.add<LowerConvolutionToCall, LowerPoolingToCall>(
      patterns.getContext());
  populateLowerAttentionKernelsPatterns(patterns);
}
