//===- OpenLibrary.h - A CUDA library opened at run time ------*- C++ -*-===//
//
// Private to lib/Runtime/CUDA: cuBLAS and cuBLASLt are opened with dlopen at
// their first use, so GOpt builds and links without them.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNTIME_CUDA_OPENLIBRARY_H
#define GOPT_LIB_RUNTIME_CUDA_OPENLIBRARY_H

#include "Driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

namespace gopt {
namespace runtime {
namespace cuda {

struct OpenedLibrary {
  void *handle = nullptr;
  /// The name it was opened by.
  std::string name;
  /// Without a handle: the names tried and the loader's reason.
  std::string tried;

  /// The function `symbol` of the library, as a `Fn`; stops the process
  /// when the library has none.
  template <typename Fn> Fn function(const char *symbol) const {
    void *f = dlsym(handle, symbol);
    if (!f)
      fatal(name + " has no " + symbol);
    return reinterpret_cast<Fn>(f);
  }
};

/// The library $`variable` names when it is set, else the first of `names`
/// the loader finds.
inline OpenedLibrary openLibrary(const char *variable,
                                 std::initializer_list<const char *> names) {
  OpenedLibrary opened;
  const char *override = std::getenv(variable);
  std::vector<const char *> tried(names);
  if (override && *override)
    tried = {override};
  for (const char *name : tried) {
    opened.handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    opened.tried += opened.tried.empty() ? name : std::string(", ") + name;
    if (opened.handle) {
      opened.name = name;
      return opened;
    }
  }
  if (const char *why = dlerror())
    opened.tried += std::string(": ") + why;
  return opened;
}

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_LIB_RUNTIME_CUDA_OPENLIBRARY_H
