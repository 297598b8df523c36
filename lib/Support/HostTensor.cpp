//===- HostTensor.cpp - Tensors in host memory ----------------------------===//

#include "GOpt/Support/HostTensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::gopt;

size_t mlir::gopt::getElementBytes(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::I8:
  case ElementKind::I1:
    return 1;
  }
  return 1;
}

std::optional<ElementKind>
mlir::gopt::getElementKindByName(llvm::StringRef name) {
  for (ElementKind kind :
       {ElementKind::F32, ElementKind::F64, ElementKind::F16, ElementKind::BF16,
        ElementKind::I64, ElementKind::I32, ElementKind::I16, ElementKind::I8,
        ElementKind::I1})
    if (getElementKindName(kind) == name)
      return kind;
  return std::nullopt;
}

llvm::StringRef mlir::gopt::getElementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::I64:
    return "i64";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I1:
    return "i1";
  }
  return "?";
}

std::optional<ElementKind> mlir::gopt::getElementKind(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 64:
      return ElementKind::I64;
    case 32:
      return ElementKind::I32;
    case 16:
      return ElementKind::I16;
    case 8:
      return ElementKind::I8;
    case 1:
      return ElementKind::I1;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool mlir::gopt::isFloatKind(ElementKind kind) {
  return kind == ElementKind::F32 || kind == ElementKind::F64 ||
         kind == ElementKind::F16 || kind == ElementKind::BF16;
}

void HostTensor::FreeDeleter::operator()(void *p) const {
  if (owned)
    std::free(p);
}

HostTensor HostTensor::borrow(ElementKind kind, std::vector<int64_t> shape,
                              void *data) {
  HostTensor t;
  t.kind = kind;
  t.shape = std::move(shape);
  t.data = std::unique_ptr<void, FreeDeleter>(data, FreeDeleter(false));
  return t;
}

HostTensor::HostTensor(ElementKind kind, std::vector<int64_t> shape)
    : kind(kind), shape(std::move(shape)) {
  size_t bytes = std::max<size_t>(getByteSize(), 1);
  bytes = (bytes + 63) / 64 * 64;
  data.reset(std::aligned_alloc(64, bytes));
  std::memset(data.get(), 0, bytes);
}

int64_t HostTensor::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

size_t HostTensor::getByteSize() const {
  return static_cast<size_t>(getNumElements()) * getElementBytes(kind);
}

static const llvm::fltSemantics &halfSemantics(ElementKind kind) {
  return kind == ElementKind::F16 ? llvm::APFloat::IEEEhalf()
                                  : llvm::APFloat::BFloat();
}

double HostTensor::getAsDouble(int64_t i) const {
  const char *p = static_cast<const char *>(data.get());
  switch (kind) {
  case ElementKind::F32:
    return reinterpret_cast<const float *>(p)[i];
  case ElementKind::F64:
    return reinterpret_cast<const double *>(p)[i];
  case ElementKind::F16:
  case ElementKind::BF16: {
    uint16_t bits = reinterpret_cast<const uint16_t *>(p)[i];
    llvm::APFloat value(halfSemantics(kind), llvm::APInt(16, bits));
    bool lost;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
    return value.convertToDouble();
  }
  case ElementKind::I64:
    return static_cast<double>(reinterpret_cast<const int64_t *>(p)[i]);
  case ElementKind::I32:
    return reinterpret_cast<const int32_t *>(p)[i];
  case ElementKind::I16:
    return reinterpret_cast<const int16_t *>(p)[i];
  case ElementKind::I8:
    return reinterpret_cast<const int8_t *>(p)[i];
  case ElementKind::I1:
    return reinterpret_cast<const uint8_t *>(p)[i] ? 1.0 : 0.0;
  }
  return 0;
}

void HostTensor::setFromDouble(int64_t i, double value) {
  char *p = static_cast<char *>(data.get());
  switch (kind) {
  case ElementKind::F32:
    reinterpret_cast<float *>(p)[i] = static_cast<float>(value);
    return;
  case ElementKind::F64:
    reinterpret_cast<double *>(p)[i] = value;
    return;
  case ElementKind::F16:
  case ElementKind::BF16: {
    llvm::APFloat v(value);
    bool lost;
    v.convert(halfSemantics(kind), llvm::APFloat::rmNearestTiesToEven, &lost);
    reinterpret_cast<uint16_t *>(p)[i] =
        static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
    return;
  }
  case ElementKind::I64:
    reinterpret_cast<int64_t *>(p)[i] = static_cast<int64_t>(value);
    return;
  case ElementKind::I32:
    reinterpret_cast<int32_t *>(p)[i] = static_cast<int32_t>(value);
    return;
  case ElementKind::I16:
    reinterpret_cast<int16_t *>(p)[i] = static_cast<int16_t>(value);
    return;
  case ElementKind::I8:
    reinterpret_cast<int8_t *>(p)[i] = static_cast<int8_t>(value);
    return;
  case ElementKind::I1:
    reinterpret_cast<uint8_t *>(p)[i] = value != 0;
    return;
  }
}

std::string HostTensor::describe() const {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  s += getElementKindName(kind).str() + ">";
  return s;
}

bool HostTensor::matches(RankedTensorType type) const {
  auto elementKind = getElementKind(type.getElementType());
  return elementKind && *elementKind == kind &&
         llvm::ArrayRef<int64_t>(shape) == type.getShape();
}

HostTensor mlir::gopt::makeRandomTensor(RankedTensorType type, uint64_t seed) {
  ElementKind kind = getElementKind(type.getElementType()).value_or(
      ElementKind::F32);
  HostTensor tensor(kind, std::vector<int64_t>(type.getShape().begin(),
                                               type.getShape().end()));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 7);
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    if (isFloatKind(kind))
      tensor.setFromDouble(i, real(rng));
    else if (kind == ElementKind::I1)
      tensor.setFromDouble(i, rng() & 1);
    else
      tensor.setFromDouble(i, small(rng));
  }
  return tensor;
}

/// `%g`: 0.5, 1e-05, nan.
static std::string shortNumber(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", x);
  return buffer;
}

TensorComparison mlir::gopt::compareTensors(const HostTensor &actual,
                                            const HostTensor &expected,
                                            double rtol, double atol) {
  TensorComparison result;
  if (actual.getKind() != expected.getKind() ||
      actual.getShape() != expected.getShape()) {
    result.detail = "got " + actual.describe() + ", expected " +
                    expected.describe();
    return result;
  }
  for (int64_t i = 0, e = actual.getNumElements(); i < e; ++i) {
    double a = actual.getAsDouble(i), x = expected.getAsDouble(i);
    bool ok;
    if (std::isnan(x) || std::isnan(a))
      ok = std::isnan(x) && std::isnan(a);
    else if (std::isinf(x) || std::isinf(a))
      ok = a == x;
    else {
      double err = std::fabs(a - x);
      result.maxAbsError = std::max(result.maxAbsError, err);
      ok = err <= atol + rtol * std::fabs(x);
    }
    if (!ok) {
      if (result.mismatches == 0)
        result.detail = "element " + std::to_string(i) + ": got " +
                        shortNumber(a) + ", expected " + shortNumber(x);
      ++result.mismatches;
    }
  }
  result.matches = result.mismatches == 0;
  return result;
}
