//===- Format.cpp - How GOpt prints times and sizes -----------------------===//

#include "GOpt/Support/Format.h"

#include <cmath>
#include <cstdio>

std::string mlir::gopt::formatDouble(const char *spec, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), spec, value);
  return buffer;
}

std::string mlir::gopt::formatMs(double ms) {
  double magnitude = std::fabs(ms);
  if (magnitude >= 100)
    return formatDouble("%.0f", ms);
  if (magnitude >= 10)
    return formatDouble("%.1f", ms);
  if (magnitude >= 1)
    return formatDouble("%.2f", ms);
  if (magnitude >= 0.1 || magnitude == 0)
    return formatDouble("%.3f", ms);
  return formatDouble("%.3g", ms);
}

std::string mlir::gopt::formatBytes(int64_t bytes) {
  double value = static_cast<double>(bytes);
  if (std::fabs(value) < 1024.0)
    return std::to_string(bytes) + " B";
  static const char *const kUnits[] = {"KiB", "MiB", "GiB"};
  int unit = 0;
  value /= 1024.0;
  while (unit < 2 && std::fabs(value) >= 1024.0) {
    value /= 1024.0;
    ++unit;
  }
  return formatDouble("%.1f ", value) + kUnits[unit];
}
