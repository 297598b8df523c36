//===- ModelWeights.cpp - Parse a ModelProto, its weights aside -----------===//
//
// A model file is mostly its initializers' raw data. Parsing it whole with
// protobuf copies every initializer into a heap string of its own, which
// the kernel fills a 4 KiB page fault at a time; the importer then moves
// those strings into blobs. Here the serialized model is walked once at the
// wire level instead: protobuf parses a skeleton, the model without the main
// graph's raw data, and the raw data are copied once, each 64-byte aligned,
// into one allocation in huge pages (allocateConstantStorage) that the
// constants' blobs share.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"

#include "llvm/Support/MathExtras.h"

#include <climits>
#include <cstring>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

namespace {

/// Protobuf wire types (https://protobuf.dev/programming-guides/encoding).
enum WireType : uint64_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kFixed32 = 5,
};

/// Where the raw data of one initializer lies in the serialized model.
struct ByteRange {
  size_t offset = 0;
  size_t size = 0;
};

/// Which message a span of wire data encodes.
enum class MessageKind { Model, Graph, Tensor };

/// Rewrites a serialized ModelProto without its main graph's initializers'
/// raw data, recording where each initializer's raw data lies.
class SkeletonWriter {
public:
  explicit SkeletonWriter(llvm::StringRef bytes) : bytes(bytes) {}

  /// Appends to `out` the message in bytes[begin, end) of `kind` with the
  /// raw data removed. False when the bytes are not well-formed.
  bool rewrite(size_t begin, size_t end, MessageKind kind, std::string &out);

  /// Per initializer of the main graph, in order: its raw data, if any.
  std::vector<std::optional<ByteRange>> rawData;

private:
  bool readVarint(size_t &pos, size_t end, uint64_t &value) const;
  static void writeVarint(uint64_t value, std::string &out);

  llvm::StringRef bytes;
  /// The raw data of the tensor being rewritten (the last occurrence wins,
  /// as in protobuf's own parse).
  std::optional<ByteRange> tensorRawData;
};

} // namespace

bool SkeletonWriter::readVarint(size_t &pos, size_t end,
                                uint64_t &value) const {
  value = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (pos >= end)
      return false;
    uint8_t byte = static_cast<uint8_t>(bytes[pos++]);
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

void SkeletonWriter::writeVarint(uint64_t value, std::string &out) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

bool SkeletonWriter::rewrite(size_t begin, size_t end, MessageKind kind,
                             std::string &out) {
  size_t pos = begin;
  while (pos < end) {
    size_t fieldStart = pos;
    uint64_t tag;
    if (!readVarint(pos, end, tag))
      return false;
    uint64_t field = tag >> 3;
    uint64_t wireType = tag & 7;
    if (field == 0)
      return false;
    uint64_t value;
    switch (wireType) {
    case kVarint:
      if (!readVarint(pos, end, value))
        return false;
      break;
    case kFixed64:
    case kFixed32: {
      size_t width = wireType == kFixed64 ? 8 : 4;
      if (end - pos < width)
        return false;
      pos += width;
      break;
    }
    case kLengthDelimited: {
      if (!readVarint(pos, end, value) || value > end - pos)
        return false;
      size_t payload = pos;
      pos += value;
      bool isGraph = kind == MessageKind::Model &&
                     field == onnx::ModelProto::kGraphFieldNumber;
      bool isInitializer = kind == MessageKind::Graph &&
                           field == onnx::GraphProto::kInitializerFieldNumber;
      bool isRawData = kind == MessageKind::Tensor &&
                       field == onnx::TensorProto::kRawDataFieldNumber;
      if (isRawData) {
        tensorRawData = ByteRange{payload, static_cast<size_t>(value)};
        continue;
      }
      if (isGraph || isInitializer) {
        std::string inner;
        tensorRawData.reset();
        if (!rewrite(payload, pos,
                     isGraph ? MessageKind::Graph : MessageKind::Tensor, inner))
          return false;
        if (isInitializer)
          rawData.push_back(tensorRawData);
        writeVarint(tag, out);
        writeVarint(inner.size(), out);
        out += inner;
        continue;
      }
      break;
    }
    default: // Groups (deprecated, unused by ONNX) and invalid wire types.
      return false;
    }
    out.append(bytes.data() + fieldStart, pos - fieldStart);
  }
  return pos == end;
}

LogicalResult onnx_import::parseModel(llvm::StringRef bytes, ParsedModel &out,
                                      Location loc) {
  auto malformed =
      [&] {
        return emitError(loc)
               << "not a valid ONNX model: the protobuf could not be parsed";
      };
  SkeletonWriter writer(bytes);
  std::string skeleton;
  if (!writer.rewrite(0, bytes.size(), MessageKind::Model, skeleton))
    return malformed();
  if (skeleton.size() > static_cast<size_t>(INT_MAX))
    return emitError(loc) << "the model is larger than 2 GiB without its "
                             "weights, more than protobuf parses";
  if (!out.model.ParseFromArray(skeleton.data(),
                                static_cast<int>(skeleton.size())))
    return malformed();
  // A main graph only in the skeleton's bytes would be one the writer did
  // not see; the counts agree for every well-formed model.
  if (out.model.graph().initializer_size() !=
      static_cast<int>(writer.rawData.size()))
    return malformed();

  constexpr size_t kAlignment = 64;
  size_t total = 0;
  for (const std::optional<ByteRange> &range : writer.rawData)
    if (range)
      total = llvm::alignTo(total, kAlignment) + range->size;
  out.initializerBytes.clear();
  out.storage.reset();
  if (total) {
    char *storage = static_cast<char *>(allocateConstantStorage(total));
    if (!storage)
      return emitError(loc)
             << "no memory for the model's " << total << " bytes of weights";
    out.storage = std::shared_ptr<char>(storage, std::free);
  }
  size_t offset = 0;
  for (const std::optional<ByteRange> &range : writer.rawData) {
    if (!range) {
      out.initializerBytes.push_back(std::nullopt);
      continue;
    }
    offset = llvm::alignTo(offset, kAlignment);
    char *destination = out.storage.get() + offset;
    if (range->size)
      std::memcpy(destination, bytes.data() + range->offset, range->size);
    out.initializerBytes.push_back(llvm::StringRef(destination, range->size));
    offset += range->size;
  }
  return success();
}
