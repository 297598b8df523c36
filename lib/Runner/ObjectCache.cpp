//===- ObjectCache.cpp - Files of the on-disk cache of machine code -------===//
//
// Upkeep is best effort: a cache that cannot be read, touched or trimmed is
// a missed speed-up or a larger folder, never an error. Recency is the
// object file's modification time, set when the entry is stored and again
// each time it is loaded.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runner/ObjectCache.h"
#include "GOpt/Support/Files.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <vector>

using namespace mlir::gopt;
namespace fs = llvm::sys::fs;

ObjectCacheEntry mlir::gopt::getObjectCacheEntry(llvm::StringRef dir,
                                                 llvm::StringRef key) {
  llvm::SmallString<256> object = dir, sidecar = dir;
  llvm::sys::path::append(object, key + ".o");
  llvm::sys::path::append(sidecar, key + ".json");
  return {object.str().str(), sidecar.str().str()};
}

void mlir::gopt::touchObjectCacheEntry(const ObjectCacheEntry &entry) {
  touchFile(entry.object);
  touchFile(entry.sidecar);
}

namespace {
/// What trimming knows of one entry.
struct EntryFiles {
  uint64_t bytes = 0;
  llvm::sys::TimePoint<> lastUsed;
  bool hasObject = false;
  /// A record of an exploration's runs (`<key>.measurements.json`,
  /// GOpt/Explore/MeasurementCache.h): trimmed by its own last use.
  std::string record;
};
} // namespace

/// A cache key: 64 lowercase hex digits (a SHA-256).
static bool isKey(llvm::StringRef name) {
  return name.size() == 64 && llvm::all_of(name, [](char c) {
           return llvm::isDigit(c) || (c >= 'a' && c <= 'f');
         });
}

size_t mlir::gopt::trimObjectCache(llvm::StringRef dir, uint64_t limitBytes,
                                   llvm::StringRef keepKey) {
  llvm::StringMap<EntryFiles> entries;
  uint64_t total = 0;
  auto staleBefore = std::chrono::system_clock::now() - std::chrono::hours(1);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef path = it->path();
    llvm::StringRef name = llvm::sys::path::filename(path);
    fs::file_status status;
    if (fs::status(path, status) || !fs::is_regular_file(status))
      continue;
    // `<key>.o.tmp<pid>`, `<key>.json.tmp<pid>`: a writer's, or one that
    // died before renaming it.
    auto [stem, tmp] = name.split(".tmp");
    if (!tmp.empty() && isKey(stem.split('.').first)) {
      if (status.getLastModificationTime() < staleBefore)
        (void)fs::remove(path);
      continue;
    }
    llvm::StringRef key = name.split('.').first;
    if (isKey(key) && name == (key + ".measurements.json").str()) {
      EntryFiles &entry = entries[("runs:" + key).str()];
      entry.bytes += status.getSize();
      entry.hasObject = true;
      entry.lastUsed = status.getLastModificationTime();
      entry.record = path.str();
      total += status.getSize();
      continue;
    }
    llvm::StringRef extension = llvm::sys::path::extension(name);
    if (!isKey(key) || (extension != ".o" && extension != ".json") ||
        name.size() != key.size() + extension.size())
      continue;
    EntryFiles &entry = entries[key];
    entry.bytes += status.getSize();
    total += status.getSize();
    if (extension == ".o") {
      entry.hasObject = true;
      entry.lastUsed = status.getLastModificationTime();
    }
  }
  if (total <= limitBytes)
    return 0;
  // Least recently used first; a sidecar without its object (never read)
  // goes before any whole entry.
  std::vector<std::pair<llvm::StringRef, EntryFiles *>> order;
  for (auto &entry : entries)
    if (entry.getKey() != keepKey)
      order.push_back({entry.getKey(), &entry.getValue()});
  llvm::sort(order, [](const auto &a, const auto &b) {
    if (a.second->hasObject != b.second->hasObject)
      return !a.second->hasObject;
    if (a.second->lastUsed != b.second->lastUsed)
      return a.second->lastUsed < b.second->lastUsed;
    return a.first < b.first;
  });
  size_t removed = 0;
  for (auto &[key, files] : order) {
    if (total <= limitBytes)
      break;
    if (!files->record.empty()) {
      (void)fs::remove(files->record);
      total -= files->bytes;
      ++removed;
      continue;
    }
    ObjectCacheEntry entry = getObjectCacheEntry(dir, key);
    // The object first: a sidecar without its object is never read.
    (void)fs::remove(entry.object);
    (void)fs::remove(entry.sidecar);
    total -= files->bytes;
    ++removed;
  }
  return removed;
}
