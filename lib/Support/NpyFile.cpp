//===- NpyFile.cpp - NumPy .npy files --------------------------------------===//
//
// The format: the magic "\x93NUMPY", a major and minor version byte, the
// header length (2 bytes in version 1, 4 in versions 2 and 3, little-endian),
// then a Python dict literal {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), } padded with spaces to a 64-byte boundary and ended by
// '\n', then the data.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Support/HostTensor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::gopt;

static llvm::Error npyError(llvm::StringRef path, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + message);
}

/// NumPy's type string for each kind; bf16 has none.
static std::optional<std::string> descrOf(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "<f4";
  case ElementKind::F64:
    return "<f8";
  case ElementKind::F16:
    return "<f2";
  case ElementKind::I64:
    return "<i8";
  case ElementKind::I32:
    return "<i4";
  case ElementKind::I16:
    return "<i2";
  case ElementKind::I8:
    return "|i1";
  case ElementKind::I1:
    return "|b1";
  case ElementKind::BF16:
    return std::nullopt;
  }
  return std::nullopt;
}

static std::optional<ElementKind> kindOfDescr(llvm::StringRef descr) {
  for (ElementKind kind :
       {ElementKind::F32, ElementKind::F64, ElementKind::F16, ElementKind::I64,
        ElementKind::I32, ElementKind::I16, ElementKind::I8, ElementKind::I1})
    if (descrOf(kind) == descr.str())
      return kind;
  // One-byte types may be written with either byte-order mark.
  if (descr == "<i1" || descr == "=i1")
    return ElementKind::I8;
  if (descr == "<b1" || descr == "=b1")
    return ElementKind::I1;
  return std::nullopt;
}

/// The value of `key` in the header dict, up to the next top-level comma.
static std::optional<llvm::StringRef> headerValue(llvm::StringRef header,
                                                  llvm::StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == llvm::StringRef::npos)
      return std::nullopt;
    return rest.take_front(close + 1);
  }
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

llvm::Expected<HostTensor> mlir::gopt::readNpy(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return npyError(path, "cannot read: " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer(), path);
}

llvm::Expected<HostTensor> mlir::gopt::parseNpy(llvm::StringRef bytes,
                                                llvm::StringRef path) {
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return npyError(path, "not a .npy file (no \\x93NUMPY magic)");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, headerStart;
  auto byteAt = [&](size_t i) {
    return static_cast<size_t>(static_cast<unsigned char>(bytes[i]));
  };
  if (major == 1) {
    headerLen = byteAt(8) | byteAt(9) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(path, "truncated header");
    headerLen = byteAt(8) | byteAt(9) << 8 | byteAt(10) << 16 |
                byteAt(11) << 24;
    headerStart = 12;
  } else {
    return npyError(path, "unsupported .npy version " + llvm::Twine(major));
  }
  if (headerStart + headerLen > bytes.size())
    return npyError(path, "truncated header");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);

  auto descr = headerValue(header, "descr");
  auto fortran = headerValue(header, "fortran_order");
  auto shapeText = headerValue(header, "shape");
  if (!descr || !fortran || !shapeText)
    return npyError(path, "header lacks descr, fortran_order or shape: " +
                              header.trim());
  auto kind = kindOfDescr(descr->trim("'\""));
  if (!kind)
    return npyError(path, "unsupported dtype " + *descr +
                              " (supported: little-endian f2, f4, f8, i1, "
                              "i2, i4, i8, b1)");
  if (*fortran != "False")
    return npyError(path, "Fortran-ordered arrays are not supported: save "
                          "with numpy.ascontiguousarray");
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> dims;
  shapeText->trim("()").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef dim : dims) {
    int64_t d;
    if (dim.trim().getAsInteger(10, d) || d < 0)
      return npyError(path, "bad shape " + *shapeText);
    shape.push_back(d);
  }
  // The size the header claims must be the data's before anything is
  // allocated: a header may claim any shape (and overflow the product).
  size_t dataStart = headerStart + headerLen;
  uint64_t dataBytes = bytes.size() - dataStart;
  uint64_t claimed = getElementBytes(*kind);
  for (int64_t d : shape) {
    if (d != 0 && claimed > dataBytes / static_cast<uint64_t>(d)) {
      claimed = UINT64_MAX;
      break;
    }
    claimed *= static_cast<uint64_t>(d);
  }
  if (claimed != dataBytes)
    return npyError(path, "holds " + llvm::Twine(dataBytes) +
                              " data bytes; shape " + *shapeText +
                              " of " + *descr + " needs " +
                              (claimed == UINT64_MAX
                                   ? llvm::Twine("more")
                                   : llvm::Twine(claimed)));
  HostTensor tensor(*kind, std::move(shape));
  std::memcpy(tensor.getData(), bytes.data() + dataStart,
              tensor.getByteSize());
  return std::move(tensor);
}

llvm::Error mlir::gopt::writeNpy(llvm::StringRef path,
                                 const HostTensor &tensor) {
  auto descr = descrOf(tensor.getKind());
  if (!descr)
    return npyError(path, "NumPy has no " +
                              getElementKindName(tensor.getKind()) + " dtype");
  // Python tuple syntax: "()", "(4,)", "(2, 3)".
  std::string shape;
  for (int64_t d : tensor.getShape())
    shape += (shape.empty() ? "" : ", ") + std::to_string(d);
  if (tensor.getShape().size() == 1)
    shape += ",";
  std::string header = "{'descr': '" + *descr +
                       "', 'fortran_order': False, 'shape': (" + shape + ")";
  header += ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return npyError(path, "cannot write: " + ec.message());
  os << "\x93NUMPY" << '\x01' << '\x00';
  os << static_cast<char>(header.size() & 0xff)
     << static_cast<char>(header.size() >> 8);
  os << header;
  os.write(static_cast<const char *>(tensor.getData()), tensor.getByteSize());
  os.close();
  if (os.has_error())
    return npyError(path, "write failed: " + os.error().message());
  return llvm::Error::success();
}
