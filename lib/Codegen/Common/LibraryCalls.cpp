//===- LibraryCalls.cpp - Ops a runtime library computes ------------------===//

#include "GOpt/Codegen/Common/LibraryCalls.h"
#include "GOpt/Codegen/Common/ConvolutionEpilogue.h"
#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/Conversion/GOptToLinalg/GOptToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::gopt;

bool mlir::gopt::isLibrarySgemm(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.getLibraryCallAttr() &&
         generic.getLibraryCallAttr().getValue() == kSgemmLibraryCall;
}

/// Whether `op` carries `gopt.library_call = "<callee>"`.
static bool hasLibraryMark(Operation *op, StringRef callee) {
  auto mark =
      op ? op->getAttrOfType<StringAttr>(kLibraryCallAttrName) : StringAttr();
  return mark && mark.getValue() == callee;
}

bool mlir::gopt::isLibraryConvolution(Operation *op) {
  return hasLibraryMark(op, kConv2DLibraryCall);
}

bool mlir::gopt::isLibraryPooling(Operation *op) {
  return hasLibraryMark(op, kPool2DLibraryCall);
}

bool mlir::gopt::isLibraryConvolutionEpilogue(Operation *op) {
  return hasLibraryMark(op, kConvolutionEpilogueLibraryCall);
}

bool mlir::gopt::isLibrarySgemmEpilogue(Operation *op) {
  return hasLibraryMark(op, kSgemmEpilogueLibraryCall);
}

func::FuncOp mlir::gopt::declareRuntimeFunction(OpBuilder &builder,
                                                ModuleOp module, StringRef name,
                                                ArrayRef<Type> args) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto func =
      func::FuncOp::create(builder, module.getLoc(), name,
                           FunctionType::get(builder.getContext(), args, {}));
  func.setPrivate();
  return func;
}

Value mlir::gopt::indexToPointer(OpBuilder &builder, Location loc,
                                 Value address) {
  Value address64 =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()),
      address64);
}

Value mlir::gopt::firstElementAddress(OpBuilder &b, Location loc, Value v) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, v);
  Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v);
  Value bytes = arith::MulIOp::create(
      b, loc, meta.getOffset(), arith::ConstantIndexOp::create(b, loc, 4));
  return arith::AddIOp::create(b, loc, aligned, bytes);
}

Value mlir::gopt::firstElementPointer(OpBuilder &b, Location loc, Value v) {
  return indexToPointer(b, loc, firstElementAddress(b, loc, v));
}

bool mlir::gopt::isLibraryCall(Operation *op) {
  return isLibrarySgemm(op) || isLibraryConvolution(op) ||
         isLibraryPooling(op) || isLibraryConvolutionEpilogue(op) ||
         isLibrarySgemmEpilogue(op);
}

namespace {

/// The library contraction whose result `v` is, through reshapes each used
/// once (the collapsed result of a convolution read back as NCHW), or null.
static Operation *libraryResultThroughReshapes(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!v.hasOneUse())
      return nullptr;
    if (isLibraryCall(def))
      return def;
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      return nullptr;
    v = def->getOperand(0);
  }
  return nullptr;
}

/// The per-channel vector a generic broadcasts into a fresh tensor
/// (`ins(%v) outs(tensor.empty)`, yielding its input, %v read along the
/// result's innermost dim only): what a linear's bias operand becomes as
/// the initial value of its contraction. Null for anything else.
static Value broadcastChannelVector(linalg::GenericOp op) {
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
    return nullptr;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  OpOperand *input = op.getDpsInputOperand(0);
  auto type = dyn_cast<RankedTensorType>(input->get().getType());
  AffineMap map = op.getMatchingIndexingMap(input);
  if (!type || type.getRank() != 1 || !type.getElementType().isF32() ||
      yield.getOperand(0) != op.getMatchingBlockArgument(input) ||
      map.getNumResults() != 1 ||
      map.getResult(0) !=
          getAffineDimExpr(op.getNumLoops() - 1, op.getContext()) ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return nullptr;
  return input->get();
}

/// A library GEMM whose result starts as a broadcast bias (a linear's bias
/// operand) starts from zero instead, and a generic after it adds the
/// bias (elementwise fusion then merges it into what follows). The GEMM's
/// call can then apply the bias (and what follows) as its epilogue
/// (gemm-epilogues: cuBLASLt's bias, with beta 0).
struct MoveBiasInitAfterContraction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp gemm,
                                PatternRewriter &rewriter) const override {
    if (!isLibrarySgemm(gemm) || !gemm.hasPureTensorSemantics() ||
        gemm.getNumDpsInits() != 1)
      return failure();
    OpOperand *init = gemm.getDpsInitOperand(0);
    auto broadcast = init->get().getDefiningOp<linalg::GenericOp>();
    Value bias = broadcastChannelVector(broadcast);
    if (!bias || !broadcast->hasOneUse())
      return failure();
    Value result = gemm->getResult(0);
    auto type = cast<RankedTensorType>(result.getType());
    Location loc = gemm.getLoc();

    // The GEMM from zero.
    rewriter.setInsertionPoint(gemm);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value zeroed =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    rewriter.modifyOpInPlace(gemm, [&] { init->set(zeroed); });
    rewriter.eraseOp(broadcast);

    // Then result + bias.
    unsigned rank = type.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap channel = AffineMap::get(
        rank, 0, getAffineDimExpr(rank - 1, rewriter.getContext()));
    rewriter.setInsertionPointAfter(gemm);
    Value out = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
    auto add = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{result, bias}, ValueRange{out},
        ArrayRef<AffineMap>{identity, channel, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l,
              ValueRange{
                  arith::AddFOp::create(b, l, args[0], args[1]).getResult()});
        });
    rewriter.replaceAllUsesExcept(result, add->getResult(0), add);
    return success();
  }
};

/// `ins(…, %c, …) outs(tensor.empty)` with `%c` a library contraction's
/// result (or a reshape of it) read where the generic writes, and used
/// nowhere else, becomes `ins(…) outs(%c)`: the epilogue overwrites the
/// sgemm output in place.
struct WriteEpilogueIntoContractionResult
    : OpRewritePattern<linalg::GenericOp> {
  WriteEpilogueIntoContractionResult(MLIRContext *context,
                                     bool markConvolutionEpilogues,
                                     bool markGemmEpilogues)
      : OpRewritePattern(context),
        markConvolutionEpilogues(markConvolutionEpilogues),
        markGemmEpilogues(markGemmEpilogues) {}
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() != 0)
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
        op.payloadUsesValueFromOperand(init))
      return failure();
    AffineMap outMap = op.getMatchingIndexingMap(init);
    OpOperand *reused = nullptr;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value v = input->get();
      if (libraryResultThroughReshapes(v) &&
          v.getType() == init->get().getType() &&
          op.getMatchingIndexingMap(input) == outMap) {
        reused = input;
        break;
      }
    }
    if (!reused)
      return failure();
    unsigned reusedIndex = reused->getOperandNumber();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (input == reused)
        continue;
      inputs.push_back(input->get());
      maps.push_back(op.getMatchingIndexingMap(input));
    }
    maps.push_back(outMap);
    auto inPlace = linalg::GenericOp::create(
        rewriter, op.getLoc(), op->getResultTypes(), inputs,
        ValueRange{reused->get()}, maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), inPlace.getRegion(),
                                inPlace.getRegion().end());
    Block &body = inPlace.getRegion().front();
    BlockArgument oldArg = body.getArgument(reusedIndex);
    rewriter.replaceAllUsesWith(oldArg, body.getArguments().back());
    body.eraseArgument(reusedIndex);
    rewriter.replaceOp(op, inPlace->getResults());
    Operation *library =
        libraryResultThroughReshapes(inPlace.getDpsInitOperand(0)->get());
    if (markGemmEpilogues && isGemmWithChannelsInnermost(library)) {
      std::optional<SmallVector<EpilogueStep>> steps =
          matchChannelEpilogue(inPlace, inPlace.getDpsInitOperand(0));
      if (steps && getGemmEpilogueCode(*steps))
        inPlace->setAttr(kLibraryCallAttrName,
                         rewriter.getStringAttr(kSgemmEpilogueLibraryCall));
      return success();
    }
    library = inPlace.getDpsInitOperand(0)->get().getDefiningOp();
    if (!markConvolutionEpilogues || !isChannelsLastConvolution(library))
      return success();
    std::optional<SmallVector<EpilogueStep>> steps =
        matchConvolutionEpilogue(inPlace, inPlace.getDpsInitOperand(0));
    if (steps && isWorthApplyingInConvolution(*steps))
      inPlace->setAttr(kLibraryCallAttrName,
                       rewriter.getStringAttr(kConvolutionEpilogueLibraryCall));
    return success();
  }

private:
  /// Whether `op` is a library convolution on channels-last operands (the
  /// runtime's convolutions take epilogues there).
  static bool isChannelsLastConvolution(Operation *op) {
    if (!isLibraryConvolution(op))
      return false;
    if (isa<linalg::Conv2DNhwcFhwcOp>(op))
      return true;
    auto info = op->getAttrOfType<DictionaryAttr>(kGroupedConv2DAttrName);
    return info && info.get("channels_last");
  }

  /// Whether `op` is a library GEMM whose result's innermost dim is its n
  /// (what a per-channel epilogue's channel then is; cuBLASLt's bias runs
  /// along n).
  static bool isGemmWithChannelsInnermost(Operation *op) {
    auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
    if (!generic || !isLibrarySgemm(generic) || generic.getNumDpsInits() != 1)
      return false;
    std::optional<SgemmLoops> loops = matchSgemmContraction(generic);
    AffineMap out =
        generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
    if (!loops || out.getNumResults() == 0)
      return false;
    auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
    return last && last.getPosition() == loops->n;
  }

  bool markConvolutionEpilogues;
  bool markGemmEpilogues;
};

} // namespace

void mlir::gopt::populateMoveBiasInitPatterns(RewritePatternSet &patterns) {
  patterns.add<MoveBiasInitAfterContraction>(patterns.getContext());
}

void mlir::gopt::populateEpilogueInPlacePatterns(RewritePatternSet &patterns,
                                                 bool markConvolutionEpilogues,
                                                 bool markGemmEpilogues) {
  patterns.add<WriteEpilogueIntoContractionResult>(
      patterns.getContext(), markConvolutionEpilogues, markGemmEpilogues);
}
