//===- TensorConversion.cpp - ONNX tensors to MLIR attributes -------------===//
//
// TensorProto (inline typed fields, raw bytes or external data) to inline
// dense attributes (small integer tensors, single elements, booleans) or
// `dense_resource` blobs (the weights), and back to plain numbers for the
// importers that need a constant's values.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

Type onnx_import::convertDataType(MLIRContext *context, int32_t dataType) {
  Builder b(context);
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::INT8:
    return b.getIntegerType(8);
  case onnx::TensorProto::INT16:
    return b.getIntegerType(16);
  case onnx::TensorProto::INT32:
    return b.getI32Type();
  case onnx::TensorProto::INT64:
    return b.getI64Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    return {};
  }
}

std::string onnx_import::dataTypeName(int32_t dataType) {
  if (onnx::TensorProto::DataType_IsValid(dataType))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(dataType));
  return "data type " + std::to_string(dataType);
}

/// A blob key the MLIR printer accepts as a bare identifier.
static std::string blobKey(llvm::StringRef name) {
  std::string key;
  for (char c : name)
    key += (llvm::isAlnum(c) || c == '_' || c == '.') ? c : '_';
  if (key.empty() || llvm::isDigit(key.front()) || key.front() == '.')
    key = "w_" + key;
  return key;
}

/// Reads the bytes of an external-data tensor from a file inside
/// `modelDir`.
static FailureOr<std::string> readExternalData(const onnx::TensorProto &tensor,
                                               Location loc,
                                               llvm::StringRef modelDir) {
  std::string location;
  std::optional<uint64_t> offset, length;
  for (const auto &entry : tensor.external_data()) {
    const std::string &key = entry.key();
    auto parseNumber = [&](std::optional<uint64_t> &out) -> LogicalResult {
      uint64_t v;
      if (llvm::StringRef(entry.value()).getAsInteger(10, v))
        return emitError(loc)
               << "tensor '" << tensor.name() << "': external data " << key
               << " '" << entry.value() << "' is not a number";
      out = v;
      return success();
    };
    if (key == "location")
      location = entry.value();
    else if (key == "offset" && failed(parseNumber(offset)))
      return failure();
    else if (key == "length" && failed(parseNumber(length)))
      return failure();
  }
  if (location.empty())
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has external data without a location";
  if (modelDir.empty())
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has external data, but the model was not "
                             "loaded from a file; import it by path";

  // The path must name a file below the model's folder: no absolute paths,
  // no '..', and no symbolic link leading out of it.
  namespace path = llvm::sys::path;
  bool escapes = path::is_absolute(location) ||
                 path::is_absolute(location, path::Style::windows);
  for (auto it = path::begin(location), e = path::end(location); it != e; ++it)
    escapes |= *it == "..";
  llvm::SmallString<256> file(modelDir);
  path::append(file, location);
  llvm::SmallString<256> realDir, realFile;
  if (!escapes && !llvm::sys::fs::real_path(modelDir, realDir) &&
      !llvm::sys::fs::real_path(file, realFile)) {
    // "/models/a/" must not accept "/models/ab/w.bin".
    std::string prefix = realDir.str().str();
    if (!path::is_separator(prefix.back()))
      prefix += path::get_separator();
    escapes = !llvm::StringRef(realFile).starts_with(prefix);
  }
  if (escapes)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': external data location '" << location
                          << "' is outside the model's folder '" << modelDir
                          << "'";

  // Map only this tensor's bytes: models keep all weights in one file.
  uint64_t fileSize = 0;
  if (std::error_code ec = llvm::sys::fs::file_size(file, fileSize))
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': cannot read external data file '" << file
                          << "': " << ec.message();
  uint64_t start = offset.value_or(0);
  if (start > fileSize || (length && *length > fileSize - start))
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': external data range (offset " << start
                          << ", length " << length.value_or(0)
                          << ") exceeds file '" << file << "' of " << fileSize
                          << " bytes";
  uint64_t size = length.value_or(fileSize - start);
  if (size == 0)
    return std::string();
  auto buffer = llvm::MemoryBuffer::getFileSlice(file, size, start);
  if (!buffer)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': cannot read external data file '" << file
                          << "': " << buffer.getError().message();
  return (*buffer)->getBuffer().str();
}

/// The tensor's elements as little-endian bytes of the MLIR element type
/// (booleans one byte each): its raw data where it has them (`rawData`, set
/// aside by parseModel, or the protobuf's own), without a copy (a model's
/// weights are mostly that: hundreds of megabytes), else bytes made in
/// `storage`.
static FailureOr<llvm::StringRef>
readBytes(const onnx::TensorProto &tensor,
          std::optional<llvm::StringRef> rawData, Location loc,
          llvm::StringRef modelDir, std::string &storage) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    FailureOr<std::string> external = readExternalData(tensor, loc, modelDir);
    if (failed(external))
      return failure();
    storage = std::move(*external);
    return llvm::StringRef(storage);
  }
  if (rawData)
    return *rawData;
  if (tensor.has_raw_data())
    return llvm::StringRef(tensor.raw_data());

  std::string &bytes = storage;
  auto append = [&](const auto &values, auto narrow) {
    for (auto v : values) {
      auto n = narrow(v);
      bytes.append(reinterpret_cast<const char *>(&n), sizeof(n));
    }
  };
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
    append(tensor.float_data(), [](float v) { return v; });
    break;
  case onnx::TensorProto::DOUBLE:
    append(tensor.double_data(), [](double v) { return v; });
    break;
  case onnx::TensorProto::INT64:
    append(tensor.int64_data(), [](int64_t v) { return v; });
    break;
  case onnx::TensorProto::INT32:
    append(tensor.int32_data(), [](int32_t v) { return v; });
    break;
  case onnx::TensorProto::INT16:
    append(tensor.int32_data(), [](int32_t v) { return int16_t(v); });
    break;
  case onnx::TensorProto::INT8:
    append(tensor.int32_data(), [](int32_t v) { return int8_t(v); });
    break;
  case onnx::TensorProto::BOOL:
    append(tensor.int32_data(), [](int32_t v) { return uint8_t(v != 0); });
    break;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    append(tensor.int32_data(), [](int32_t v) { return uint16_t(v); });
    break;
  default:
    break;
  }
  return llvm::StringRef(bytes);
}

/// A blob that owns `bytes` (moved in), or nullopt, `bytes` untouched, when
/// they are not aligned for the widest element.
static std::optional<AsmResourceBlob> blobOwning(std::string &bytes) {
  if (reinterpret_cast<uintptr_t>(bytes.data()) % alignof(uint64_t) != 0)
    return std::nullopt;
  auto *owned = new std::string(std::move(bytes));
  // Moving a long string keeps its buffer; a short one's bytes move into
  // the new object, whose alignment is checked again.
  if (reinterpret_cast<uintptr_t>(owned->data()) % alignof(uint64_t) != 0) {
    bytes = std::move(*owned);
    delete owned;
    return std::nullopt;
  }
  return AsmResourceBlob(
      ArrayRef<char>(owned->data(), owned->size()), alignof(uint64_t),
      [owned](void *, size_t, size_t) { delete owned; },
      /*dataIsMutable=*/false);
}

/// convertTensor; with `rawData` (set aside by parseModel in `shared`), a
/// blob shares those bytes rather than copy them.
static FailureOr<ElementsAttr>
convertTensorImpl(const onnx::TensorProto &tensor,
                  std::optional<llvm::StringRef> rawData,
                  const std::shared_ptr<char> &shared, Location loc,
                  llvm::StringRef modelDir) {
  MLIRContext *context = loc.getContext();
  Type elementType = convertDataType(context, tensor.data_type());
  if (!elementType)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has unsupported element type "
                          << dataTypeName(tensor.data_type());
  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0 || (d > 0 && numElements > (int64_t(1) << 40) / d))
      return emitError(loc)
             << "tensor '" << tensor.name() << "' has invalid dimension " << d;
    shape.push_back(d);
    numElements *= d;
  }
  auto type = RankedTensorType::get(shape, elementType);
  std::string storage;
  FailureOr<llvm::StringRef> bytes =
      readBytes(tensor, rawData, loc, modelDir, storage);
  if (failed(bytes))
    return failure();
  int64_t width =
      elementType.isInteger(1) ? 1 : elementType.getIntOrFloatBitWidth() / 8;
  if (static_cast<int64_t>(bytes->size()) != numElements * width)
    return emitError(loc) << "tensor '" << tensor.name() << "' holds "
                          << bytes->size() << " bytes of data, expected "
                          << numElements * width << " for " << numElements
                          << " elements of "
                          << dataTypeName(tensor.data_type());

  if (elementType.isInteger(1)) {
    SmallVector<bool> values;
    for (char c : *bytes)
      values.push_back(c != 0);
    return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
  }
  ArrayRef<char> raw(bytes->data(), bytes->size());
  bool inlineConstant =
      numElements <= 1 || (isa<IntegerType>(elementType) && numElements <= 64);
  if (inlineConstant)
    return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(type, raw));
  // Bytes read into `storage` (external data, typed fields) are ours; the
  // raw data set aside are shared.
  std::optional<AsmResourceBlob> blob;
  if (!storage.empty())
    blob = blobOwning(storage);
  else if (rawData && shared &&
           reinterpret_cast<uintptr_t>(raw.data()) % alignof(uint64_t) == 0)
    blob = AsmResourceBlob(
        raw, alignof(uint64_t), [shared](void *, size_t, size_t) {},
        /*dataIsMutable=*/false);
  if (!blob)
    blob =
        HeapAsmResourceBlob::allocateAndCopyWithAlign(raw, alignof(uint64_t));
  return cast<ElementsAttr>(DenseResourceElementsAttr::get(
      type, blobKey(tensor.name()), std::move(*blob)));
}

FailureOr<ElementsAttr>
onnx_import::convertTensor(const onnx::TensorProto &tensor, Location loc,
                           llvm::StringRef modelDir) {
  return convertTensorImpl(tensor, /*rawData=*/std::nullopt,
                           /*shared=*/nullptr, loc, modelDir);
}

FailureOr<ElementsAttr>
onnx_import::convertInitializer(const onnx::TensorProto &tensor,
                                std::optional<llvm::StringRef> rawData,
                                const std::shared_ptr<char> &storage,
                                Location loc, llvm::StringRef modelDir) {
  return convertTensorImpl(tensor, rawData, storage, loc, modelDir);
}

ElementsAttr onnx_import::makeFloatElements(RankedTensorType type,
                                            ArrayRef<double> values,
                                            llvm::StringRef blobName) {
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<APFloat> converted;
  for (double v : values) {
    APFloat f(v);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    converted.push_back(f);
  }
  auto dense = DenseElementsAttr::get(type, converted);
  // Equal values make a splat, whose raw data holds one element: it stays
  // inline (a blob must hold every element).
  if (values.size() <= 1 || dense.isSplat())
    return cast<ElementsAttr>(dense);
  return cast<ElementsAttr>(DenseResourceElementsAttr::get(
      type, blobKey(blobName),
      HeapAsmResourceBlob::allocateAndCopyWithAlign(dense.getRawData(),
                                                    alignof(uint64_t))));
}

std::optional<SmallVector<int64_t>> onnx_import::getIntValues(Attribute attr) {
  auto dense = getDenseElements(attr);
  if (!dense || !isa<IntegerType>(dense->getElementType()))
    return std::nullopt;
  bool isBool = dense->getElementType().isInteger(1);
  SmallVector<int64_t> values;
  for (const APInt &v : dense->getValues<APInt>())
    values.push_back(isBool ? int64_t(v.getZExtValue()) : v.getSExtValue());
  return values;
}

std::optional<SmallVector<double>> onnx_import::getFloatValues(Attribute attr) {
  auto dense = getDenseElements(attr);
  if (!dense)
    return std::nullopt;
  SmallVector<double> values;
  if (isa<FloatType>(dense->getElementType())) {
    for (APFloat v : dense->getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(v.convertToDouble());
    }
    return values;
  }
  auto ints = getIntValues(attr);
  if (!ints)
    return std::nullopt;
  for (int64_t v : *ints)
    values.push_back(static_cast<double>(v));
  return values;
}
