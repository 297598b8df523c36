//===- HostTensor.h - Tensors in host memory, and .npy files ----*- C++ -*-===//
//
// Inputs and outputs of compiled graphs (the runner's, the explorer's, the
// tools'): a dense, row-major buffer with an element kind and a shape, read
// from and written to NumPy's .npy format (versions 1-3, little-endian,
// C order).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_SUPPORT_HOSTTENSOR_H
#define GOPT_SUPPORT_HOSTTENSOR_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

enum class ElementKind { F32, F64, F16, BF16, I64, I32, I16, I8, I1 };

/// Bytes of one element (i1 is stored as one byte).
size_t getElementBytes(ElementKind kind);
/// "f32", "i64", "i1", ...
llvm::StringRef getElementKindName(ElementKind kind);
/// The kind getElementKindName names `name` ("f32", "i1", ...), or none.
std::optional<ElementKind> getElementKindByName(llvm::StringRef name);
/// The kind of an MLIR element type, if the runner supports it.
std::optional<ElementKind> getElementKind(Type type);
bool isFloatKind(ElementKind kind);

/// A dense row-major tensor in 64-byte-aligned host memory.
class HostTensor {
public:
  HostTensor() = default;
  HostTensor(ElementKind kind, std::vector<int64_t> shape);
  /// A tensor over `data` (getByteSize() bytes), which it neither copies
  /// nor frees: the caller keeps it alive for the tensor's life.
  static HostTensor borrow(ElementKind kind, std::vector<int64_t> shape,
                           void *data);

  ElementKind getKind() const { return kind; }
  const std::vector<int64_t> &getShape() const { return shape; }
  int64_t getNumElements() const;
  size_t getByteSize() const;
  void *getData() { return data.get(); }
  const void *getData() const { return data.get(); }

  /// Element `i` (row-major) widened to double (i1: 0 or 1).
  double getAsDouble(int64_t i) const;
  void setFromDouble(int64_t i, double value);

  /// "tensor<2x3xf32>".
  std::string describe() const;
  /// Whether kind and shape match `type` (a static ranked tensor type).
  bool matches(RankedTensorType type) const;

private:
  struct FreeDeleter {
    FreeDeleter() : owned(true) {}
    explicit FreeDeleter(bool owned) : owned(owned) {}
    bool owned;
    void operator()(void *p) const;
  };
  ElementKind kind = ElementKind::F32;
  std::vector<int64_t> shape;
  std::unique_ptr<void, FreeDeleter> data;
};

/// Reads a .npy file; errors name the file and what is wrong with it.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);
/// The same for a .npy file's bytes; `path` names it in errors.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                    llvm::StringRef path);
/// Writes a .npy file (version 1.0).
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

/// Seeded random data for `type`: floats uniform in [-1, 1), integers in
/// [0, 8), i1 fair coins. The same seed gives the same tensor.
HostTensor makeRandomTensor(RankedTensorType type, uint64_t seed);

/// How an actual tensor differs from an expected one.
struct TensorComparison {
  bool matches = false;
  int64_t mismatches = 0;
  double maxAbsError = 0;
  /// First mismatching element, or a reason (shape or kind differ).
  std::string detail;
};

/// Element-wise |actual - expected| <= atol + rtol * |expected|; NaN matches
/// NaN, infinities must be equal.
TensorComparison compareTensors(const HostTensor &actual,
                                const HostTensor &expected, double rtol,
                                double atol);

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_HOSTTENSOR_H
