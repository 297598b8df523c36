//===- ParallelizeKernelLoops.cpp - Kernels' parallel loops on all threads ===//
//
// The tile loops gopt-fuse-kernel-loops and gopt-vectorize-kernels build
// over parallel dimensions are scf.forall loops, which become scf.parallel
// after bufferization, as do the parallel dimensions of the linalg ops left
// to loops: their iterations are independent by construction. Each
// outermost such loop in a kernel that does enough work becomes
//
//   func.func private @<kernel>_parallel<N>(%context: !llvm.ptr,
//                                          %begin: index, %end: index)
//
// running iterations [begin, end) of the loop nest, linearized (the
// indices are recovered by division), and, where the loop was, a call
//
//   gopt_parallel_for(@<kernel>_parallel<N>, %context, iterations)
//
// of the runtime, which splits the iterations into one chunk per thread.
// The values the body reads from outside are stored into a struct on the
// caller's stack (`%context`) in their LLVM form (a memref as its
// descriptor, an index as i64), bridged by unrealized casts that the
// conversion to LLVM folds away. Constants are cloned into the body rather
// than passed. A buffer allocated outside the loop that nothing outside
// reads or writes (a per-iteration temporary that buffer loop hoisting
// moved out) is allocated once per chunk inside the body instead: shared,
// it would be a race.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/CPU/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTPARALLELIZEKERNELLOOPS
#include "GOpt/Codegen/CPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

/// The runtime entry point (lib/Runtime/Parallel.cpp).
static constexpr llvm::StringLiteral kParallelFor = "gopt_parallel_for";

/// Leading loop dimensions are split between threads until they give at
/// least this many iterations (a few per thread on a large machine).
static constexpr int64_t kMinDistributedIterations = 128;

/// Work counts saturate here (a loop nest's estimate is a product).
static constexpr int64_t kWorkCap = int64_t(1) << 40;

static int64_t saturatingMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  return a > kWorkCap / b ? kWorkCap : a * b;
}

/// The trip count of one loop dimension with constant bounds and a positive
/// constant step, or nothing.
static std::optional<int64_t> staticTripCount(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb);
  std::optional<int64_t> u = getConstantIntValue(ub);
  std::optional<int64_t> s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return std::nullopt;
  return *u > *l ? (*u - *l + *s - 1) / *s : 0;
}

/// The static trip count of every dimension of `loop`, or nothing when one
/// is not static.
static std::optional<SmallVector<int64_t>>
staticTripCounts(scf::ParallelOp loop) {
  SmallVector<int64_t> trips;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> trip = staticTripCount(lb, ub, step);
    if (!trip)
      return std::nullopt;
    trips.push_back(*trip);
  }
  return trips;
}

/// Elements of a statically shaped vector or memref type, else 0.
static int64_t staticElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isa<VectorType, MemRefType>(type) || !shaped.hasStaticShape())
    return 0;
  return shaped.getNumElements();
}

/// A rough count of the scalar operations one execution of `block` does:
/// an op counts once, an op on vectors once per 8 lanes (an AVX register),
/// a memref.copy once per 4 elements it moves, a loop its body times its
/// trip count (16 when that is not static).
static int64_t estimateWork(Block &block) {
  int64_t work = 0;
  for (Operation &op : block) {
    int64_t own = 1;
    for (Type type : op.getResultTypes())
      if (isa<VectorType>(type))
        own = std::max<int64_t>(own, staticElements(type) / 8);
    for (Type type : op.getOperandTypes())
      if (isa<VectorType>(type))
        own = std::max<int64_t>(own, staticElements(type) / 8);
    if (auto copy = dyn_cast<memref::CopyOp>(op))
      own = std::max<int64_t>(own,
                              staticElements(copy.getSource().getType()) / 4);
    int64_t nested = 0;
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        nested = std::min(kWorkCap, nested + estimateWork(inner));
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      nested = saturatingMul(nested, staticTripCount(loop.getLowerBound(),
                                                     loop.getUpperBound(),
                                                     loop.getStep())
                                         .value_or(16));
    } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      int64_t trips = 1;
      if (std::optional<SmallVector<int64_t>> counts = staticTripCounts(loop))
        for (int64_t t : *counts)
          trips = saturatingMul(trips, t);
      else
        trips = 16;
      nested = saturatingMul(nested, trips);
    }
    work = std::min(kWorkCap, work + own + nested);
  }
  return work;
}

/// Whether `op` may be cloned into the body instead of being passed: an
/// operand-free pure op (a constant, a poison value, a global's address).
static bool isClonable(Operation *op) {
  return op && op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
         op->getNumResults() == 1 && isPure(op);
}

/// Whether `user`, outside the loop, leaves the buffer's contents alone: a
/// free, a view (whose own uses are then looked at), or an op reading only
/// the buffer's metadata.
static bool leavesContentsAlone(Operation *user) {
  return isa<memref::DeallocOp, ViewLikeOpInterface,
             memref::ExtractStridedMetadataOp,
             memref::ExtractAlignedPointerAsIndexOp, memref::DimOp>(user);
}

/// Whether anything outside `loop` reads or writes `buffer`'s contents,
/// directly or through a view of it.
static bool touchedOutside(Value buffer, scf::ParallelOp loop) {
  SmallVector<Value> worklist{buffer};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      if (loop->isAncestor(user))
        continue;
      if (!leavesContentsAlone(user))
        return true;
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          worklist.push_back(result);
    }
  }
  return false;
}

/// The buffer `value` is a view of (through view-like ops), or `value`.
static Value viewedBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// The address of field `field` of the context struct at `context`.
static Value fieldAddress(OpBuilder &builder, Location loc,
                          LLVM::LLVMStructType contextType, Value context,
                          int64_t field) {
  return LLVM::GEPOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()),
      contextType, context,
      ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(field)});
}

/// `value` as `type`: itself when it has that type, else through an
/// unrealized cast (between a value and its LLVM form, which the conversion
/// to LLVM folds away).
static Value bridge(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return UnrealizedConversionCastOp::create(builder, loc, type, value)
      .getResult(0);
}

namespace {

/// How a value the loop body reads from outside reaches the outlined body.
enum class CaptureKind {
  /// Stored into the context struct by the caller, loaded by the body.
  Passed,
  /// Cloned into the body (a constant).
  Cloned,
  /// Allocated by the body, once per chunk (a temporary nothing outside the
  /// loop touches); its allocation and frees outside are removed.
  Privatized,
};

struct Capture {
  Value value;
  CaptureKind kind;
};

struct GOptParallelizeKernelLoopsPass
    : gopt::impl::GOptParallelizeKernelLoopsBase<
          GOptParallelizeKernelLoopsPass> {
  using GOptParallelizeKernelLoopsBase::GOptParallelizeKernelLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(gopt::kKernelAttrName) && !func.isExternal())
        kernels.push_back(func);
    LowerToLLVMOptions lowering(&getContext());
    LLVMTypeConverter converter(&getContext(), lowering);
    SymbolTable symbols(module);
    for (func::FuncOp kernel : kernels) {
      SmallVector<scf::ParallelOp> loops;
      kernel.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
        loops.push_back(loop);
        return WalkResult::skip();
      });
      int64_t index = 0;
      for (scf::ParallelOp loop : loops)
        if (succeeded(outline(kernel, loop, index, converter, symbols)))
          ++index;
    }
  }

  /// The values `loop` reads from outside and how each reaches the body;
  /// failure when one cannot (a type with no LLVM form, a temporary shared
  /// through a view).
  FailureOr<SmallVector<Capture>> classifyCaptures(scf::ParallelOp loop,
                                                   LLVMTypeConverter &types) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(loop.getRegion(), above);
    SmallVector<Capture> captures;
    for (Value value : above) {
      Operation *def = value.getDefiningOp();
      if (isClonable(def)) {
        captures.push_back({value, CaptureKind::Cloned});
        continue;
      }
      if (!types.convertType(value.getType()))
        return failure();
      Value buffer =
          isa<MemRefType>(value.getType()) ? viewedBuffer(value) : Value();
      Operation *allocation = buffer ? buffer.getDefiningOp() : nullptr;
      if (allocation && isa<memref::AllocOp, memref::AllocaOp>(allocation) &&
          !touchedOutside(buffer, loop)) {
        // A buffer only the loop reads and writes: each chunk gets its own.
        // Only a statically shaped allocation used directly can be moved.
        if (buffer != value || allocation->getNumOperands() != 0)
          return failure();
        if (llvm::any_of(value.getUsers(), [&](Operation *user) {
              return !loop->isAncestor(user) && !isa<memref::DeallocOp>(user);
            }))
          return failure();
        captures.push_back({value, CaptureKind::Privatized});
        continue;
      }
      captures.push_back({value, CaptureKind::Passed});
    }
    return captures;
  }

  LogicalResult outline(func::FuncOp kernel, scf::ParallelOp loop,
                        int64_t index, LLVMTypeConverter &types,
                        SymbolTable &symbols) {
    if (loop.getNumResults() != 0 || !loop.getInitVals().empty())
      return failure();
    std::optional<SmallVector<int64_t>> trips = staticTripCounts(loop);
    if (!trips)
      return failure();
    int64_t iterations = 1;
    for (int64_t t : *trips)
      iterations = saturatingMul(iterations, t);
    if (iterations < 2 || iterations >= kWorkCap)
      return failure();
    int64_t work = saturatingMul(iterations, estimateWork(*loop.getBody()));
    if (work < minWork)
      return failure();
    // The leading dimensions that give enough iterations to share are the
    // ones split between threads; the others stay a loop nest inside the
    // body, so an innermost contiguous loop stays one (LLVM vectorizes a
    // fill's row; recovering every index by division per element would
    // not).
    int64_t split = 0, distributed = 1;
    while (split < static_cast<int64_t>(trips->size()) &&
           distributed < kMinDistributedIterations)
      distributed = saturatingMul(distributed, (*trips)[split++]);
    FailureOr<SmallVector<Capture>> captures = classifyCaptures(loop, types);
    if (failed(captures))
      return failure();

    MLIRContext *ctx = &getContext();
    Location loc = loop.getLoc();
    OpBuilder builder(ctx);
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    Type indexType = builder.getIndexType();
    SmallVector<Type> fieldTypes;
    for (const Capture &capture : *captures)
      if (capture.kind == CaptureKind::Passed)
        fieldTypes.push_back(types.convertType(capture.value.getType()));
    auto contextType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);

    // The body: func.func private @<kernel>_parallel<N>(context, begin, end).
    auto bodyType =
        builder.getFunctionType({ptrType, indexType, indexType}, {});
    builder.setInsertionPointAfter(kernel);
    std::string name = (kernel.getSymName() + "_parallel" + Twine(index)).str();
    auto body = func::FuncOp::create(builder, loc, name, bodyType);
    body.setPrivate();
    symbols.insert(body);
    Block *entry = body.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    Value context = entry->getArgument(0);
    IRMapping mapping;
    int64_t field = 0;
    SmallVector<Value> privatized;
    for (const Capture &capture : *captures) {
      Operation *def = capture.value.getDefiningOp();
      switch (capture.kind) {
      case CaptureKind::Cloned:
      case CaptureKind::Privatized: {
        Operation *clone = builder.clone(*def);
        mapping.map(capture.value, clone->getResult(0));
        if (capture.kind == CaptureKind::Privatized &&
            isa<memref::AllocOp>(def))
          privatized.push_back(clone->getResult(0));
        break;
      }
      case CaptureKind::Passed: {
        Value address = fieldAddress(builder, loc, contextType, context, field);
        Value loaded =
            LLVM::LoadOp::create(builder, loc, fieldTypes[field], address);
        mapping.map(capture.value,
                    bridge(builder, loc, loaded, capture.value.getType()));
        ++field;
        break;
      }
      }
    }
    // for %i = begin to end: the split dimensions' indices from %i, the
    // last fastest; the other dimensions as a loop nest inside; the body.
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    auto chunk = scf::ForOp::create(builder, loc, entry->getArgument(1),
                                    entry->getArgument(2), one);
    builder.setInsertionPointToStart(chunk.getBody());
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    Value rest = chunk.getInductionVar();
    for (int64_t d = split - 1; d >= 0; --d) {
      Value position = rest;
      if (d > 0) {
        Value count = constant((*trips)[d]);
        position = arith::RemUIOp::create(builder, loc, rest, count);
        rest = arith::DivUIOp::create(builder, loc, rest, count);
      }
      Value scaled = arith::MulIOp::create(
          builder, loc, position,
          constant(*getConstantIntValue(loop.getStep()[d])));
      mapping.map(loop.getInductionVars()[d],
                  arith::AddIOp::create(
                      builder, loc,
                      constant(*getConstantIntValue(loop.getLowerBound()[d])),
                      scaled));
    }
    if (split < static_cast<int64_t>(trips->size())) {
      SmallVector<Value> lower, upper, steps;
      for (int64_t d = split; d < static_cast<int64_t>(trips->size()); ++d) {
        lower.push_back(
            constant(*getConstantIntValue(loop.getLowerBound()[d])));
        upper.push_back(
            constant(*getConstantIntValue(loop.getUpperBound()[d])));
        steps.push_back(constant(*getConstantIntValue(loop.getStep()[d])));
      }
      auto inner = scf::ParallelOp::create(builder, loc, lower, upper, steps);
      for (auto [d, iv] : llvm::enumerate(inner.getInductionVars()))
        mapping.map(loop.getInductionVars()[split + d], iv);
      builder.setInsertionPoint(inner.getBody()->getTerminator());
    }
    for (Operation &op : loop.getBody()->without_terminator())
      builder.clone(op, mapping);
    builder.setInsertionPointToEnd(entry);
    for (Value buffer : privatized)
      memref::DeallocOp::create(builder, loc, buffer);
    func::ReturnOp::create(builder, loc);

    // The call, where the loop was; the context struct on the stack.
    func::FuncOp runtime = declareParallelFor(symbols, bodyType, loc);
    builder.setInsertionPointToStart(&kernel.getBody().front());
    Value contextPtr;
    if (fieldTypes.empty()) {
      contextPtr = LLVM::ZeroOp::create(builder, loc, ptrType);
    } else {
      Value count = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                             builder.getI64IntegerAttr(1));
      contextPtr =
          LLVM::AllocaOp::create(builder, loc, ptrType, contextType, count);
    }
    builder.setInsertionPoint(loop);
    field = 0;
    for (const Capture &capture : *captures) {
      if (capture.kind != CaptureKind::Passed)
        continue;
      Value value = bridge(builder, loc, capture.value, fieldTypes[field]);
      Value address =
          fieldAddress(builder, loc, contextType, contextPtr, field);
      LLVM::StoreOp::create(builder, loc, value, address);
      ++field;
    }
    Value function = func::ConstantOp::create(builder, loc, bodyType,
                                              SymbolRefAttr::get(body));
    Value total = arith::ConstantIndexOp::create(builder, loc, distributed);
    func::CallOp::create(builder, loc, runtime,
                         ValueRange{function, contextPtr, total});
    loop.erase();
    // Temporaries now allocated by the body: their allocation and frees
    // here go.
    for (const Capture &capture : *captures) {
      if (capture.kind != CaptureKind::Privatized)
        continue;
      for (Operation *user :
           llvm::make_early_inc_range(capture.value.getUsers()))
        user->erase();
      capture.value.getDefiningOp()->erase();
    }
    ++numParallelLoops;
    return success();
  }

  /// `func.func private @gopt_parallel_for(body, context, iterations)`,
  /// declared in the module when missing.
  func::FuncOp declareParallelFor(SymbolTable &symbols, FunctionType bodyType,
                                  Location loc) {
    if (auto existing = symbols.lookup<func::FuncOp>(kParallelFor))
      return existing;
    OpBuilder builder(&getContext());
    auto type = builder.getFunctionType(
        {bodyType, LLVM::LLVMPointerType::get(&getContext()),
         builder.getIndexType()},
        {});
    auto decl = func::FuncOp::create(builder, loc, kParallelFor, type);
    decl.setPrivate();
    symbols.insert(decl, getOperation().getBody()->begin());
    return decl;
  }
};

} // namespace
