//===- Format.h - How GOpt prints times and sizes ---------------*- C++ -*-===//
//
// One way to print a time or a size, in every table, report and sentence
// GOpt writes.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_SUPPORT_FORMAT_H
#define GOPT_SUPPORT_FORMAT_H

#include <cstdint>
#include <string>

namespace mlir {
namespace gopt {

/// printf of one double.
std::string formatDouble(const char *spec, double value);

/// Milliseconds with about three significant figures, no unit: "120",
/// "12.3", "2.46", "0.123", "0.0165" (and "0.000" for zero).
std::string formatMs(double ms);

/// Bytes with a binary unit, one decimal above bytes: "512 B", "1.5 KiB",
/// "2.0 MiB", "1.2 GiB".
std::string formatBytes(int64_t bytes);

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_FORMAT_H
