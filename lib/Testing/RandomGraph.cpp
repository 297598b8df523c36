//===- RandomGraph.cpp - Seeded random gopt graphs ------------------------===//
//
// The generator keeps a pool of available f32 values, each with a
// conservative value range and whether it is *exact* (bit-identical in every
// configuration of the graph passes: arguments, literal constants, and what
// exact-preserving ops such as data movement, max/min, neg, abs, relu, clip,
// select, floor, ceil and round make of them). At each step it picks an op
// family, chooses operands from the pool that satisfy the family's shape and
// range constraints (adding helper ops when needed: a reshape to NCHW, exp∘tanh
// to make a value positive, a power-of-two rescale to keep magnitudes small),
// and adds the result to the pool.
//
// Ranges keep the arithmetic well-conditioned: log, sqrt, rsqrt, reciprocal,
// div and pow only see values >= 0.25, exp only values in [-4, 2], pool
// values stay within +-8, layer_norm has eps >= 0.25. Discontinuous ops
// (compare, float-to-int casts, floor, ceil, round) only see exact values, so a
// last-bit difference between configurations (constant folding computes in
// double and rounds once) can never flip a branch.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Testing/RandomGraph.h"
#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Largest magnitude a pool value may reach before it is rescaled.
constexpr double kBound = 8.0;
/// Smallest value the domain-restricted ops (log, sqrt, div, ...) see.
constexpr double kPositive = 0.25;

/// splitmix64: the same numbers on every platform and standard library.
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  int64_t below(int64_t n) { return static_cast<int64_t>(next() % n); }
  /// Uniform in [lo, hi].
  int64_t between(int64_t lo, int64_t hi) { return lo + below(hi - lo + 1); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return uniform() < p; }
  /// A multiple of 1/16 in [lo, hi]: exact in every float type used.
  double quantized(double lo, double hi) {
    double v = lo + (hi - lo) * uniform();
    return std::clamp(std::round(v * 16) / 16, lo, hi);
  }

private:
  uint64_t state;
};

/// A conservative interval holding every element of a value.
struct Range {
  double lo = 0, hi = 0;
  double magnitude() const { return std::max(std::fabs(lo), std::fabs(hi)); }
  static Range hull(Range a, Range b) {
    return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
  }
  static Range ofCorners(std::initializer_list<double> values) {
    return {std::min(values), std::max(values)};
  }
};

/// A value the generator may use as an operand.
struct Entry {
  Value value;
  Range range;
  /// Bit-identical in every configuration of the graph passes.
  bool exact = false;
  /// Produced by a compute op (neither an argument nor a literal constant):
  /// may be returned.
  bool computed = false;

  RankedTensorType type() const {
    return cast<RankedTensorType>(value.getType());
  }
  ArrayRef<int64_t> shape() const { return type().getShape(); }
  int64_t rank() const { return type().getRank(); }
};

int64_t product(ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

/// Broadcast result shape of numpy-style operands, or nothing.
std::optional<SmallVector<int64_t>> broadcast(ArrayRef<int64_t> a,
                                              ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

/// Counts the compute ops (gopt ops other than constants) inserted.
struct OpCounter : public OpBuilder::Listener {
  int64_t count = 0;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    if (isa<GOptDialect>(op->getDialect()) && !isa<ConstantOp>(op))
      ++count;
  }
};

/// Builds one random graph.
class GraphGenerator {
public:
  GraphGenerator(MLIRContext &context, const RandomGraphOptions &options)
      : options(options), rng(options.seed), b(&context),
        loc(b.getUnknownLoc()) {
    b.setListener(&counter);
  }

  OwningOpRef<ModuleOp> generate();

private:
  using Family = bool (GraphGenerator::*)();

  // Operand selection.
  std::optional<Entry> pick(llvm::function_ref<bool(const Entry &)> accept);
  SmallVector<int64_t> randomShape(int64_t rank);
  SmallVector<int64_t> compatibleShape(ArrayRef<int64_t> shape);
  bool fits(ArrayRef<int64_t> shape) const {
    return static_cast<int64_t>(shape.size()) <= options.maxRank &&
           product(shape) <= options.maxElements;
  }

  // Constants.
  Entry constant(ArrayRef<int64_t> shape, double lo, double hi,
                 bool splat = false);
  Entry splat(ArrayRef<int64_t> shape, double value);
  Entry constantOperand(ArrayRef<int64_t> shape, double lo, double hi);
  Value constantIndices(ArrayRef<int64_t> shape, int64_t d);

  // Helpers that keep values well-conditioned.
  Entry bounded(Entry e);
  Entry positive(Entry e);
  Entry expDomain(Entry e);
  Entry toNCHW(Entry e);

  // One op, operands given.
  Entry unary(int kind, Entry x);
  Entry binary(int kind, Entry lhs, Entry rhs);
  Entry reshape(Entry x, ArrayRef<int64_t> shape);
  Entry transpose(Entry x, ArrayRef<int64_t> perm);

  // Families: each adds ops and pool values, or returns false (and adds
  // nothing) when the pool cannot satisfy its constraints.
  bool addUnary();
  bool addBinary();
  bool addSelect();
  bool addClip();
  bool addRounding();
  bool addCastRoundTrip();
  bool addReduce();
  bool addSoftmax();
  bool addLayerNorm();
  bool addMatmul();
  bool addLinear();
  bool addConv2D();
  bool addPool2D();
  bool addGlobalAvgPool();
  bool addTranspose();
  bool addReshape();
  bool addBroadcastTo();
  bool addConcat();
  bool addSlice();
  bool addGates();
  bool addPad();
  bool addGather();
  bool addGatherElements();
  bool addResize();
  bool addConstantSubgraph();
  bool addIdentity();
  bool addDuplicate();
  bool addDeadBranch();

  void push(Entry e, bool cloneable = true) {
    pool.push_back(e);
    if (cloneable && e.computed)
      if (Operation *op = e.value.getDefiningOp())
        if (op->getNumResults() == 1)
          producers.push_back(pool.size() - 1);
  }

  const RandomGraphOptions &options;
  Rng rng;
  OpBuilder b;
  Location loc;
  OpCounter counter;
  std::vector<Entry> pool;
  /// Pool indices of single-result compute ops (cse duplicates them).
  std::vector<size_t> producers;
};

//===----------------------------------------------------------------------===//
// Operand selection and shapes
//===----------------------------------------------------------------------===//

/// A pool value that `accept`s, preferring recent ones (deep chains rather
/// than a fan of ops on the inputs).
std::optional<Entry>
GraphGenerator::pick(llvm::function_ref<bool(const Entry &)> accept) {
  SmallVector<size_t> candidates;
  for (size_t i = 0; i < pool.size(); ++i)
    if (accept(pool[i]))
      candidates.push_back(i);
  if (candidates.empty())
    return std::nullopt;
  size_t n = candidates.size();
  if (rng.chance(0.7))
    return pool[candidates[n - 1 - rng.below(std::min<size_t>(n, 4))]];
  return pool[candidates[rng.below(n)]];
}

SmallVector<int64_t> GraphGenerator::randomShape(int64_t rank) {
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(rng.between(1, options.maxDimSize));
  // Halve the largest dimension until the shape fits.
  while (product(shape) > options.maxElements) {
    auto largest = std::max_element(shape.begin(), shape.end());
    *largest = std::max<int64_t>(1, *largest / 2);
  }
  return shape;
}

/// A shape that broadcasts with `shape` to `shape`: a suffix of it with some
/// dimensions set to 1 (possibly rank 0).
SmallVector<int64_t> GraphGenerator::compatibleShape(ArrayRef<int64_t> shape) {
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t keep = rng.between(0, rank);
  SmallVector<int64_t> out;
  for (int64_t i = rank - keep; i < rank; ++i)
    out.push_back(rng.chance(0.35) ? 1 : shape[i]);
  if (out.empty() && rank > 0 && rng.chance(0.5))
    out.push_back(1);
  return out;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Entry GraphGenerator::constant(ArrayRef<int64_t> shape, double lo, double hi,
                               bool isSplat) {
  auto type = RankedTensorType::get(shape, b.getF32Type());
  SmallVector<float> values;
  if (isSplat) {
    values.push_back(static_cast<float>(rng.quantized(lo, hi)));
  } else {
    for (int64_t i = 0, e = product(shape); i < e; ++i)
      values.push_back(static_cast<float>(rng.quantized(lo, hi)));
  }
  auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  DenseElementsAttr attr =
      isSplat ? DenseElementsAttr::get(type, values.front())
              : DenseElementsAttr::get(type, ArrayRef<float>(values));
  Value c = ConstantOp::create(b, loc, attr);
  return {c, {*mn, *mx}, /*exact=*/true, /*computed=*/false};
}

Entry GraphGenerator::splat(ArrayRef<int64_t> shape, double value) {
  auto type = RankedTensorType::get(shape, b.getF32Type());
  Value c = ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, static_cast<float>(value)));
  return {c, {value, value}, /*exact=*/true, /*computed=*/false};
}

/// A constant operand of `shape` in about [lo, hi], sometimes computed by a
/// small constant subgraph that gopt-fold evaluates.
Entry GraphGenerator::constantOperand(ArrayRef<int64_t> shape, double lo,
                                      double hi) {
  bool isSplat = rng.chance(0.25);
  switch (rng.below(4)) {
  case 0: { // transpose of a constant of the transposed shape
    if (shape.size() < 2 || isSplat)
      break;
    SmallVector<int64_t> swapped(shape);
    std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
    SmallVector<int64_t> perm = llvm::to_vector(
        llvm::seq<int64_t>(0, static_cast<int64_t>(shape.size())));
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    return transpose(constant(swapped, lo, hi), perm);
  }
  case 1: // a scaled constant
    return binary(/*mul*/ 2, constant(shape, lo, hi, isSplat), splat({}, 0.5));
  case 2: // a reshaped flat constant
    if (isSplat || shape.size() < 2)
      break;
    return reshape(constant({product(shape)}, lo, hi), shape);
  default:
    break;
  }
  return constant(shape, lo, hi, isSplat);
}

//===----------------------------------------------------------------------===//
// Conditioning helpers
//===----------------------------------------------------------------------===//

/// Rescales by a power of two (exact) when the value may exceed kBound.
Entry GraphGenerator::bounded(Entry e) {
  double m = e.range.magnitude();
  if (m <= kBound)
    return e;
  int k = static_cast<int>(std::ceil(std::log2(m / kBound)));
  SmallVector<int64_t> ones(e.rank(), 1);
  return binary(/*mul*/ 2, e, splat(ones, std::ldexp(1.0, -k)));
}

/// The value mapped into [kPositive, kBound] by a smooth positive function.
Entry GraphGenerator::positive(Entry e) {
  if (e.range.lo >= kPositive && e.range.hi <= kBound)
    return e;
  SmallVector<int64_t> ones(e.rank(), 1);
  switch (rng.below(3)) {
  case 0: // exp(tanh(x)) in [1/e, e]
    return unary(/*exp*/ 3, unary(/*tanh*/ 8, e));
  case 1: // abs(x) + 1
    return binary(/*add*/ 0, unary(/*abs*/ 1, e), splat(ones, 1.0));
  default: // sigmoid(x) + 0.5
    return binary(/*add*/ 0, unary(/*sigmoid*/ 9, e), splat(ones, 0.5));
  }
}

/// The value mapped into exp's comfortable domain [-4, 2].
Entry GraphGenerator::expDomain(Entry e) {
  if (e.range.lo >= -4 && e.range.hi <= 2)
    return e;
  return unary(/*tanh*/ 8, e);
}

/// A rank-4 (NCHW) view of a value of rank 2 to 4: leading 1s prepended.
Entry GraphGenerator::toNCHW(Entry e) {
  if (e.rank() == 4)
    return e;
  SmallVector<int64_t> shape(4 - e.rank(), 1);
  llvm::append_range(shape, e.shape());
  return reshape(e, shape);
}

//===----------------------------------------------------------------------===//
// Single ops
//===----------------------------------------------------------------------===//

enum UnaryKind {
  kNeg,
  kAbs,
  kRelu,
  kExp,
  kLog,
  kSqrt,
  kRsqrt,
  kReciprocal,
  kTanh,
  kSigmoid,
  kErf,
  kSilu,
  kGelu,
  kGeluTanh,
  kSin,
  kCos,
  kNumUnary
};

/// Builds unary op `kind` on x (first conditioning x for the op's domain).
Entry GraphGenerator::unary(int kind, Entry x) {
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  Range r = x.range;
  Entry out;
  out.computed = true;
  switch (kind) {
  case kNeg:
    out.value = NegOp::create(b, loc, x.value);
    out.range = {-r.hi, -r.lo};
    out.exact = x.exact;
    return out;
  case kAbs:
    out.value = AbsOp::create(b, loc, x.value);
    out.range = r.lo >= 0   ? r
                : r.hi <= 0 ? Range{-r.hi, -r.lo}
                            : Range{0, r.magnitude()};
    out.exact = x.exact;
    return out;
  case kRelu:
    out.value = ReluOp::create(b, loc, x.value);
    out.range = {std::max(r.lo, 0.0), std::max(r.hi, 0.0)};
    out.exact = x.exact;
    return out;
  case kExp:
    x = expDomain(x);
    out.value = ExpOp::create(b, loc, x.value);
    out.range = {std::exp(x.range.lo), std::exp(x.range.hi)};
    return out;
  case kLog:
    x = positive(x);
    out.value = LogOp::create(b, loc, x.value);
    out.range = {std::log(x.range.lo), std::log(x.range.hi)};
    return out;
  case kSqrt:
    x = positive(x);
    out.value = SqrtOp::create(b, loc, x.value);
    out.range = {std::sqrt(x.range.lo), std::sqrt(x.range.hi)};
    return out;
  case kRsqrt:
    x = positive(x);
    out.value = RsqrtOp::create(b, loc, x.value);
    out.range = {1 / std::sqrt(x.range.hi), 1 / std::sqrt(x.range.lo)};
    return out;
  case kReciprocal:
    x = positive(x);
    out.value = ReciprocalOp::create(b, loc, x.value);
    out.range = {1 / x.range.hi, 1 / x.range.lo};
    return out;
  case kTanh:
    out.value = TanhOp::create(b, loc, x.value);
    out.range = {std::tanh(r.lo), std::tanh(r.hi)};
    return out;
  case kSigmoid:
    out.value = SigmoidOp::create(b, loc, x.value);
    out.range = {sigmoid(r.lo), sigmoid(r.hi)};
    return out;
  case kErf:
    out.value = ErfOp::create(b, loc, x.value);
    out.range = {std::erf(r.lo), std::erf(r.hi)};
    return out;
  case kSilu: {
    // x·sigmoid(x) has its minimum -0.2785 at x = -1.2785.
    out.value = SiluOp::create(b, loc, x.value);
    double a = r.lo * sigmoid(r.lo), c = r.hi * sigmoid(r.hi);
    out.range = {
        std::min({a, c, r.lo < -1.2785 && r.hi > -1.2785 ? -0.2785 : a}),
        std::max(a, c)};
    return out;
  }
  case kSin:
  case kCos:
    out.value = kind == kSin ? Value(SinOp::create(b, loc, x.value))
                             : Value(CosOp::create(b, loc, x.value));
    out.range = {-1, 1};
    return out;
  case kGelu:
  case kGeluTanh:
  default: {
    // Both forms stay above -0.17 and below max(x, 0).
    out.value = GeluOp::create(b, loc, x.value, kind == kGeluTanh);
    out.range = {std::max(-0.2, std::min(r.lo, 0.0)) - 1e-3,
                 std::max(r.hi, 0.0) + 1e-3};
    return out;
  }
  }
}

enum BinaryKind { kAdd, kSub, kMul, kDiv, kPow, kMax, kMin, kNumBinary };

/// Builds binary op `kind` (the divisor and the base of pow conditioned).
Entry GraphGenerator::binary(int kind, Entry lhs, Entry rhs) {
  Entry out;
  out.computed = true;
  Range a = lhs.range, c = rhs.range;
  switch (kind) {
  case kAdd:
    out.value = AddOp::create(b, loc, lhs.value, rhs.value);
    out.range = {a.lo + c.lo, a.hi + c.hi};
    break;
  case kSub:
    out.value = SubOp::create(b, loc, lhs.value, rhs.value);
    out.range = {a.lo - c.hi, a.hi - c.lo};
    break;
  case kMul:
    out.value = MulOp::create(b, loc, lhs.value, rhs.value);
    out.range =
        Range::ofCorners({a.lo * c.lo, a.lo * c.hi, a.hi * c.lo, a.hi * c.hi});
    break;
  case kDiv:
    rhs = positive(rhs);
    c = rhs.range;
    out.value = DivOp::create(b, loc, lhs.value, rhs.value);
    out.range =
        Range::ofCorners({a.lo / c.lo, a.lo / c.hi, a.hi / c.lo, a.hi / c.hi});
    break;
  case kPow:
    lhs = positive(lhs);
    a = lhs.range;
    if (c.lo < -2 || c.hi > 2) {
      rhs = unary(kTanh, rhs);
      c = rhs.range;
    }
    out.value = PowOp::create(b, loc, lhs.value, rhs.value);
    // x^y is monotone in x and in y for x > 0: extremes at the corners.
    out.range = Range::ofCorners({std::pow(a.lo, c.lo), std::pow(a.lo, c.hi),
                                  std::pow(a.hi, c.lo), std::pow(a.hi, c.hi)});
    break;
  case kMax:
    out.value = MaxOp::create(b, loc, lhs.value, rhs.value);
    out.range = {std::max(a.lo, c.lo), std::max(a.hi, c.hi)};
    out.exact = lhs.exact && rhs.exact;
    break;
  case kMin:
  default:
    out.value = MinOp::create(b, loc, lhs.value, rhs.value);
    out.range = {std::min(a.lo, c.lo), std::min(a.hi, c.hi)};
    out.exact = lhs.exact && rhs.exact;
    break;
  }
  return out;
}

Entry GraphGenerator::reshape(Entry x, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, b.getF32Type());
  Entry out = x;
  out.value = ReshapeOp::create(b, loc, type, x.value);
  out.computed = true;
  return out;
}

Entry GraphGenerator::transpose(Entry x, ArrayRef<int64_t> perm) {
  Entry out = x;
  out.value = TransposeOp::create(b, loc, x.value, perm);
  out.computed = true;
  return out;
}

//===----------------------------------------------------------------------===//
// Families
//===----------------------------------------------------------------------===//

bool GraphGenerator::addUnary() {
  auto x = pick([](const Entry &) { return true; });
  if (!x)
    return false;
  push(bounded(unary(rng.below(kNumUnary), *x)));
  return true;
}

bool GraphGenerator::addBinary() {
  auto lhs = pick([](const Entry &) { return true; });
  if (!lhs)
    return false;
  std::optional<Entry> rhs;
  if (rng.chance(0.6)) {
    SmallVector<int64_t> shape(lhs->shape());
    rhs = pick([&](const Entry &e) {
      auto s = broadcast(shape, e.shape());
      return s && fits(*s);
    });
  }
  if (!rhs)
    rhs = constantOperand(compatibleShape(lhs->shape()), -1, 1);
  int kind = rng.below(kNumBinary);
  if (kind != kDiv && kind != kPow && rng.chance(0.5))
    std::swap(*lhs, *rhs);
  push(bounded(binary(kind, *lhs, *rhs)));
  return true;
}

bool GraphGenerator::addSelect() {
  auto a = pick([](const Entry &e) { return e.exact; });
  if (!a)
    return false;
  // Compare exact values with each other or with a literal threshold, so no
  // configuration can flip a comparison.
  std::optional<Entry> c;
  SmallVector<int64_t> shapeA(a->shape());
  if (rng.chance(0.5))
    c = pick([&](const Entry &e) {
      auto s = broadcast(shapeA, e.shape());
      return e.exact && e.value != a->value && s && fits(*s);
    });
  if (!c)
    c = constant(compatibleShape(shapeA), -0.5, 0.5, rng.chance(0.5));
  auto predicate = static_cast<ComparePredicate>(rng.below(6));
  auto condShape = broadcast(shapeA, c->shape());
  auto onTrue = pick([&](const Entry &e) {
    auto s = broadcast(*condShape, e.shape());
    return s && fits(*s);
  });
  if (!onTrue)
    return false;
  auto s1 = broadcast(*condShape, onTrue->shape());
  std::optional<Entry> onFalse;
  if (rng.chance(0.5))
    onFalse = pick([&](const Entry &e) {
      auto s = broadcast(*s1, e.shape());
      return e.value != onTrue->value && s && fits(*s);
    });
  if (!onFalse)
    onFalse = constant(compatibleShape(*s1), -1, 1, rng.chance(0.5));
  Value cond = CompareOp::create(b, loc, predicate, a->value, c->value);
  Entry out;
  out.value = SelectOp::create(b, loc, cond, onTrue->value, onFalse->value);
  out.range = Range::hull(onTrue->range, onFalse->range);
  out.exact = onTrue->exact && onFalse->exact;
  out.computed = true;
  push(out);
  return true;
}

bool GraphGenerator::addClip() {
  auto x = pick([](const Entry &) { return true; });
  if (!x)
    return false;
  // Bounds are multiples of 1/8: exact in f32.
  double lo = rng.between(-16, 8) / 8.0;
  double hi = lo + rng.between(1, 16) / 8.0;
  Entry out = *x;
  out.value = ClipOp::create(b, loc, x->value, b.getF64FloatAttr(lo),
                             b.getF64FloatAttr(hi));
  out.range = {std::clamp(x->range.lo, lo, hi),
               std::clamp(x->range.hi, lo, hi)};
  out.computed = true;
  push(out);
  return true;
}

/// floor, ceil or round of an exact value: discontinuous, so only exact
/// values (a last-bit difference could move a result by one), and exact
/// themselves. Exact values are multiples of 1/16, halves among them, which
/// test round's ties to even.
bool GraphGenerator::addRounding() {
  auto x = pick([](const Entry &e) { return e.exact; });
  if (!x)
    return false;
  Entry out = *x;
  out.computed = true;
  Range r = x->range;
  switch (rng.below(3)) {
  case 0:
    out.value = FloorOp::create(b, loc, x->value);
    out.range = {std::floor(r.lo), std::floor(r.hi)};
    break;
  case 1:
    out.value = CeilOp::create(b, loc, x->value);
    out.range = {std::ceil(r.lo), std::ceil(r.hi)};
    break;
  default:
    out.value = RoundOp::create(b, loc, x->value);
    out.range = {std::nearbyint(r.lo), std::nearbyint(r.hi)};
    break;
  }
  push(out);
  return true;
}

bool GraphGenerator::addCastRoundTrip() {
  auto x = pick([](const Entry &e) { return e.exact; });
  if (!x)
    return false;
  Type types[] = {b.getF16Type(), b.getBF16Type(), b.getI32Type(),
                  b.getI1Type()};
  int which = rng.below(4);
  auto midType = RankedTensorType::get(x->shape(), types[which]);
  Value mid = CastOp::create(b, loc, midType, x->value);
  Entry out = *x;
  out.value = CastOp::create(b, loc, x->type(), mid);
  out.computed = true;
  if (which == 2)
    out.range = {std::trunc(x->range.lo), std::trunc(x->range.hi)};
  else if (which == 3)
    out.range = {0, 1};
  else // rounding to 8 or 11 bits of mantissa moves values by < 1%
    out.range = {x->range.lo - 0.01 * x->range.magnitude(),
                 x->range.hi + 0.01 * x->range.magnitude()};
  push(out);
  return true;
}

bool GraphGenerator::addReduce() {
  auto x = pick([](const Entry &e) { return e.rank() >= 1; });
  if (!x)
    return false;
  int64_t rank = x->rank();
  SmallVector<int64_t> axes;
  int64_t n = 1;
  for (int64_t i = 0; i < rank; ++i)
    if (rng.chance(0.5)) {
      axes.push_back(rng.chance(0.3) ? i - rank : i);
      n *= x->shape()[i];
    }
  if (axes.empty()) {
    int64_t i = rng.below(rank);
    axes.push_back(i);
    n = x->shape()[i];
  }
  auto kind = static_cast<ReduceKind>(rng.below(4));
  Entry out = *x;
  out.value = ReduceOp::create(b, loc, kind, x->value, axes, rng.chance(0.5));
  out.computed = true;
  out.exact = x->exact && (kind == ReduceKind::max || kind == ReduceKind::min);
  if (kind == ReduceKind::sum)
    out.range = {x->range.lo * n, x->range.hi * n};
  push(bounded(out));
  return true;
}

bool GraphGenerator::addSoftmax() {
  auto x = pick([](const Entry &e) { return e.rank() >= 1; });
  if (!x)
    return false;
  Entry out;
  out.value = SoftmaxOp::create(b, loc, x->value,
                                static_cast<uint64_t>(rng.below(x->rank())));
  out.range = {0, 1};
  out.computed = true;
  push(out);
  return true;
}

bool GraphGenerator::addLayerNorm() {
  auto x = pick(
      [](const Entry &e) { return e.rank() >= 1 && e.shape().back() >= 2; });
  if (!x)
    return false;
  int64_t rank = x->rank();
  int64_t k = rng.between(1, std::min<int64_t>(rank, 2));
  ArrayRef<int64_t> trailing = x->shape().take_back(k);
  int64_t n = product(trailing);
  SmallVector<int64_t> axes =
      llvm::to_vector(llvm::seq<int64_t>(rank - k, rank));
  Entry scale = constantOperand(trailing, 0.5, 1.5);
  std::optional<Entry> bias;
  if (rng.chance(0.6))
    bias = constantOperand(trailing, -0.5, 0.5);
  // eps >= 0.25 bounds how much rounding noise in x a near-constant row
  // amplifies (1/sqrt(eps) <= 2). With eps = 0.01 (x10), inputs near 8 whose
  // last bits differ between the compiled code and the evaluator (a few
  // ulps, 1e-6) gave 1.4e-5 on a near-zero output, over atol: seed 4621 of
  // the 10,000-graph run (scripts/difftest.sh 0 9999 20-200).
  double eps = rng.chance(0.5) ? 0.25 : 1.0;
  Entry out;
  out.value = LayerNormOp::create(
      b, loc, x->value, scale.value, bias ? bias->value : Value(),
      b.getDenseI64ArrayAttr(axes), b.getF64FloatAttr(eps));
  // |x - mean| <= sqrt(n - 1) * std for every element.
  double norm = std::sqrt(static_cast<double>(n - 1));
  Range r = Range::ofCorners({-norm * scale.range.lo, -norm * scale.range.hi,
                              norm * scale.range.lo, norm * scale.range.hi});
  if (bias)
    r = {r.lo + bias->range.lo, r.hi + bias->range.hi};
  out.range = r;
  out.computed = true;
  push(bounded(out));
  return true;
}

bool GraphGenerator::addMatmul() {
  auto lhs = pick([](const Entry &e) { return e.rank() >= 2; });
  if (!lhs)
    return false;
  ArrayRef<int64_t> ls = lhs->shape();
  int64_t k = ls.back(), m = ls[ls.size() - 2];
  auto resultShape =
      [&](ArrayRef<int64_t> rs) -> std::optional<SmallVector<int64_t>> {
    if (rs.size() < 2 || rs[rs.size() - 2] != k)
      return std::nullopt;
    auto batch = broadcast(ls.drop_back(2), rs.drop_back(2));
    if (!batch)
      return std::nullopt;
    batch->push_back(m);
    batch->push_back(rs.back());
    return batch;
  };
  std::optional<Entry> rhs;
  if (rng.chance(0.5)) {
    rhs = pick([&](const Entry &e) {
      auto s = resultShape(e.shape());
      return s && fits(*s);
    });
  }
  if (!rhs && rng.chance(0.5)) {
    // x · yᵀ for a y of shape [..., N, K] (attention's Q·Kᵀ).
    auto y = pick([&](const Entry &e) {
      return e.rank() >= 2 && e.shape().back() == k &&
             broadcast(ls.drop_back(2), e.shape().drop_back(2)) &&
             fits(e.shape());
    });
    if (y) {
      SmallVector<int64_t> perm =
          llvm::to_vector(llvm::seq<int64_t>(0, y->rank()));
      std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
      SmallVector<int64_t> transposed(y->shape());
      std::swap(transposed[transposed.size() - 1],
                transposed[transposed.size() - 2]);
      auto s = resultShape(transposed);
      if (s && fits(*s))
        rhs = transpose(*y, perm);
    }
  }
  if (!rhs) {
    int64_t nDim = rng.between(1, options.maxDimSize);
    SmallVector<int64_t> shape = {k, nDim};
    if (!fits(*resultShape(shape)))
      return false;
    rhs = constantOperand(shape, -1, 1);
  }
  Entry out;
  out.value = MatmulOp::create(b, loc, lhs->value, rhs->value);
  Range a = lhs->range, c = rhs->range;
  Range p =
      Range::ofCorners({a.lo * c.lo, a.lo * c.hi, a.hi * c.lo, a.hi * c.hi});
  out.range = {p.lo * k, p.hi * k};
  out.computed = true;
  push(bounded(out));
  return true;
}

bool GraphGenerator::addLinear() {
  auto x = pick([](const Entry &e) { return e.rank() >= 2; });
  if (!x)
    return false;
  ArrayRef<int64_t> s = x->shape();
  bool transposeInput = rng.chance(0.25);
  bool transposeWeight = rng.chance(0.4);
  int64_t m = s[s.size() - (transposeInput ? 1 : 2)];
  int64_t k = s[s.size() - (transposeInput ? 2 : 1)];
  int64_t n = rng.between(1, options.maxDimSize);
  SmallVector<int64_t> result(s.drop_back(2));
  result.push_back(m);
  result.push_back(n);
  if (!fits(result))
    return false;
  SmallVector<int64_t> wShape =
      transposeWeight ? SmallVector<int64_t>{n, k} : SmallVector<int64_t>{k, n};
  Entry w = constantOperand(wShape, -1, 1);
  std::optional<Entry> bias;
  if (rng.chance(0.6)) {
    SmallVector<int64_t> biasShape =
        rng.chance(0.7) ? SmallVector<int64_t>{n} : SmallVector<int64_t>{m, n};
    bias = constantOperand(biasShape, -1, 1);
  }
  Entry out;
  out.value =
      LinearOp::create(b, loc, x->value, w.value, bias ? bias->value : Value(),
                       transposeInput, transposeWeight);
  Range a = x->range, c = w.range;
  Range p =
      Range::ofCorners({a.lo * c.lo, a.lo * c.hi, a.hi * c.lo, a.hi * c.hi});
  out.range = {p.lo * k, p.hi * k};
  if (bias)
    out.range = {out.range.lo + bias->range.lo, out.range.hi + bias->range.hi};
  out.computed = true;
  push(bounded(out));
  return true;
}

bool GraphGenerator::addConv2D() {
  auto x = pick([&](const Entry &e) {
    return e.rank() >= 2 && e.rank() <= 4 && options.maxRank >= 4;
  });
  if (!x)
    return false;
  Entry in = toNCHW(*x);
  ArrayRef<int64_t> s = in.shape();
  int64_t c = s[1], h = s[2], w = s[3];
  SmallVector<int64_t> divisors;
  for (int64_t g = 1; g <= c; ++g)
    if (c % g == 0)
      divisors.push_back(g);
  int64_t groups = rng.chance(0.6) ? 1 : divisors[rng.below(divisors.size())];
  int64_t f = groups * rng.between(1, std::max<int64_t>(1, 4 / groups));
  int64_t kh = rng.between(1, 3), kw = rng.between(1, 3);
  int64_t dh = rng.chance(0.2) ? 2 : 1, dw = rng.chance(0.2) ? 2 : 1;
  int64_t sh = rng.between(1, 2), sw = rng.between(1, 2);
  SmallVector<int64_t> pad = {rng.between(0, 1), rng.between(0, 1),
                              rng.between(0, 1), rng.between(0, 1)};
  auto outSize = [](int64_t in, int64_t k, int64_t st, int64_t p0, int64_t p1,
                    int64_t d) {
    int64_t span = in + p0 + p1 - (d * (k - 1) + 1);
    return span < 0 ? 0 : span / st + 1;
  };
  int64_t oh = outSize(h, kh, sh, pad[0], pad[2], dh);
  int64_t ow = outSize(w, kw, sw, pad[1], pad[3], dw);
  if (oh <= 0 || ow <= 0) {
    kh = kw = dh = dw = 1;
    oh = outSize(h, kh, sh, pad[0], pad[2], dh);
    ow = outSize(w, kw, sw, pad[1], pad[3], dw);
  }
  if (!fits({s[0], f, oh, ow}))
    return false;
  Entry weight = constantOperand({f, c / groups, kh, kw}, -1, 1);
  std::optional<Entry> bias;
  if (rng.chance(0.5))
    bias = constantOperand({f}, -1, 1);
  Entry out;
  out.value = Conv2DOp::create(
      b, loc, in.value, weight.value, bias ? bias->value : Value(),
      b.getDenseI64ArrayAttr({sh, sw}), b.getDenseI64ArrayAttr(pad),
      b.getDenseI64ArrayAttr({dh, dw}), b.getI64IntegerAttr(groups));
  int64_t terms = (c / groups) * kh * kw;
  Range a = in.range, wr = weight.range;
  Range p = Range::ofCorners(
      {a.lo * wr.lo, a.lo * wr.hi, a.hi * wr.lo, a.hi * wr.hi, 0.0});
  out.range = {p.lo * terms, p.hi * terms};
  if (bias)
    out.range = {out.range.lo + bias->range.lo, out.range.hi + bias->range.hi};
  out.computed = true;
  push(bounded(out));
  return true;
}

bool GraphGenerator::addPool2D() {
  auto x = pick([&](const Entry &e) {
    return e.rank() >= 2 && e.rank() <= 4 && options.maxRank >= 4;
  });
  if (!x)
    return false;
  Entry in = toNCHW(*x);
  ArrayRef<int64_t> s = in.shape();
  int64_t kh = rng.between(1, std::min<int64_t>(3, s[2]));
  int64_t kw = rng.between(1, std::min<int64_t>(3, s[3]));
  int64_t sh = rng.between(1, 2), sw = rng.between(1, 2);
  // Padding smaller than the kernel: every window holds an input element.
  SmallVector<int64_t> pad = {rng.between(0, std::min<int64_t>(1, kh - 1)),
                              rng.between(0, std::min<int64_t>(1, kw - 1)),
                              rng.between(0, std::min<int64_t>(1, kh - 1)),
                              rng.between(0, std::min<int64_t>(1, kw - 1))};
  auto kind = rng.chance(0.5) ? PoolKind::max : PoolKind::avg;
  bool countPad = kind == PoolKind::avg && rng.chance(0.4);
  Entry out = in;
  out.value = Pool2DOp::create(b, loc, kind, in.value, {kh, kw}, {sh, sw}, pad,
                               countPad);
  out.computed = true;
  out.exact = in.exact && kind == PoolKind::max;
  if (countPad)
    out.range = {std::min(in.range.lo, 0.0), std::max(in.range.hi, 0.0)};
  push(out);
  return true;
}

bool GraphGenerator::addGlobalAvgPool() {
  auto x = pick([&](const Entry &e) {
    return e.rank() >= 2 && e.rank() <= 4 && options.maxRank >= 4;
  });
  if (!x)
    return false;
  Entry in = toNCHW(*x);
  Entry out = in;
  out.value = GlobalAvgPoolOp::create(b, loc, in.value);
  out.computed = true;
  out.exact = false;
  push(out);
  return true;
}

bool GraphGenerator::addTranspose() {
  auto x = pick([](const Entry &e) { return e.rank() >= 2; });
  if (!x)
    return false;
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, x->rank()));
  for (int64_t i = x->rank() - 1; i > 0; --i)
    std::swap(perm[i], perm[rng.below(i + 1)]);
  push(transpose(*x, perm));
  return true;
}

bool GraphGenerator::addReshape() {
  auto x = pick([](const Entry &) { return true; });
  if (!x)
    return false;
  // Distribute the prime factors of the element count over a random rank.
  int64_t n = product(x->shape());
  SmallVector<int64_t> primes;
  for (int64_t p = 2, m = n; m > 1; ++p)
    while (m % p == 0) {
      primes.push_back(p);
      m /= p;
    }
  int64_t rank = rng.between(1, options.maxRank);
  SmallVector<int64_t> shape(rank, 1);
  for (int64_t p : primes)
    shape[rng.below(rank)] *= p;
  push(reshape(*x, shape));
  return true;
}

bool GraphGenerator::addBroadcastTo() {
  auto x = pick([&](const Entry &e) {
    return e.rank() < options.maxRank || llvm::is_contained(e.shape(), 1);
  });
  if (!x)
    return false;
  SmallVector<int64_t> shape;
  if (x->rank() < options.maxRank && rng.chance(0.6))
    shape.push_back(rng.between(1, options.maxDimSize));
  for (int64_t d : x->shape())
    shape.push_back(
        d == 1 && rng.chance(0.6) ? rng.between(1, options.maxDimSize) : d);
  if (!fits(shape))
    return false;
  Entry out = *x;
  out.value = BroadcastToOp::create(
      b, loc, RankedTensorType::get(shape, b.getF32Type()), x->value);
  out.computed = true;
  push(out);
  return true;
}

bool GraphGenerator::addConcat() {
  auto a = pick([](const Entry &e) { return e.rank() >= 1; });
  if (!a)
    return false;
  int64_t axis = rng.below(a->rank());
  SmallVector<int64_t> shape(a->shape());
  auto matches = [&](const Entry &e) {
    if (e.rank() != static_cast<int64_t>(shape.size()))
      return false;
    for (int64_t i = 0; i < e.rank(); ++i)
      if (i != axis && e.shape()[i] != shape[i])
        return false;
    return true;
  };
  SmallVector<Entry> parts = {*a};
  int64_t total = shape[axis];
  for (int i = 0, e = rng.between(1, 2); i < e; ++i) {
    std::optional<Entry> p = rng.chance(0.7) ? pick(matches) : std::nullopt;
    if (!p) {
      SmallVector<int64_t> cs(shape);
      cs[axis] = rng.between(1, 3);
      p = constant(cs, -1, 1, rng.chance(0.3));
    }
    parts.push_back(*p);
    total += p->shape()[axis];
  }
  shape[axis] = total;
  if (!fits(shape))
    return false;
  if (rng.chance(0.5))
    std::swap(parts[0], parts[1]);
  // Sometimes a concat of all but the last part first, as DenseNet joins
  // every earlier feature map at each layer (gopt-fold's
  // ReuseConcatPrefix then makes the full one read it).
  bool prefixFirst = parts.size() >= 3 && rng.chance(0.3);
  auto join = [&](ArrayRef<Entry> joined) {
    SmallVector<Value> values;
    Entry out = joined.front();
    for (const Entry &p : joined) {
      values.push_back(p.value);
      out.range = Range::hull(out.range, p.range);
      out.exact = out.exact && p.exact;
    }
    out.value = ConcatOp::create(b, loc, values, static_cast<uint64_t>(axis));
    out.computed = true;
    push(out);
  };
  if (prefixFirst)
    join(ArrayRef<Entry>(parts).drop_back());
  join(parts);
  return true;
}

bool GraphGenerator::addSlice() {
  auto x = pick([](const Entry &e) { return e.rank() >= 1; });
  if (!x)
    return false;
  SmallVector<int64_t> starts, ends, steps;
  for (int64_t d : x->shape()) {
    int64_t step = rng.chance(0.25) ? 2 : 1;
    int64_t start = rng.between(0, d - 1);
    int64_t end = rng.between(start + 1, d);
    // Python-style forms: negative starts/ends, ends past the dimension.
    if (rng.chance(0.2))
      start -= d;
    if (end == d && rng.chance(0.3))
      end += rng.between(1, 4);
    else if (end < d && rng.chance(0.2))
      end -= d;
    starts.push_back(start);
    ends.push_back(end);
    steps.push_back(step);
  }
  push(Entry{SliceOp::create(b, loc, x->value, starts, ends, steps), x->range,
             x->exact, true});
  return true;
}

/// A recurrent cell's gates: unit-step slices of one value along one dim,
/// each read by one elementwise op alone, the results combined elementwise
/// (the chains gopt-fuse takes into one kernel as views of the value).
bool GraphGenerator::addGates() {
  auto x = pick([](const Entry &e) {
    return llvm::any_of(e.shape(), [](int64_t d) { return d >= 2; });
  });
  if (!x)
    return false;
  SmallVector<int64_t> dims;
  for (auto [d, size] : llvm::enumerate(x->shape()))
    if (size >= 2)
      dims.push_back(d);
  int64_t dim = dims[rng.below(dims.size())];
  int64_t size = x->shape()[dim];
  // A slice, an op and a combining op per gate: no more gates than the
  // ops still to add call for (two at least).
  int64_t budget = std::max<int64_t>(2, (options.numOps - counter.count) / 3);
  int64_t parts = rng.between(2, std::min<int64_t>({4, size, budget}));
  int64_t part = size / parts;
  std::optional<Entry> gates;
  for (int64_t i = 0; i < parts; ++i) {
    SmallVector<int64_t> starts(x->rank(), 0), ends(x->shape()),
        steps(x->rank(), 1);
    starts[dim] = i * part;
    ends[dim] = (i + 1) * part;
    Entry slice{SliceOp::create(b, loc, x->value, starts, ends, steps),
                x->range, x->exact, true};
    Entry gate = bounded(unary(rng.below(kNumUnary), slice));
    if (gates)
      gates = bounded(binary(rng.below(kNumBinary), *gates, gate));
    else
      gates = gate;
  }
  push(*gates);
  return true;
}

bool GraphGenerator::addPad() {
  auto x = pick([](const Entry &e) { return e.rank() >= 1; });
  if (!x)
    return false;
  SmallVector<int64_t> low, high, shape;
  for (int64_t d : x->shape()) {
    low.push_back(rng.between(0, 2));
    high.push_back(rng.between(0, 2));
    shape.push_back(d + low.back() + high.back());
  }
  if (!fits(shape))
    return false;
  double value = rng.between(-4, 4) / 4.0;
  Entry out = *x;
  out.value = PadOp::create(b, loc, x->value, low, high, APFloat(value));
  out.range = Range::hull(x->range, {value, value});
  out.computed = true;
  push(out);
  return true;
}

/// Random indices into a dim of size `d`, in range, negative ones among
/// them (counted from the back), i32 or i64.
Value GraphGenerator::constantIndices(ArrayRef<int64_t> shape, int64_t d) {
  bool i32 = rng.chance(0.3);
  auto type =
      RankedTensorType::get(shape, i32 ? b.getI32Type() : b.getI64Type());
  SmallVector<APInt> indices;
  for (int64_t i = 0, e = product(shape); i < e; ++i)
    indices.push_back(APInt(i32 ? 32 : 64, rng.between(-d, d - 1),
                            /*isSigned=*/true));
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, indices));
}

bool GraphGenerator::addGather() {
  auto x = pick([](const Entry &e) { return e.rank() >= 1; });
  if (!x)
    return false;
  int64_t axis = rng.below(x->rank());
  int64_t d = x->shape()[axis];
  SmallVector<int64_t> indexShape = {rng.between(1, 4)};
  if (x->rank() < options.maxRank && rng.chance(0.3))
    indexShape.push_back(rng.between(1, 3));
  SmallVector<int64_t> shape(x->shape().take_front(axis));
  llvm::append_range(shape, indexShape);
  llvm::append_range(shape, x->shape().drop_front(axis + 1));
  if (!fits(shape))
    return false;
  Value idx = constantIndices(indexShape, d);
  Entry out = *x;
  out.value =
      GatherOp::create(b, loc, x->value, idx, static_cast<uint64_t>(axis));
  out.computed = true;
  push(out);
  return true;
}

/// A gather_elements along a random axis: indices of the input's rank, each
/// dim but the axis at most the input's, the axis 1 to 4 long; constant
/// indices in range, negative ones among them.
bool GraphGenerator::addGatherElements() {
  auto x = pick(
      [](const Entry &e) { return e.rank() >= 1 && product(e.shape()) > 0; });
  if (!x)
    return false;
  int64_t axis = rng.below(x->rank());
  int64_t d = x->shape()[axis];
  SmallVector<int64_t> indexShape(x->shape());
  for (int64_t i = 0; i < x->rank(); ++i)
    indexShape[i] =
        i == axis ? rng.between(1, 4) : rng.between(1, x->shape()[i]);
  if (!fits(indexShape))
    return false;
  Value idx = constantIndices(indexShape, d);
  Entry out = *x;
  out.value = GatherElementsOp::create(b, loc, x->value, idx,
                                       static_cast<uint64_t>(axis));
  out.computed = true;
  push(out);
  return true;
}

/// A resize of one or two dims by ONNX's coordinate maps (half_pixel,
/// asymmetric, align_corners) to between 1 and twice their size, in any
/// mode. Linear interpolation rounds differently in the evaluator (double)
/// and the compiled code (f32): its result is not exact; nearest is.
bool GraphGenerator::addResize() {
  auto x = pick([](const Entry &e) { return e.rank() >= 1; });
  if (!x)
    return false;
  int64_t rank = x->rank();
  SmallVector<int64_t> shape(x->shape());
  SmallVector<double> scale(rank, 1.0), offset(rank, 0.0);
  int64_t dims = std::min<int64_t>(rank, rng.chance(0.5) ? 2 : 1);
  for (int64_t k = 0; k < dims; ++k) {
    int64_t d = rank - 1 - k;
    int64_t in = shape[d], out = rng.between(1, 2 * in);
    double s = static_cast<double>(out) / static_cast<double>(in);
    switch (rng.below(3)) {
    case 0: // half_pixel
      scale[d] = 1.0 / s;
      offset[d] = 0.5 / s - 0.5;
      break;
    case 1: // asymmetric
      scale[d] = 1.0 / s;
      break;
    default: // align_corners
      scale[d] = out > 1 ? static_cast<double>(in - 1) / (out - 1) : 0.0;
      break;
    }
    shape[d] = out;
  }
  if (!fits(shape))
    return false;
  auto mode = static_cast<ResizeMode>(rng.below(5));
  Entry out = *x;
  out.value = ResizeOp::create(
      b, loc, RankedTensorType::get(shape, x->type().getElementType()),
      x->value, mode, scale, offset);
  out.exact = x->exact && mode != ResizeMode::linear;
  out.computed = true;
  push(out);
  return true;
}

/// A small constant subgraph (1-3 ops on dense or splat constants, all
/// folded by gopt-fold) combined with a pool value.
bool GraphGenerator::addConstantSubgraph() {
  auto x = pick([](const Entry &) { return true; });
  if (!x)
    return false;
  SmallVector<int64_t> shape = compatibleShape(x->shape());
  Entry c = constant(shape, -1, 1, rng.chance(0.4));
  for (int i = 0, e = rng.between(1, 3); i < e; ++i) {
    switch (rng.below(3)) {
    case 0:
      c = unary(rng.below(kNumUnary), c);
      break;
    case 1:
      c = binary(rng.below(kNumBinary), c,
                 constant(compatibleShape(shape), -1, 1, rng.chance(0.5)));
      break;
    default:
      if (c.rank() >= 2) {
        SmallVector<int64_t> perm =
            llvm::to_vector(llvm::seq<int64_t>(0, c.rank()));
        std::reverse(perm.begin(), perm.end());
        c = transpose(transpose(c, perm), perm);
      } else {
        c = unary(kNeg, c);
      }
      break;
    }
    c = bounded(c);
  }
  // The chain may have broadcast c to a larger shape: combine only if the
  // result still fits.
  auto s = broadcast(x->shape(), c.shape());
  if (!s || !fits(*s))
    return true; // the chain stays as dead constant code for gopt-dce
  int kind = rng.chance(0.5) ? kAdd : kMul;
  push(bounded(binary(kind, *x, c)));
  return true;
}

/// An op that gopt-fold's identities remove.
bool GraphGenerator::addIdentity() {
  auto x = pick([](const Entry &e) { return e.computed; });
  if (!x)
    return false;
  SmallVector<int64_t> ones(rng.between(0, x->rank()), 1);
  Entry out;
  switch (rng.below(7)) {
  case 0:
    out = binary(kMul, *x, splat(ones, 1.0));
    break;
  case 1:
    out = binary(kAdd, *x, splat(ones, -0.0));
    break;
  case 2:
    out = binary(kDiv, *x, splat(ones, 1.0));
    break;
  case 3:
    out = unary(kNeg, unary(kNeg, *x));
    break;
  case 4:
    out = binary(rng.chance(0.5) ? kMax : kMin, *x, *x);
    break;
  case 5: {
    if (x->rank() < 2)
      return false;
    SmallVector<int64_t> perm =
        llvm::to_vector(llvm::seq<int64_t>(0, x->rank()));
    std::swap(perm[0], perm[perm.size() - 1]);
    out = transpose(transpose(*x, perm), perm);
    break;
  }
  default: {
    SmallVector<int64_t> flat = {product(x->shape())};
    out = reshape(reshape(*x, flat), x->shape());
    break;
  }
  }
  out.range = x->range;
  push(out);
  return true;
}

/// A copy of an earlier op (commutative operands possibly swapped): work
/// for cse.
bool GraphGenerator::addDuplicate() {
  if (producers.empty())
    return false;
  size_t index = producers[producers.size() - 1 -
                           rng.below(std::min<size_t>(producers.size(), 8))];
  Entry original = pool[index];
  Operation *op = original.value.getDefiningOp();
  Operation *copy = b.clone(*op);
  if (op->hasTrait<OpTrait::IsCommutative>() && rng.chance(0.5)) {
    copy->setOperand(0, op->getOperand(1));
    copy->setOperand(1, op->getOperand(0));
  }
  Entry out = original;
  out.value = copy->getResult(0);
  push(out, /*cloneable=*/false);
  return true;
}

/// Ops nobody reads: work for gopt-dce.
bool GraphGenerator::addDeadBranch() {
  auto x = pick([](const Entry &) { return true; });
  if (!x)
    return false;
  Entry e = unary(rng.below(kNumUnary), *x);
  if (rng.chance(0.5))
    e = binary(rng.below(kNumBinary), e, splat({}, 0.5));
  (void)e; // deliberately not in the pool
  return true;
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> GraphGenerator::generate() {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());

  // Inputs: a first shape (rank 4 now and then, for conv and pooling), the
  // others often broadcast-compatible with it.
  SmallVector<Type> inputTypes;
  int64_t numInputs = rng.between(1, options.maxInputs);
  SmallVector<int64_t> first;
  for (int64_t i = 0; i < numInputs; ++i) {
    SmallVector<int64_t> shape;
    if (i == 0) {
      int64_t rank = options.maxRank >= 4 && rng.chance(0.3)
                         ? 4
                         : rng.between(1, options.maxRank);
      shape = first = randomShape(rank);
    } else if (rng.chance(0.5)) {
      shape = compatibleShape(first);
      if (shape.empty())
        shape.push_back(1);
    } else {
      shape = randomShape(rng.between(1, options.maxRank));
    }
    inputTypes.push_back(RankedTensorType::get(shape, b.getF32Type()));
  }
  auto fn =
      func::FuncOp::create(b, loc, "main", b.getFunctionType(inputTypes, {}));
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToEnd(body);
  for (BlockArgument arg : body->getArguments())
    pool.push_back({arg, {-1, 1}, /*exact=*/true, /*computed=*/false});

  struct Weighted {
    Family family;
    int weight;
  };
  const Weighted families[] = {
      {&GraphGenerator::addUnary, 14},
      {&GraphGenerator::addBinary, 14},
      {&GraphGenerator::addSelect, 4},
      {&GraphGenerator::addClip, 3},
      {&GraphGenerator::addRounding, 2},
      {&GraphGenerator::addCastRoundTrip, 2},
      {&GraphGenerator::addReduce, 5},
      {&GraphGenerator::addSoftmax, 3},
      {&GraphGenerator::addLayerNorm, 3},
      {&GraphGenerator::addMatmul, 5},
      {&GraphGenerator::addLinear, 4},
      {&GraphGenerator::addConv2D, 3},
      {&GraphGenerator::addPool2D, 2},
      {&GraphGenerator::addGlobalAvgPool, 1},
      {&GraphGenerator::addTranspose, 3},
      {&GraphGenerator::addReshape, 3},
      {&GraphGenerator::addBroadcastTo, 2},
      {&GraphGenerator::addConcat, 3},
      {&GraphGenerator::addSlice, 3},
      {&GraphGenerator::addGates, 2},
      {&GraphGenerator::addPad, 2},
      {&GraphGenerator::addGather, 2},
      {&GraphGenerator::addGatherElements, 2},
      {&GraphGenerator::addResize, 2},
      {&GraphGenerator::addConstantSubgraph, 5},
      {&GraphGenerator::addIdentity, 3},
      {&GraphGenerator::addDuplicate, 4},
      {&GraphGenerator::addDeadBranch, 2},
  };
  int totalWeight = 0;
  for (const Weighted &w : families)
    totalWeight += w.weight;

  for (int64_t attempts = 0;
       counter.count < options.numOps && attempts < 100 * options.numOps;
       ++attempts) {
    int64_t r = rng.below(totalWeight);
    for (const Weighted &w : families) {
      if (r < w.weight) {
        (this->*w.family)();
        break;
      }
      r -= w.weight;
    }
  }

  // Results: the last computed value and a few others.
  SmallVector<Value> results;
  SmallVector<size_t> computed;
  for (size_t i = 0; i < pool.size(); ++i)
    if (pool[i].computed)
      computed.push_back(i);
  if (computed.empty()) {
    push(unary(kTanh, pool.front()));
    computed.push_back(pool.size() - 1);
  }
  results.push_back(pool[computed.back()].value);
  for (int64_t i = 1, e = rng.between(1, options.maxResults); i < e; ++i) {
    Value v = pool[computed[rng.below(computed.size())]].value;
    if (!llvm::is_contained(results, v))
      results.push_back(v);
  }
  func::ReturnOp::create(b, loc, results);
  fn.setFunctionType(
      b.getFunctionType(inputTypes, ValueRange(results).getTypes()));
  return module;
}

} // namespace

OwningOpRef<ModuleOp>
mlir::gopt::generateRandomGraph(MLIRContext &context,
                                const RandomGraphOptions &options) {
  context.getOrLoadDialect<GOptDialect>();
  context.getOrLoadDialect<func::FuncDialect>();
  Location loc = UnknownLoc::get(&context);
  if (options.numOps < 1 || options.maxRank < 1 || options.maxRank > 6 ||
      options.maxDimSize < 1 || options.maxInputs < 1 ||
      options.maxResults < 1 || options.maxElements < options.maxDimSize) {
    emitError(loc) << "random graph options out of range: need ops >= 1, "
                      "1 <= max-rank <= 6, max-dim >= 1, inputs >= 1, "
                      "results >= 1 and max-elements >= max-dim";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = GraphGenerator(context, options).generate();
  if (failed(verify(*module))) {
    emitError(loc) << "the random graph of seed " << options.seed
                   << " does not verify (a generator bug)";
    return nullptr;
  }
  return module;
}
