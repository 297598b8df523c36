//===- ObjectCache.h - Files of the on-disk cache of machine code -*- C++ -*-===//
//
// The on-disk cache behind CompileOptions::objectCacheDir: one entry per
// program, `<key>.o` (its machine code) and `<key>.json` (what loading needs:
// entry, kernels, the compile times of the compile that stored it). This
// file holds the entry's names and the cache's upkeep; CompiledGraph writes
// and loads entries.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_OBJECTCACHE_H
#define GOPT_RUNNER_OBJECTCACHE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace gopt {

/// The default bound on a cache folder's entries: 256 MiB (a compiled graph
/// takes kilobytes to a few megabytes).
constexpr uint64_t kDefaultObjectCacheLimitBytes = uint64_t(256) << 20;

/// The two files of the entry `key` in `dir`.
struct ObjectCacheEntry {
  std::string object;
  std::string sidecar;
};
ObjectCacheEntry getObjectCacheEntry(llvm::StringRef dir, llvm::StringRef key);

/// Marks an entry as just used (its files' modification time), so that
/// trimming removes entries unused for longer first.
void touchObjectCacheEntry(const ObjectCacheEntry &entry);

/// Removes the least recently used entries of `dir` until its entries hold
/// at most `limitBytes`, never the entry `keepKey` (the one just stored),
/// and temporary files writers left behind over an hour ago. gopt-explore's
/// records of runs (`<key>.measurements.json`) count as entries of their
/// own. Files that are not cache entries are left alone. Returns the number
/// of entries removed.
size_t trimObjectCache(llvm::StringRef dir, uint64_t limitBytes,
                       llvm::StringRef keepKey);

} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNNER_OBJECTCACHE_H
