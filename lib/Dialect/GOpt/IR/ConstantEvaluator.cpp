//===- ConstantEvaluator.cpp - Evaluate gopt ops on constants -------------===//
//
// Values are held as double (floats) or int64_t (integers, i1 as 0/1) and
// rounded to the element type on write. Computing f16/bf16/f32 arithmetic in
// double and rounding once gives the correctly rounded result for + − × ÷ and
// sqrt, and keeps NaN, ±Inf and −0 as IEEE does.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Dialect/GOpt/IR/ResizeCoordinates.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sys/mman.h>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// A constant tensor in evaluation form. A splat holds one value.
struct ConstTensor {
  RankedTensorType type;
  bool isFloat = false;
  bool splat = false;
  std::vector<double> f;
  std::vector<int64_t> i;

  int64_t numElements() const { return type.getNumElements(); }
  double getF(int64_t k) const { return f[splat ? 0 : k]; }
  int64_t getI(int64_t k) const { return i[splat ? 0 : k]; }
  /// Any element as a double, for integer/float-agnostic code.
  double asDouble(int64_t k) const {
    return isFloat ? getF(k) : static_cast<double>(getI(k));
  }

  static ConstTensor make(RankedTensorType type, bool splat) {
    ConstTensor t;
    t.type = type;
    t.isFloat = isa<FloatType>(type.getElementType());
    t.splat = splat;
    int64_t n = splat ? 1 : type.getNumElements();
    if (t.isFloat)
      t.f.resize(n);
    else
      t.i.resize(n);
    return t;
  }
};

} // namespace

std::optional<DenseElementsAttr>
mlir::gopt::getDenseElements(Attribute attr) {
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(attr))
    return dense;
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr);
  if (!resource || resource.getType().getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return std::nullopt;
  bool splat = false;
  if (!DenseElementsAttr::isValidRawBuffer(resource.getType(), blob->getData(),
                                           splat))
    return std::nullopt;
  return DenseElementsAttr::getFromRawBuffer(resource.getType(),
                                             blob->getData());
}

ArrayRef<char> mlir::gopt::getRawConstantBytes(ElementsAttr attr) {
  auto type = cast<ShapedType>(attr.getType());
  if (type.getElementTypeBitWidth() % 8 != 0)
    return {};
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.isSplat() ? ArrayRef<char>() : dense.getRawData();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return {};
}

/// Whether the evaluator reads and writes `type`'s elements as raw bytes:
/// f32, f64 and integers of 8 to 64 bits. The rest (f16, bf16, i1, odd
/// widths) go through APFloat and APInt.
static bool hasRawElements(Type type) {
  if (type.isF32() || type.isF64())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && llvm::is_contained({8u, 16u, 32u, 64u}, integer.getWidth());
}

/// `raw`'s element k of `type` (hasRawElements) into t.f or t.i.
static void readRawElement(Type type, const char *raw, int64_t k,
                           ConstTensor &t) {
  if (type.isF32()) {
    float v;
    std::memcpy(&v, raw + 4 * k, 4);
    t.f[k] = v;
  } else if (type.isF64()) {
    std::memcpy(&t.f[k], raw + 8 * k, 8);
  } else {
    switch (type.getIntOrFloatBitWidth()) {
    case 8:
      t.i[k] = reinterpret_cast<const int8_t *>(raw)[k];
      break;
    case 16: {
      int16_t v;
      std::memcpy(&v, raw + 2 * k, 2);
      t.i[k] = v;
      break;
    }
    case 32: {
      int32_t v;
      std::memcpy(&v, raw + 4 * k, 4);
      t.i[k] = v;
      break;
    }
    default:
      std::memcpy(&t.i[k], raw + 8 * k, 8);
    }
  }
}

static std::optional<ConstTensor> readTensor(Attribute attr,
                                             int64_t maxElements) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  if (!elements)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(elements.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  // Over the bound before anything is read: a resource (a weight) is only
  // made a DenseElementsAttr, a copy of its bytes in the context, when it
  // will be evaluated.
  auto inline_ = dyn_cast<DenseElementsAttr>(elements);
  if (!(inline_ && inline_.isSplat()) && type.getNumElements() > maxElements)
    return std::nullopt;
  // f32, f64 and whole-byte integers straight from their bytes: no
  // APFloat per element, and no DenseElementsAttr made of a resource.
  if (Type element = type.getElementType(); hasRawElements(element)) {
    bool splat = inline_ && inline_.isSplat();
    ArrayRef<char> raw =
        splat ? inline_.getRawData() : getRawConstantBytes(elements);
    int64_t n = splat ? 1 : type.getNumElements();
    if (static_cast<int64_t>(raw.size()) ==
        n * element.getIntOrFloatBitWidth() / 8) {
      ConstTensor t = ConstTensor::make(type, splat);
      for (int64_t k = 0; k < n; ++k)
        readRawElement(element, raw.data(), k, t);
      return t;
    }
  }
  auto dense = getDenseElements(elements);
  if (!dense)
    return std::nullopt;
  bool splat = dense->isSplat();
  ConstTensor t = ConstTensor::make(type, splat);
  if (t.isFloat) {
    int64_t k = 0;
    for (APFloat v : dense->getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      t.f[k++] = v.convertToDouble();
      if (splat)
        break;
    }
  } else {
    bool isBool = type.getElementType().isInteger(1);
    int64_t k = 0;
    for (APInt v : dense->getValues<APInt>()) {
      t.i[k++] = isBool ? static_cast<int64_t>(v.getZExtValue())
                        : v.getSExtValue();
      if (splat)
        break;
    }
  }
  return t;
}

/// writeTensor for element types with raw elements (hasRawElements).
static Attribute writeRawTensor(const ConstTensor &t) {
  Type elementType = t.type.getElementType();
  int64_t n = t.splat ? 1 : t.numElements();
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  std::vector<char> raw(n * bytes);
  for (int64_t k = 0; k < n; ++k) {
    char *to = raw.data() + k * bytes;
    if (elementType.isF32()) {
      float v = static_cast<float>(t.f[k]);
      std::memcpy(to, &v, 4);
    } else if (elementType.isF64()) {
      std::memcpy(to, &t.f[k], 8);
    } else {
      // The low bytes of the two's complement value: truncation.
      std::memcpy(to, &t.i[k], bytes);
    }
  }
  // A result whose values all came out equal is a splat too: its raw data
  // holds one element, which no blob of the full size may be made from.
  bool allEqual = n > 0;
  for (int64_t k = 1; k < n && allEqual; ++k)
    allEqual = std::memcmp(raw.data(), raw.data() + k * bytes, bytes) == 0;
  if (allEqual)
    return DenseElementsAttr::getFromRawBuffer(
        t.type, ArrayRef<char>(raw.data(), bytes));
  if (n <= kMaxInlineConstantElements)
    return DenseElementsAttr::getFromRawBuffer(t.type, raw);
  return DenseResourceElementsAttr::get(
      t.type, "folded",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(raw, alignof(uint64_t)));
}

static Attribute writeTensor(const ConstTensor &t) {
  Type elementType = t.type.getElementType();
  if (hasRawElements(elementType))
    return writeRawTensor(t);
  int64_t n = t.splat ? 1 : t.numElements();
  DenseElementsAttr dense;
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    SmallVector<APFloat> values;
    values.reserve(n);
    for (int64_t k = 0; k < n; ++k) {
      APFloat v(t.f[k]);
      bool lost;
      v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      values.push_back(v);
    }
    dense = DenseElementsAttr::get(t.type, values);
  } else {
    unsigned width = elementType.getIntOrFloatBitWidth();
    SmallVector<APInt> values;
    values.reserve(n);
    for (int64_t k = 0; k < n; ++k)
      values.push_back(APInt(64, static_cast<uint64_t>(t.i[k]), true)
                           .trunc(width));
    dense = DenseElementsAttr::get(t.type, values);
  }
  // A result whose values all came out equal is a splat too: its raw data
  // holds one element, which no blob of the full size may be made from.
  if (t.splat || dense.isSplat() ||
      t.numElements() <= kMaxInlineConstantElements ||
      t.type.getElementTypeBitWidth() % 8 != 0)
    return dense;
  ArrayRef<char> raw = dense.getRawData();
  return DenseResourceElementsAttr::get(
      t.type, "folded",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(raw, alignof(uint64_t)));
}

std::optional<double> mlir::gopt::getSplatValue(Attribute attr) {
  auto t = readTensor(attr, /*maxElements=*/0);
  if (!t || !t->splat)
    return std::nullopt;
  return t->asDouble(0);
}

//===----------------------------------------------------------------------===//
// Index helpers
//===----------------------------------------------------------------------===//

/// Calls `fn(index, linear)` for every multi-index of `shape` in row-major
/// order.
static void forEachIndex(ArrayRef<int64_t> shape,
                         function_ref<void(ArrayRef<int64_t>, int64_t)> fn) {
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  if (total == 0)
    return;
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < total; ++linear) {
    fn(index, linear);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

std::vector<int64_t> mlir::gopt::broadcastSources(ArrayRef<int64_t> inShape,
                                                  ArrayRef<int64_t> outShape) {
  SmallVector<int64_t> strides = computeStrides(inShape);
  size_t offset = outShape.size() - inShape.size();
  std::vector<int64_t> sources;
  int64_t total = 1;
  for (int64_t d : outShape)
    total *= d;
  sources.reserve(total);
  forEachIndex(outShape, [&](ArrayRef<int64_t> idx, int64_t) {
    int64_t src = 0;
    for (size_t d = 0; d < inShape.size(); ++d)
      if (inShape[d] != 1)
        src += idx[d + offset] * strides[d];
    sources.push_back(src);
  });
  return sources;
}

/// Builds a tensor of `type` whose element k is `in[sources[k]]`, or `fill`
/// where sources[k] < 0.
static ConstTensor gatherElements(const ConstTensor &in, RankedTensorType type,
                                  ArrayRef<int64_t> sources, double fill) {
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  for (size_t k = 0; k < sources.size(); ++k) {
    int64_t s = sources[k];
    if (out.isFloat)
      out.f[k] = s < 0 ? fill : in.getF(s);
    else
      out.i[k] = s < 0 ? static_cast<int64_t>(fill) : in.getI(s);
  }
  return out;
}

/// A splat of `type` with the value of `in`'s (splat) element.
static ConstTensor resplat(const ConstTensor &in, RankedTensorType type) {
  ConstTensor out = ConstTensor::make(type, /*splat=*/true);
  if (out.isFloat)
    out.f[0] = in.getF(0);
  else
    out.i[0] = in.getI(0);
  return out;
}

//===----------------------------------------------------------------------===//
// Elementwise math
//===----------------------------------------------------------------------===//

static double nanPropagatingMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

static double nanPropagatingMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

using UnaryF = std::function<double(double)>;
using UnaryI = std::function<int64_t(int64_t)>;

/// The float (and, where defined, integer) function of a unary op; a null
/// function means "not evaluable".
static std::pair<UnaryF, UnaryI> unaryFunction(Operation *op) {
  auto relu = [](double x) { return std::isnan(x) ? x : (x > 0 ? x : 0.0); };
  return llvm::TypeSwitch<Operation *, std::pair<UnaryF, UnaryI>>(op)
      .Case([](NegOp) {
        return std::make_pair(UnaryF([](double x) { return -x; }),
                              UnaryI([](int64_t x) {
                                return static_cast<int64_t>(
                                    0ULL - static_cast<uint64_t>(x));
                              }));
      })
      .Case([](AbsOp) {
        return std::make_pair(UnaryF([](double x) { return std::fabs(x); }),
                              UnaryI([](int64_t x) {
                                return x < 0 ? static_cast<int64_t>(
                                                   0ULL -
                                                   static_cast<uint64_t>(x))
                                             : x;
                              }));
      })
      .Case([&](ReluOp) {
        return std::make_pair(UnaryF(relu), UnaryI([](int64_t x) {
                                return x > 0 ? x : 0;
                              }));
      })
      .Case([](ExpOp) {
        return std::make_pair(UnaryF([](double x) { return std::exp(x); }),
                              UnaryI());
      })
      .Case([](LogOp) {
        return std::make_pair(UnaryF([](double x) { return std::log(x); }),
                              UnaryI());
      })
      .Case([](SqrtOp) {
        return std::make_pair(UnaryF([](double x) { return std::sqrt(x); }),
                              UnaryI());
      })
      .Case([](TanhOp) {
        return std::make_pair(UnaryF([](double x) { return std::tanh(x); }),
                              UnaryI());
      })
      .Case([](ErfOp) {
        return std::make_pair(UnaryF([](double x) { return std::erf(x); }),
                              UnaryI());
      })
      .Case([](SigmoidOp) {
        return std::make_pair(
            UnaryF([](double x) { return 1.0 / (1.0 + std::exp(-x)); }),
            UnaryI());
      })
      .Case([](SinOp) {
        return std::make_pair(UnaryF([](double x) { return std::sin(x); }),
                              UnaryI());
      })
      .Case([](CosOp) {
        return std::make_pair(UnaryF([](double x) { return std::cos(x); }),
                              UnaryI());
      })
      .Case([](FloorOp) {
        return std::make_pair(UnaryF([](double x) { return std::floor(x); }),
                              UnaryI());
      })
      .Case([](CeilOp) {
        return std::make_pair(UnaryF([](double x) { return std::ceil(x); }),
                              UnaryI());
      })
      .Case([](RoundOp) {
        // std::nearbyint rounds halves to even in the default rounding mode.
        return std::make_pair(
            UnaryF([](double x) { return std::nearbyint(x); }), UnaryI());
      })
      .Case([](SiluOp) {
        return std::make_pair(
            UnaryF([](double x) { return x / (1.0 + std::exp(-x)); }),
            UnaryI());
      })
      .Case([](GeluOp gelu) {
        if (gelu.getTanhApproximation())
          return std::make_pair(UnaryF([](double x) {
                                  const double k = std::sqrt(2.0 / M_PI);
                                  return 0.5 * x *
                                         (1.0 + std::tanh(k * (x + 0.044715 *
                                                                       x * x *
                                                                       x)));
                                }),
                                UnaryI());
        return std::make_pair(UnaryF([](double x) {
                                return 0.5 * x * (1.0 + std::erf(x / M_SQRT2));
                              }),
                              UnaryI());
      })
      .Case([](ClipOp clip) {
        double lo = clip.getMin().convertToDouble();
        double hi = clip.getMax().convertToDouble();
        return std::make_pair(UnaryF([lo, hi](double x) {
                                return nanPropagatingMin(
                                    nanPropagatingMax(x, lo), hi);
                              }),
                              UnaryI([lo, hi](int64_t x) {
                                // Bounds to integers first, so values above
                                // 2^53 keep every bit.
                                auto bound = [](double b) {
                                  if (b <= -0x1p63)
                                    return INT64_MIN;
                                  if (b >= 0x1p63)
                                    return INT64_MAX;
                                  return static_cast<int64_t>(b);
                                };
                                int64_t l = bound(std::ceil(lo));
                                int64_t h = bound(std::floor(hi));
                                return std::min(std::max(x, l), h);
                              }));
      })
      .Default([](Operation *) { return std::make_pair(UnaryF(), UnaryI()); });
}

/// Reciprocal and rsqrt divide: a zero operand is left unfolded.
static bool dividesByOperand(Operation *op) {
  return isa<ReciprocalOp, RsqrtOp>(op);
}

static UnaryF divisionUnary(Operation *op) {
  if (isa<ReciprocalOp>(op))
    return [](double x) { return 1.0 / x; };
  return [](double x) { return 1.0 / std::sqrt(x); };
}

static FailureOr<ConstTensor> evalUnary(Operation *op, const ConstTensor &in,
                                        RankedTensorType type) {
  UnaryF fnF;
  UnaryI fnI;
  if (dividesByOperand(op))
    fnF = divisionUnary(op);
  else
    std::tie(fnF, fnI) = unaryFunction(op);
  ConstTensor out = ConstTensor::make(type, in.splat);
  int64_t n = in.splat ? 1 : in.numElements();
  if (in.isFloat) {
    if (!fnF)
      return failure();
    for (int64_t k = 0; k < n; ++k) {
      if (dividesByOperand(op) && in.f[k] == 0)
        return failure();
      out.f[k] = fnF(in.f[k]);
    }
    return out;
  }
  if (!fnI)
    return failure();
  for (int64_t k = 0; k < n; ++k)
    out.i[k] = fnI(in.i[k]);
  return out;
}

/// Float and integer semantics of a binary op; integer division rounds toward
/// zero. Returns std::nullopt where the result is left unfolded.
static std::optional<double> binaryFloat(Operation *op, double a, double b) {
  return llvm::TypeSwitch<Operation *, std::optional<double>>(op)
      .Case([&](AddOp) { return a + b; })
      .Case([&](SubOp) { return a - b; })
      .Case([&](MulOp) { return a * b; })
      .Case([&](DivOp) -> std::optional<double> {
        if (b == 0)
          return std::nullopt;
        return a / b;
      })
      .Case([&](PowOp) { return std::pow(a, b); })
      .Case([&](MaxOp) { return nanPropagatingMax(a, b); })
      .Case([&](MinOp) { return nanPropagatingMin(a, b); })
      .Default([](Operation *) { return std::nullopt; });
}

static std::optional<int64_t> binaryInt(Operation *op, int64_t a, int64_t b,
                                        unsigned width) {
  // The most negative value of the element type: dividing it by −1
  // overflows, which LLVM leaves undefined.
  int64_t minValue =
      width >= 64 ? INT64_MIN : -(static_cast<int64_t>(1) << (width - 1));
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](AddOp) {
        return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      })
      .Case([&](SubOp) {
        return wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
      })
      .Case([&](MulOp) {
        return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
      })
      .Case([&](DivOp) -> std::optional<int64_t> {
        if (b == 0 || (b == -1 && a == minValue))
          return std::nullopt;
        return a / b;
      })
      .Case([&](MaxOp) { return std::max(a, b); })
      .Case([&](MinOp) { return std::min(a, b); })
      .Default([](Operation *) { return std::nullopt; });
}

template <typename T>
static bool comparePredicate(ComparePredicate p, T a, T b) {
  switch (p) {
  case ComparePredicate::eq:
    return a == b;
  case ComparePredicate::ne:
    return a != b;
  case ComparePredicate::lt:
    return a < b;
  case ComparePredicate::le:
    return a <= b;
  case ComparePredicate::gt:
    return a > b;
  case ComparePredicate::ge:
    return a >= b;
  }
  return false;
}

/// Elementwise op of `inputs` broadcast to `type`; `fn(values, outIndex)`
/// computes one element into `out`.
static FailureOr<ConstTensor>
evalBroadcastElementwise(ArrayRef<const ConstTensor *> inputs,
                         RankedTensorType type,
                         function_ref<LogicalResult(ArrayRef<int64_t> srcs,
                                                    ConstTensor &out,
                                                    int64_t k)>
                             fn) {
  bool allSplat = llvm::all_of(inputs, [](auto *t) { return t->splat; });
  ConstTensor out = ConstTensor::make(type, allSplat);
  if (allSplat) {
    SmallVector<int64_t> srcs(inputs.size(), 0);
    if (failed(fn(srcs, out, 0)))
      return failure();
    return out;
  }
  std::vector<std::vector<int64_t>> sources;
  for (const ConstTensor *t : inputs)
    sources.push_back(t->splat ? std::vector<int64_t>()
                               : broadcastSources(t->type.getShape(),
                                                  type.getShape()));
  SmallVector<int64_t> srcs(inputs.size());
  for (int64_t k = 0, n = type.getNumElements(); k < n; ++k) {
    for (size_t j = 0; j < inputs.size(); ++j)
      srcs[j] = inputs[j]->splat ? 0 : sources[j][k];
    if (failed(fn(srcs, out, k)))
      return failure();
  }
  return out;
}

static FailureOr<ConstTensor> evalBinary(Operation *op, const ConstTensor &lhs,
                                         const ConstTensor &rhs,
                                         RankedTensorType type) {
  const ConstTensor *inputs[] = {&lhs, &rhs};
  return evalBroadcastElementwise(
      inputs, type,
      [&](ArrayRef<int64_t> s, ConstTensor &out, int64_t k) -> LogicalResult {
        if (lhs.isFloat) {
          auto v = binaryFloat(op, lhs.getF(s[0]), rhs.getF(s[1]));
          if (!v)
            return failure();
          out.f[k] = *v;
        } else {
          auto v = binaryInt(op, lhs.getI(s[0]), rhs.getI(s[1]),
                             lhs.type.getElementTypeBitWidth());
          if (!v)
            return failure();
          out.i[k] = *v;
        }
        return success();
      });
}

static FailureOr<ConstTensor> evalCast(const ConstTensor &in,
                                       RankedTensorType type) {
  ConstTensor out = ConstTensor::make(type, in.splat);
  Type target = type.getElementType();
  int64_t n = in.splat ? 1 : in.numElements();
  for (int64_t k = 0; k < n; ++k) {
    double v = in.asDouble(k);
    if (out.isFloat) {
      if (in.isFloat) {
        out.f[k] = v;
        continue;
      }
      // Round the integer once, straight to the target type.
      APFloat f(cast<FloatType>(target).getFloatSemantics());
      bool isBool = in.type.getElementType().isInteger(1);
      f.convertFromAPInt(APInt(64, static_cast<uint64_t>(in.getI(k)), !isBool),
                         !isBool, APFloat::rmNearestTiesToEven);
      bool lost;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      out.f[k] = f.convertToDouble();
      continue;
    }
    if (target.isInteger(1)) {
      out.i[k] = v != 0 ? 1 : 0;
      continue;
    }
    if (!in.isFloat) {
      out.i[k] = in.getI(k);
      continue;
    }
    // Float to integer: NaN and out-of-range values have no defined result.
    unsigned width = target.getIntOrFloatBitWidth();
    double limit = std::ldexp(1.0, width - 1);
    double truncated = std::trunc(v);
    if (std::isnan(v) || truncated < -limit || truncated >= limit)
      return failure();
    out.i[k] = static_cast<int64_t>(truncated);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Reductions and data movement
//===----------------------------------------------------------------------===//

static FailureOr<ConstTensor> evalReduce(ReduceOp op, const ConstTensor &in,
                                         RankedTensorType type) {
  int64_t rank = in.type.getRank();
  SmallVector<bool> reduced(rank, false);
  int64_t count = 1;
  for (int64_t axis : op.getAxes()) {
    int64_t a = *normalizeAxis(axis, rank);
    reduced[a] = true;
    count *= in.type.getDimSize(a);
  }
  ReduceKind kind = op.getKind();
  if (in.splat) {
    ConstTensor out = ConstTensor::make(type, /*splat=*/true);
    bool sum = kind == ReduceKind::sum;
    if (out.isFloat)
      out.f[0] = sum ? in.getF(0) * count : in.getF(0);
    else
      out.i[0] = sum ? static_cast<int64_t>(static_cast<uint64_t>(in.getI(0)) *
                                            static_cast<uint64_t>(count))
                     : in.getI(0);
    return out;
  }
  // Output strides over the kept dimensions.
  SmallVector<int64_t> keptShape;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      keptShape.push_back(in.type.getDimSize(d));
  SmallVector<int64_t> keptStrides = computeStrides(keptShape);
  int64_t outCount = type.getNumElements();
  // −0 is the identity of IEEE addition (−0 + −0 = −0, −0 + x = x).
  std::vector<double> acc(outCount, kind == ReduceKind::max
                                        ? -INFINITY
                                        : (kind == ReduceKind::min ? INFINITY
                                                                   : -0.0));
  std::vector<int64_t> accI(outCount,
                            kind == ReduceKind::max
                                ? INT64_MIN
                                : (kind == ReduceKind::min ? INT64_MAX : 0));
  forEachIndex(in.type.getShape(), [&](ArrayRef<int64_t> idx, int64_t k) {
    int64_t o = 0, j = 0;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        o += idx[d] * keptStrides[j++];
    if (in.isFloat) {
      double v = in.f[k];
      switch (kind) {
      case ReduceKind::sum:
      case ReduceKind::mean:
        acc[o] += v;
        break;
      case ReduceKind::max:
        acc[o] = nanPropagatingMax(acc[o], v);
        break;
      case ReduceKind::min:
        acc[o] = nanPropagatingMin(acc[o], v);
        break;
      }
    } else {
      int64_t v = in.i[k];
      switch (kind) {
      case ReduceKind::sum:
      case ReduceKind::mean:
        accI[o] = static_cast<int64_t>(static_cast<uint64_t>(accI[o]) +
                                       static_cast<uint64_t>(v));
        break;
      case ReduceKind::max:
        accI[o] = std::max(accI[o], v);
        break;
      case ReduceKind::min:
        accI[o] = std::min(accI[o], v);
        break;
      }
    }
  });
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  for (int64_t o = 0; o < outCount; ++o) {
    if (out.isFloat)
      out.f[o] = kind == ReduceKind::mean ? acc[o] / count : acc[o];
    else
      out.i[o] = kind == ReduceKind::mean ? accI[o] / count : accI[o];
  }
  return out;
}

static std::vector<int64_t> transposeSources(TransposeOp op,
                                             RankedTensorType inType,
                                             RankedTensorType outType) {
  SmallVector<int64_t> inStrides = computeStrides(inType.getShape());
  ArrayRef<int64_t> perm = op.getPerm();
  std::vector<int64_t> sources;
  forEachIndex(outType.getShape(), [&](ArrayRef<int64_t> idx, int64_t) {
    int64_t src = 0;
    for (size_t d = 0; d < perm.size(); ++d)
      src += idx[d] * inStrides[perm[d]];
    sources.push_back(src);
  });
  return sources;
}

/// Sources of a strided slice with per-dimension starts and steps.
static std::vector<int64_t> sliceSources(RankedTensorType inType,
                                         RankedTensorType outType,
                                         ArrayRef<int64_t> starts,
                                         ArrayRef<int64_t> steps) {
  SmallVector<int64_t> inStrides = computeStrides(inType.getShape());
  std::vector<int64_t> sources;
  forEachIndex(outType.getShape(), [&](ArrayRef<int64_t> idx, int64_t) {
    int64_t src = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      src += (starts[d] + idx[d] * steps[d]) * inStrides[d];
    sources.push_back(src);
  });
  return sources;
}

static std::vector<int64_t> padSources(PadOp op, RankedTensorType inType,
                                       RankedTensorType outType) {
  SmallVector<int64_t> inStrides = computeStrides(inType.getShape());
  ArrayRef<int64_t> low = op.getLow();
  std::vector<int64_t> sources;
  forEachIndex(outType.getShape(), [&](ArrayRef<int64_t> idx, int64_t) {
    int64_t src = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t i = idx[d] - low[d];
      if (i < 0 || i >= inType.getDimSize(d)) {
        src = -1;
        break;
      }
      src += i * inStrides[d];
    }
    sources.push_back(src);
  });
  return sources;
}

static FailureOr<ConstTensor> evalGather(GatherOp op, const ConstTensor &in,
                                         const ConstTensor &indices,
                                         RankedTensorType type) {
  int64_t axis = *normalizeAxis(op.getAxis(), in.type.getRank());
  int64_t dim = in.type.getDimSize(axis);
  int64_t indexRank = indices.type.getRank();
  SmallVector<int64_t> inStrides = computeStrides(in.type.getShape());
  SmallVector<int64_t> indexStrides = computeStrides(indices.type.getShape());
  std::vector<int64_t> sources;
  bool outOfRange = false;
  forEachIndex(type.getShape(), [&](ArrayRef<int64_t> idx, int64_t) {
    int64_t src = 0;
    for (int64_t d = 0; d < axis; ++d)
      src += idx[d] * inStrides[d];
    int64_t ik = 0;
    for (int64_t d = 0; d < indexRank; ++d)
      ik += idx[axis + d] * indexStrides[d];
    int64_t i = indices.getI(ik);
    if (i < 0)
      i += dim;
    if (i < 0 || i >= dim)
      outOfRange = true;
    src += i * inStrides[axis];
    for (int64_t d = axis + 1; d < in.type.getRank(); ++d)
      src += idx[d - 1 + indexRank] * inStrides[d];
    sources.push_back(src);
  });
  if (outOfRange)
    return failure();
  return gatherElements(in, type, sources, 0.0);
}

/// gopt.gather_elements: each result element the input's at the index the
/// indices give along the axis.
static FailureOr<ConstTensor> evalGatherElements(GatherElementsOp op,
                                                 const ConstTensor &in,
                                                 const ConstTensor &indices,
                                                 RankedTensorType type) {
  int64_t axis = *normalizeAxis(op.getAxis(), in.type.getRank());
  int64_t dim = in.type.getDimSize(axis);
  SmallVector<int64_t> inStrides = computeStrides(in.type.getShape());
  std::vector<int64_t> sources;
  bool outOfRange = false;
  forEachIndex(type.getShape(), [&](ArrayRef<int64_t> idx, int64_t linear) {
    int64_t i = indices.getI(linear);
    if (i < 0)
      i += dim;
    if (i < 0 || i >= dim)
      outOfRange = true;
    int64_t src = 0;
    for (int64_t d = 0; d < in.type.getRank(); ++d)
      src += (d == axis ? i : idx[d]) * inStrides[d];
    sources.push_back(src);
  });
  if (outOfRange)
    return failure();
  return gatherElements(in, type, sources, 0.0);
}

/// gopt.resize: each result element from its taps (ResizeCoordinates.h);
/// linear interpolation in double, one resized dim after another.
static ConstTensor evalResize(ResizeOp op, const ConstTensor &in,
                              RankedTensorType type) {
  RankedTensorType inType = in.type;
  int64_t rank = inType.getRank();
  SmallVector<int64_t> inStrides = computeStrides(inType.getShape());
  SmallVector<int64_t> resized = getResizedDims(op);
  SmallVector<SmallVector<ResizeTap>> taps(rank);
  for (int64_t d : resized)
    taps[d] =
        computeResizeTaps(op.getMode(), op.getScale()[d], op.getOffset()[d],
                          inType.getDimSize(d), type.getDimSize(d));
  if (op.getMode() != ResizeMode::linear) {
    std::vector<int64_t> sources;
    forEachIndex(type.getShape(), [&](ArrayRef<int64_t> idx, int64_t) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src +=
            (taps[d].empty() ? idx[d] : taps[d][idx[d]].lower) * inStrides[d];
      sources.push_back(src);
    });
    return gatherElements(in, type, sources, 0.0);
  }
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  ArrayRef<int64_t> idx;
  std::function<double(size_t, int64_t)> interpolate =
      [&](size_t level, int64_t src) -> double {
    if (level == resized.size())
      return in.getF(src);
    int64_t d = resized[level];
    const ResizeTap &tap = taps[d][idx[d]];
    double lower = interpolate(level + 1, src + tap.lower * inStrides[d]);
    if (tap.upper == tap.lower)
      return lower;
    double upper = interpolate(level + 1, src + tap.upper * inStrides[d]);
    return lower + tap.weight * (upper - lower);
  };
  forEachIndex(type.getShape(), [&](ArrayRef<int64_t> index, int64_t k) {
    idx = index;
    int64_t base = 0;
    for (int64_t d = 0; d < rank; ++d)
      if (taps[d].empty())
        base += idx[d] * inStrides[d];
    out.f[k] = interpolate(0, base);
  });
  return out;
}

static FailureOr<ConstTensor> evalConcat(ConcatOp op,
                                         ArrayRef<ConstTensor> inputs,
                                         RankedTensorType type) {
  auto sameSplat = [&](const ConstTensor &t) {
    const ConstTensor &first = inputs.front();
    if (!t.splat || !first.splat || t.isFloat != first.isFloat)
      return false;
    if (!t.isFloat)
      return t.getI(0) == first.getI(0);
    return t.getF(0) == first.getF(0) &&
           std::signbit(t.getF(0)) == std::signbit(first.getF(0));
  };
  if (llvm::all_of(inputs, sameSplat))
    return resplat(inputs.front(), type);
  int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  // Row-major: for each outer index, copy each input's block in order.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    inner *= type.getDimSize(d);
  int64_t k = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const ConstTensor &t : inputs) {
      int64_t block = t.type.getDimSize(axis) * inner;
      for (int64_t j = 0; j < block; ++j, ++k) {
        int64_t src = o * block + j;
        if (out.isFloat)
          out.f[k] = t.getF(src);
        else
          out.i[k] = t.getI(src);
      }
    }
  return out;
}

//===----------------------------------------------------------------------===//
// Contractions and normalizations
//===----------------------------------------------------------------------===//
//
// Straight loops in double (int64 for integer matmul/linear, wrapping to the
// element width when written back), so the result is the exact value
// rounded once; the compiled kernels round along the way, and agree within
// the tolerances the differential tests use.

/// Most multiply-adds one folded contraction may take (about a tenth of a
/// second): the element bound alone admits 65536 x 65536.
constexpr int64_t kMaxFoldedMultiplyAdds = int64_t(1) << 26;

/// out[outIndex] = bias[biasIndex] (or 0) + sum over p < k of
/// a[aAt(p)] * b[bAt(p)], in double for floats and int64 for integers.
static void storeDot(ConstTensor &out, int64_t outIndex, const ConstTensor &a,
                     function_ref<int64_t(int64_t)> aAt, const ConstTensor &b,
                     function_ref<int64_t(int64_t)> bAt, int64_t k,
                     const ConstTensor *bias, int64_t biasIndex) {
  if (out.isFloat) {
    double sum = bias ? bias->getF(biasIndex) : 0.0;
    for (int64_t p = 0; p < k; ++p)
      sum += a.getF(aAt(p)) * b.getF(bAt(p));
    out.f[outIndex] = sum;
    return;
  }
  int64_t sum = bias ? bias->getI(biasIndex) : 0;
  for (int64_t p = 0; p < k; ++p)
    sum += a.getI(aAt(p)) * b.getI(bAt(p));
  out.i[outIndex] = sum;
}

/// lhs [..., M, K] · rhs [..., K, N], batch dimensions broadcast.
static FailureOr<ConstTensor> evalMatmul(const ConstTensor &lhs,
                                         const ConstTensor &rhs,
                                         RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  int64_t m = shape[rank - 2], n = shape[rank - 1];
  int64_t k = lhs.type.getShape().back();
  if (type.getNumElements() * k > kMaxFoldedMultiplyAdds)
    return failure();
  std::vector<int64_t> lhsBatch =
      broadcastSources(lhs.type.getShape().drop_back(2), shape.drop_back(2));
  std::vector<int64_t> rhsBatch =
      broadcastSources(rhs.type.getShape().drop_back(2), shape.drop_back(2));
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  int64_t outIndex = 0;
  for (size_t b = 0; b < lhsBatch.size(); ++b) {
    int64_t lhsBase = lhsBatch[b] * m * k, rhsBase = rhsBatch[b] * k * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j, ++outIndex)
        storeDot(
            out, outIndex, lhs,
            [&](int64_t p) { return lhsBase + i * k + p; }, rhs,
            [&](int64_t p) { return rhsBase + p * n + j; }, k,
            /*bias=*/nullptr, 0);
  }
  return out;
}

/// input [..., M, K] (or [..., K, M] with transpose_input) · weight [K, N]
/// (or [N, K] with transpose_weight), plus a bias broadcast to the result.
static FailureOr<ConstTensor> evalLinear(LinearOp op,
                                         ArrayRef<ConstTensor> inputs,
                                         RankedTensorType type) {
  const ConstTensor &x = inputs[0], &w = inputs[1];
  const ConstTensor *bias = inputs.size() > 2 ? &inputs[2] : nullptr;
  bool tIn = op.getTransposeInput(), tW = op.getTransposeWeight();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  int64_t m = shape[rank - 2], n = shape[rank - 1];
  int64_t k = x.type.getShape()[tIn ? rank - 2 : rank - 1];
  if (type.getNumElements() * k > kMaxFoldedMultiplyAdds)
    return failure();
  int64_t batches = type.getNumElements() / (m * n);
  std::vector<int64_t> biasSources;
  if (bias)
    biasSources = broadcastSources(bias->type.getShape(), shape);
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  int64_t outIndex = 0;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j, ++outIndex)
        storeDot(
            out, outIndex, x,
            [&](int64_t p) {
              return b * m * k + (tIn ? p * m + i : i * k + p);
            },
            w, [&](int64_t p) { return tW ? j * k + p : p * n + j; }, k, bias,
            bias ? biasSources[outIndex] : 0);
  return out;
}

/// Calls `fn(base, stride)` for every line of `shape` along `axis`: the
/// elements base + t * stride for t < shape[axis].
static void forEachLine(ArrayRef<int64_t> shape, int64_t axis,
                        function_ref<void(int64_t, int64_t)> fn) {
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < static_cast<int64_t>(shape.size()); ++d)
    inner *= shape[d];
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      fn(o * shape[axis] * inner + i, inner);
}

static ConstTensor evalSoftmax(SoftmaxOp op, const ConstTensor &in,
                               RankedTensorType type) {
  int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
  int64_t size = type.getDimSize(axis);
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  forEachLine(type.getShape(), axis, [&](int64_t base, int64_t stride) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t t = 0; t < size; ++t)
      max = std::max(max, in.getF(base + t * stride));
    double sum = 0;
    for (int64_t t = 0; t < size; ++t)
      sum += std::exp(in.getF(base + t * stride) - max);
    for (int64_t t = 0; t < size; ++t)
      out.f[base + t * stride] =
          std::exp(in.getF(base + t * stride) - max) / sum;
  });
  return out;
}

/// (x - mean) / sqrt(var + eps) * scale + bias over the trailing axes, with
/// the population variance.
static ConstTensor evalLayerNorm(LayerNormOp op, ArrayRef<ConstTensor> inputs,
                                 RankedTensorType type) {
  const ConstTensor &x = inputs[0], &scale = inputs[1];
  const ConstTensor *bias = inputs.size() > 2 ? &inputs[2] : nullptr;
  int64_t group = 1;
  for (int64_t d : type.getShape().take_back(op.getAxes().size()))
    group *= d;
  double eps = op.getEpsilon().convertToDouble();
  ConstTensor out = ConstTensor::make(type, /*splat=*/false);
  for (int64_t base = 0; base < type.getNumElements(); base += group) {
    double mean = 0;
    for (int64_t t = 0; t < group; ++t)
      mean += x.getF(base + t);
    mean /= static_cast<double>(group);
    double var = 0;
    for (int64_t t = 0; t < group; ++t)
      var += (x.getF(base + t) - mean) * (x.getF(base + t) - mean);
    var /= static_cast<double>(group);
    double inv = 1 / std::sqrt(var + eps);
    for (int64_t t = 0; t < group; ++t)
      out.f[base + t] = (x.getF(base + t) - mean) * inv * scale.getF(t) +
                        (bias ? bias->getF(t) : 0.0);
  }
  return out;
}

/// Offsets into a row-major image tensor by (batch, channel, row, column):
/// NCHW, or NHWC with `channelsLast`. The same for FCHW / FHWC weights
/// (batch = filter).
struct ImageIndex {
  int64_t c, h, w;
  bool channelsLast;
  ImageIndex(ArrayRef<int64_t> shape, bool channelsLast)
      : c(shape[channelsLast ? 3 : 1]), h(shape[channelsLast ? 1 : 2]),
        w(shape[channelsLast ? 2 : 3]), channelsLast(channelsLast) {}
  int64_t operator()(int64_t n, int64_t ch, int64_t y, int64_t x) const {
    return channelsLast ? ((n * h + y) * w + x) * c + ch
                        : ((n * c + ch) * h + y) * w + x;
  }
};

/// NCHW input, FCHW weight (C / groups input channels per group), optional
/// bias [F], or NHWC / FHWC with channels_last; padding [top, left, bottom,
/// right] reads zeros.
static FailureOr<ConstTensor> evalConv2D(Conv2DOp op,
                                         ArrayRef<ConstTensor> inputs,
                                         RankedTensorType type) {
  const ConstTensor &x = inputs[0], &w = inputs[1];
  const ConstTensor *bias = inputs.size() > 2 ? &inputs[2] : nullptr;
  bool channelsLast = op.getChannelsLast();
  ImageIndex in(x.type.getShape(), channelsLast),
      ws(w.type.getShape(), channelsLast), out(type.getShape(), channelsLast);
  int64_t batch = type.getDimSize(0);
  int64_t groups = op.getGroups();
  int64_t cPerGroup = ws.c, fPerGroup = out.c / groups;
  int64_t kh = ws.h, kw = ws.w;
  ArrayRef<int64_t> strides = op.getStrides(), padding = op.getPadding(),
                    dilations = op.getDilations();
  if (type.getNumElements() * cPerGroup * kh * kw > kMaxFoldedMultiplyAdds)
    return failure();
  ConstTensor result = ConstTensor::make(type, /*splat=*/false);
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t f = 0; f < out.c; ++f) {
      int64_t group = f / fPerGroup;
      for (int64_t oh = 0; oh < out.h; ++oh)
        for (int64_t ow = 0; ow < out.w; ++ow) {
          double sum = bias ? bias->getF(f) : 0.0;
          for (int64_t c = 0; c < cPerGroup; ++c) {
            int64_t ic = group * cPerGroup + c;
            for (int64_t i = 0; i < kh; ++i) {
              int64_t h = oh * strides[0] + i * dilations[0] - padding[0];
              if (h < 0 || h >= in.h)
                continue;
              for (int64_t j = 0; j < kw; ++j) {
                int64_t v = ow * strides[1] + j * dilations[1] - padding[1];
                if (v < 0 || v >= in.w)
                  continue;
                sum += x.getF(in(n, ic, h, v)) * w.getF(ws(f, c, i, j));
              }
            }
          }
          result.f[out(n, f, oh, ow)] = sum;
        }
    }
  return result;
}

/// Max or average over windows of an NCHW (or NHWC) tensor; padding is
/// skipped by max, and counted by avg only with count_include_pad.
static ConstTensor evalPool2D(Pool2DOp op, const ConstTensor &x,
                              RankedTensorType type) {
  bool channelsLast = op.getChannelsLast();
  ImageIndex in(x.type.getShape(), channelsLast),
      out(type.getShape(), channelsLast);
  ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(),
                    padding = op.getPadding();
  bool isMax = op.getKind() == PoolKind::max;
  ConstTensor result = ConstTensor::make(type, /*splat=*/false);
  for (int64_t n = 0; n < type.getDimSize(0); ++n)
    for (int64_t c = 0; c < out.c; ++c)
      for (int64_t oh = 0; oh < out.h; ++oh)
        for (int64_t ow = 0; ow < out.w; ++ow) {
          double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
          int64_t count = 0;
          for (int64_t i = 0; i < kernel[0]; ++i)
            for (int64_t j = 0; j < kernel[1]; ++j) {
              int64_t h = oh * strides[0] + i - padding[0];
              int64_t v = ow * strides[1] + j - padding[1];
              bool inside = h >= 0 && h < in.h && v >= 0 && v < in.w;
              // Padding counts for avg with count_include_pad only where the
              // window lies within the padded input.
              bool padded = h >= -padding[0] && h < in.h + padding[2] &&
                            v >= -padding[1] && v < in.w + padding[3];
              if (!inside) {
                if (!isMax && op.getCountIncludePad() && padded)
                  ++count;
                continue;
              }
              double value = x.getF(in(n, c, h, v));
              acc = isMax ? std::max(acc, value) : acc + value;
              ++count;
            }
          result.f[out(n, c, oh, ow)] =
              isMax ? acc : acc / static_cast<double>(count);
        }
  return result;
}

/// The mean over H and W of an NCHW (or NHWC) tensor.
static ConstTensor evalGlobalAvgPool(GlobalAvgPoolOp op, const ConstTensor &x,
                                     RankedTensorType type) {
  bool channelsLast = op.getChannelsLast();
  ImageIndex in(x.type.getShape(), channelsLast),
      out(type.getShape(), channelsLast);
  ConstTensor result = ConstTensor::make(type, /*splat=*/false);
  for (int64_t n = 0; n < type.getDimSize(0); ++n)
    for (int64_t c = 0; c < in.c; ++c) {
      double sum = 0;
      for (int64_t h = 0; h < in.h; ++h)
        for (int64_t v = 0; v < in.w; ++v)
          sum += x.getF(in(n, c, h, v));
      result.f[out(n, c, 0, 0)] = sum / static_cast<double>(in.h * in.w);
    }
  return result;
}

//===----------------------------------------------------------------------===//
// Data movement on raw bytes
//===----------------------------------------------------------------------===//

/// The elements of `in` to `out` in the order of the result dims `sizes`
/// (row-major in `out`), each read `strides` elements apart in `in`.
/// Elements are kBytes wide (0: `elementBytes`, known at run time). When
/// the dim `in` holds contiguously is not the innermost result dim, the two
/// are copied in square tiles: a row-by-row copy would read each input
/// element from another cache line (a 1024x1024 weight's transpose).
template <int64_t kBytes>
static void transposeElements(const char *in, char *out,
                              ArrayRef<int64_t> sizes,
                              ArrayRef<int64_t> strides, int64_t elementBytes) {
  const int64_t width = kBytes ? kBytes : elementBytes;
  auto copy = [&](char *to, const char *from) {
    std::memcpy(to, from, kBytes ? kBytes : elementBytes);
  };
  int64_t rank = sizes.size(), last = rank - 1;
  SmallVector<int64_t> outStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    outStrides[d] = outStrides[d + 1] * sizes[d + 1];
  int64_t contiguous = -1;
  for (int64_t d = 0; d < rank; ++d)
    if (strides[d] == 1)
      contiguous = d;
  bool tiled = contiguous >= 0 && contiguous != last;
  // The dims walked one index at a time: all but the innermost (and the
  // contiguous one, when tiled).
  SmallVector<int64_t> walked;
  int64_t steps = 1;
  for (int64_t d = 0; d < last; ++d)
    if (!tiled || d != contiguous) {
      walked.push_back(d);
      steps *= sizes[d];
    }
  SmallVector<int64_t> index(walked.size(), 0);
  int64_t inBase = 0, outBase = 0;
  for (int64_t step = 0; step < steps; ++step) {
    if (tiled) {
      constexpr int64_t kTile = 16;
      int64_t rows = sizes[contiguous], cols = sizes[last];
      int64_t rowStride = outStrides[contiguous], colStride = strides[last];
      for (int64_t r0 = 0; r0 < rows; r0 += kTile)
        for (int64_t c0 = 0; c0 < cols; c0 += kTile)
          for (int64_t r = r0; r < std::min(r0 + kTile, rows); ++r) {
            const char *from = in + (inBase + r) * width;
            char *to = out + (outBase + r * rowStride) * width;
            for (int64_t c = c0; c < std::min(c0 + kTile, cols); ++c)
              copy(to + c * width, from + c * colStride * width);
          }
    } else {
      for (int64_t c = 0; c < sizes[last]; ++c)
        copy(out + (outBase + c) * width,
             in + (inBase + c * strides[last]) * width);
    }
    // The next index of the walked dims, innermost fastest.
    for (int64_t k = static_cast<int64_t>(walked.size()) - 1; k >= 0; --k) {
      int64_t d = walked[k];
      if (++index[k] < sizes[d]) {
        inBase += strides[d];
        outBase += outStrides[d];
        break;
      }
      inBase -= strides[d] * (sizes[d] - 1);
      outBase -= outStrides[d] * (sizes[d] - 1);
      index[k] = 0;
    }
  }
}

/// Writes `raw` transposed by `perm` to `out` (as many bytes): result
/// element i reads the input element whose index along input dim perm[d]
/// is i's index along result dim d. Unit dims are dropped first, so a
/// permutation that only moves them is one copy.
static void transposeBytes(ArrayRef<char> raw, ArrayRef<int64_t> shape,
                           ArrayRef<int64_t> perm, int64_t elementBytes,
                           MutableArrayRef<char> out) {
  int64_t rank = shape.size();
  SmallVector<int64_t> inputStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inputStrides[d] = inputStrides[d + 1] * shape[d + 1];
  // Result dims of more than one element, and their strides in the input.
  SmallVector<int64_t> sizes, strides;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[perm[d]] == 1)
      continue;
    sizes.push_back(shape[perm[d]]);
    strides.push_back(inputStrides[perm[d]]);
  }
  bool inOrder = true;
  for (size_t d = 1; d < strides.size(); ++d)
    inOrder &= strides[d - 1] > strides[d];
  if (inOrder) {
    std::memcpy(out.data(), raw.data(), raw.size());
    return;
  }
  switch (elementBytes) {
  case 1:
    return transposeElements<1>(raw.data(), out.data(), sizes, strides, 1);
  case 2:
    return transposeElements<2>(raw.data(), out.data(), sizes, strides, 2);
  case 4:
    return transposeElements<4>(raw.data(), out.data(), sizes, strides, 4);
  case 8:
    return transposeElements<8>(raw.data(), out.data(), sizes, strides, 8);
  default:
    return transposeElements<0>(raw.data(), out.data(), sizes, strides,
                                elementBytes);
  }
}

std::optional<ElementsAttr>
mlir::gopt::moveConstant(ElementsAttr value, RankedTensorType resultType,
                         ArrayRef<int64_t> perm) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value); dense &&
                                                       dense.isSplat())
    return ElementsAttr(dense.resizeSplat(resultType));
  ArrayRef<char> raw = getRawConstantBytes(value);
  if (raw.empty())
    return std::nullopt;
  auto inputType = cast<RankedTensorType>(value.getType());
  int64_t elementBytes = inputType.getElementTypeBitWidth() / 8;
  if (static_cast<int64_t>(raw.size()) !=
      inputType.getNumElements() * elementBytes)
    return std::nullopt;
  SmallVector<int64_t> nonUnitDims;
  for (int64_t d : perm)
    if (inputType.getDimSize(d) != 1)
      nonUnitDims.push_back(d);
  bool sameBytes = llvm::is_sorted(nonUnitDims);
  int64_t elements = static_cast<int64_t>(raw.size()) / elementBytes;
  if (elements <= kMaxInlineConstantElements) {
    std::vector<char> bytes(raw.size());
    if (sameBytes)
      llvm::copy(raw, bytes.begin());
    else
      transposeBytes(raw, inputType.getShape(), perm, elementBytes, bytes);
    return ElementsAttr(DenseElementsAttr::getFromRawBuffer(resultType, bytes));
  }
  // The same bytes under another shape (a reshape, a permutation of unit
  // dims: 1x1 convolution weights to channels last): the blob is shared,
  // not copied. Blobs are never written after they are made.
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value);
      resource && sameBytes)
    return ElementsAttr(
        DenseResourceElementsAttr::get(resultType, resource.getRawHandle()));
  AsmResourceBlob blob = allocateConstantBlob(raw.size());
  if (sameBytes)
    llvm::copy(raw, blob.getMutableData().begin());
  else
    transposeBytes(raw, inputType.getShape(), perm, elementBytes,
                   blob.getMutableData());
  return ElementsAttr(
      DenseResourceElementsAttr::get(resultType, "folded", std::move(blob)));
}

void *mlir::gopt::allocateConstantStorage(size_t bytes) {
  constexpr size_t kHugePage = size_t(2) << 20;
  size_t alignment = bytes >= kHugePage ? kHugePage : 64;
  size_t rounded =
      (std::max<size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
  void *data = std::aligned_alloc(alignment, rounded);
#ifdef MADV_HUGEPAGE
  if (data && alignment == kHugePage)
    (void)madvise(data, rounded, MADV_HUGEPAGE);
#endif
  return data;
}

namespace {
/// The live blocks of allocateConstantBlob, by start address: their end and
/// a weak reference to their owner (retainConstantStorage).
struct ConstantBlocks {
  std::mutex mutex;
  std::map<uintptr_t, std::pair<uintptr_t, std::weak_ptr<char>>> blocks;
};
ConstantBlocks &getConstantBlocks() {
  static ConstantBlocks *blocks = new ConstantBlocks();
  return *blocks;
}
} // namespace

AsmResourceBlob mlir::gopt::allocateConstantBlob(size_t bytes) {
  char *data = static_cast<char *>(allocateConstantStorage(bytes));
  if (!data)
    llvm::report_bad_alloc_error("no memory for a folded constant");
  ConstantBlocks &registry = getConstantBlocks();
  auto start = reinterpret_cast<uintptr_t>(data);
  // Freed when the blob and every retainConstantStorage owner are gone.
  std::shared_ptr<char> owner(data, [&registry, start](char *data) {
    {
      std::lock_guard<std::mutex> lock(registry.mutex);
      registry.blocks.erase(start);
    }
    std::free(data);
  });
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.blocks[start] = {start + bytes, owner};
  }
  return AsmResourceBlob(
      ArrayRef<char>(data, bytes), /*align=*/64,
      [owner](void *, size_t, size_t) {},
      /*dataIsMutable=*/true);
}

std::shared_ptr<const char> mlir::gopt::retainConstantStorage(const void *data,
                                                              size_t bytes) {
  ConstantBlocks &registry = getConstantBlocks();
  auto start = reinterpret_cast<uintptr_t>(data);
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto block = registry.blocks.upper_bound(start);
  if (block == registry.blocks.begin())
    return nullptr;
  --block;
  if (start + bytes > block->second.first)
    return nullptr;
  std::shared_ptr<char> owner = block->second.second.lock();
  if (!owner)
    return nullptr;
  return std::shared_ptr<const char>(owner, static_cast<const char *>(data));
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

LogicalResult mlir::gopt::evaluateConstantOp(Operation *op,
                                             ArrayRef<Attribute> operands,
                                             int64_t maxElements,
                                             SmallVectorImpl<Attribute> &results) {
  if (op->getNumResults() == 0 || op->getNumRegions() != 0 ||
      isa<ConstantOp>(op))
    return failure();
  // Empty tensors have nothing to fold, and no element to read.
  auto isEmpty = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
  };
  // A concat's empty operands add nothing: it concatenates the others
  // (exporters concatenate a shape with an empty slice of one).
  bool isConcat = isa<ConcatOp>(op);
  if ((!isConcat && llvm::any_of(op->getOperandTypes(), isEmpty)) ||
      llvm::any_of(op->getResultTypes(), isEmpty))
    return failure();
  SmallVector<ConstTensor> inputs;
  for (auto [attr, operand] : llvm::zip(operands, op->getOperands())) {
    if (isConcat && isEmpty(operand.getType()))
      continue;
    auto t = readTensor(attr, maxElements);
    if (!t)
      return failure();
    inputs.push_back(std::move(*t));
  }
  bool allSplat =
      llvm::all_of(inputs, [](const ConstTensor &t) { return t.splat; });
  for (Type type : op->getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return failure();
    // Contractions and normalizations build every element, splat inputs
    // or not.
    bool splatResult =
        allSplat && !isa<PadOp, ConcatOp, MatmulOp, LinearOp, Conv2DOp,
                         Pool2DOp, SoftmaxOp, LayerNormOp, GlobalAvgPoolOp>(op);
    if (!splatResult && tensor.getNumElements() > maxElements)
      return failure();
  }
  auto resultType = [&](unsigned i) {
    return cast<RankedTensorType>(op->getResult(i).getType());
  };

  SmallVector<ConstTensor> outs;
  auto push = [&](FailureOr<ConstTensor> t) -> LogicalResult {
    if (failed(t))
      return failure();
    outs.push_back(std::move(*t));
    return success();
  };

  LogicalResult status =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case<AddOp, SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp>(
              [&](Operation *binary) {
                return push(
                    evalBinary(binary, inputs[0], inputs[1], resultType(0)));
              })
          .Case([&](CompareOp cmp) {
            const ConstTensor *ins[] = {&inputs[0], &inputs[1]};
            return push(evalBroadcastElementwise(
                ins, resultType(0),
                [&](ArrayRef<int64_t> s, ConstTensor &out, int64_t k) {
                  out.i[k] =
                      inputs[0].isFloat
                          ? comparePredicate(cmp.getPredicate(),
                                             inputs[0].getF(s[0]),
                                             inputs[1].getF(s[1]))
                          : comparePredicate(cmp.getPredicate(),
                                             inputs[0].getI(s[0]),
                                             inputs[1].getI(s[1]));
                  return success();
                }));
          })
          .Case([&](SelectOp) {
            const ConstTensor *ins[] = {&inputs[0], &inputs[1], &inputs[2]};
            return push(evalBroadcastElementwise(
                ins, resultType(0),
                [&](ArrayRef<int64_t> s, ConstTensor &out, int64_t k) {
                  const ConstTensor &pick =
                      inputs[0].getI(s[0]) ? inputs[1] : inputs[2];
                  int64_t src = inputs[0].getI(s[0]) ? s[1] : s[2];
                  if (out.isFloat)
                    out.f[k] = pick.getF(src);
                  else
                    out.i[k] = pick.getI(src);
                  return success();
                }));
          })
          .Case(
              [&](CastOp) { return push(evalCast(inputs[0], resultType(0))); })
          .Case([&](MatmulOp) {
            return push(evalMatmul(inputs[0], inputs[1], resultType(0)));
          })
          .Case([&](LinearOp linear) {
            return push(evalLinear(linear, inputs, resultType(0)));
          })
          .Case([&](SoftmaxOp softmax) {
            return push(evalSoftmax(softmax, inputs[0], resultType(0)));
          })
          .Case([&](LayerNormOp layerNorm) {
            return push(evalLayerNorm(layerNorm, inputs, resultType(0)));
          })
          .Case([&](Conv2DOp conv) {
            return push(evalConv2D(conv, inputs, resultType(0)));
          })
          .Case([&](Pool2DOp pool) {
            return push(evalPool2D(pool, inputs[0], resultType(0)));
          })
          .Case([&](GlobalAvgPoolOp pool) {
            return push(evalGlobalAvgPool(pool, inputs[0], resultType(0)));
          })
          .Case([&](ReduceOp reduce) {
            return push(evalReduce(reduce, inputs[0], resultType(0)));
          })
          .Case([&](TransposeOp transpose) {
            if (inputs[0].splat)
              return push(resplat(inputs[0], resultType(0)));
            return push(gatherElements(
                inputs[0], resultType(0),
                transposeSources(transpose, inputs[0].type, resultType(0)),
                0.0));
          })
          .Case([&](ReshapeOp) {
            ConstTensor out = inputs[0];
            out.type = resultType(0);
            return push(out);
          })
          .Case([&](BroadcastToOp) {
            if (inputs[0].splat)
              return push(resplat(inputs[0], resultType(0)));
            return push(gatherElements(
                inputs[0], resultType(0),
                broadcastSources(inputs[0].type.getShape(),
                                 resultType(0).getShape()),
                0.0));
          })
          .Case([&](SliceOp slice) {
            if (inputs[0].splat)
              return push(resplat(inputs[0], resultType(0)));
            SmallVector<int64_t> starts;
            for (int64_t d = 0; d < inputs[0].type.getRank(); ++d)
              starts.push_back(normalizeSlice(inputs[0].type.getDimSize(d),
                                              slice.getStarts()[d],
                                              slice.getEnds()[d],
                                              slice.getSteps()[d])
                                   ->start);
            return push(gatherElements(inputs[0], resultType(0),
                                       sliceSources(inputs[0].type,
                                                    resultType(0), starts,
                                                    slice.getSteps()),
                                       0.0));
          })
          .Case([&](SplitOp split) {
            int64_t rank = inputs[0].type.getRank();
            int64_t axis = *normalizeAxis(split.getAxis(), rank);
            int64_t offset = 0;
            for (unsigned r = 0; r < op->getNumResults(); ++r) {
              RankedTensorType type = resultType(r);
              if (inputs[0].splat) {
                outs.push_back(resplat(inputs[0], type));
              } else {
                SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
                starts[axis] = offset;
                outs.push_back(gatherElements(
                    inputs[0], type,
                    sliceSources(inputs[0].type, type, starts, steps), 0.0));
              }
              offset += type.getDimSize(axis);
            }
            return success();
          })
          .Case([&](ConcatOp concat) {
            return push(evalConcat(concat, inputs, resultType(0)));
          })
          .Case([&](GatherElementsOp gather) {
            return push(evalGatherElements(gather, inputs[0], inputs[1],
                                           resultType(0)));
          })
          .Case([&](GatherOp gather) {
            if (inputs[0].splat && inputs[1].splat) {
              int64_t i = inputs[1].getI(0);
              int64_t dim = inputs[0].type.getDimSize(
                  *normalizeAxis(gather.getAxis(), inputs[0].type.getRank()));
              if (i < -dim || i >= dim)
                return failure();
              return push(resplat(inputs[0], resultType(0)));
            }
            return push(evalGather(gather, inputs[0], inputs[1],
                                   resultType(0)));
          })
          .Case([&](ResizeOp resize) {
            // Every tap of a splat reads the same value.
            if (inputs[0].splat)
              return push(resplat(inputs[0], resultType(0)));
            return push(evalResize(resize, inputs[0], resultType(0)));
          })
          .Case([&](PadOp pad) {
            double fill = pad.getValue().convertToDouble();
            bool fillMatches =
                inputs[0].isFloat
                    ? inputs[0].getF(0) == fill &&
                          std::signbit(fill) == std::signbit(inputs[0].getF(0))
                    : inputs[0].getI(0) == static_cast<int64_t>(fill);
            if (inputs[0].splat && fillMatches)
              return push(resplat(inputs[0], resultType(0)));
            if (resultType(0).getNumElements() > maxElements)
              return failure();
            return push(gatherElements(
                inputs[0], resultType(0),
                padSources(pad, inputs[0].type, resultType(0)), fill));
          })
          .Default([&](Operation *unary) -> LogicalResult {
            if (inputs.size() != 1 || op->getNumResults() != 1 ||
                !unary->hasTrait<OpTrait::SameOperandsAndResultType>())
              return failure();
            return push(evalUnary(unary, inputs[0], resultType(0)));
          });
  if (failed(status))
    return failure();
  for (const ConstTensor &t : outs)
    results.push_back(writeTensor(t));
  return success();
}
