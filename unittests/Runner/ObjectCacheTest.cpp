//===- ObjectCacheTest.cpp - Upkeep of the on-disk cache of machine code ---===//
//
// Entries are fake files of known sizes and ages in a fresh folder, so which
// ones trimming removes is checked exactly.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runner/ObjectCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <chrono>

using namespace mlir::gopt;
namespace fs = llvm::sys::fs;

namespace {

class ObjectCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("gopt-object-cache-test", dir));
  }
  void TearDown() override { (void)fs::remove_directories(dir); }

  /// A 64-hex-digit key made of one repeated digit.
  static std::string key(char digit) { return std::string(64, digit); }

  std::string path(llvm::StringRef name) {
    llvm::SmallString<256> p(dir.str());
    llvm::sys::path::append(p, name);
    return p.str().str();
  }

  /// Writes `bytes` bytes to `name`, last modified `ageMinutes` ago.
  void write(llvm::StringRef name, size_t bytes, int ageMinutes) {
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(path(name), ec);
      ASSERT_FALSE(ec);
      os << std::string(bytes, 'x');
    }
    int fd = -1;
    ASSERT_FALSE(fs::openFileForWrite(path(name), fd, fs::CD_OpenExisting,
                                      fs::OF_Append));
    auto when = std::chrono::system_clock::now() -
                std::chrono::minutes(ageMinutes);
    ASSERT_FALSE(fs::setLastAccessAndModificationTime(
        fd, std::chrono::time_point_cast<std::chrono::nanoseconds>(when)));
    ASSERT_FALSE(fs::closeFile(fd));
  }

  /// An entry: a 1000-byte object and a 24-byte sidecar.
  void writeEntry(char digit, int ageMinutes) {
    write(key(digit) + ".o", 1000, ageMinutes);
    write(key(digit) + ".json", 24, ageMinutes);
  }

  bool exists(llvm::StringRef name) { return fs::exists(path(name)); }
  bool hasEntry(char digit) {
    return exists(key(digit) + ".o") && exists(key(digit) + ".json");
  }

  llvm::SmallString<128> dir;
};

} // namespace

TEST_F(ObjectCacheTest, EntryFilesAreKeyDotOAndKeyDotJson) {
  ObjectCacheEntry entry = getObjectCacheEntry("/c", key('a'));
  EXPECT_EQ(entry.object, "/c/" + key('a') + ".o");
  EXPECT_EQ(entry.sidecar, "/c/" + key('a') + ".json");
}

TEST_F(ObjectCacheTest, UnderTheLimitNothingIsRemoved) {
  writeEntry('1', 30);
  writeEntry('2', 20);
  EXPECT_EQ(trimObjectCache(dir, 2 * 1024, key('2')), 0u);
  EXPECT_TRUE(hasEntry('1'));
  EXPECT_TRUE(hasEntry('2'));
}

TEST_F(ObjectCacheTest, TheLeastRecentlyUsedGoFirstAndTheNewOneStays) {
  writeEntry('1', 30);
  writeEntry('2', 40); // the oldest
  writeEntry('3', 20);
  writeEntry('4', 50); // older still, but just stored: kept
  // Four entries of 1024 bytes, room for two.
  EXPECT_EQ(trimObjectCache(dir, 2 * 1024, key('4')), 2u);
  EXPECT_FALSE(exists(key('2') + ".o"));
  EXPECT_FALSE(exists(key('2') + ".json"));
  EXPECT_FALSE(hasEntry('1'));
  EXPECT_TRUE(hasEntry('3'));
  EXPECT_TRUE(hasEntry('4'));
}

TEST_F(ObjectCacheTest, UsingAnEntryMakesItRecent) {
  writeEntry('1', 30);
  writeEntry('2', 20);
  writeEntry('3', 10);
  touchObjectCacheEntry(getObjectCacheEntry(dir, key('1')));
  EXPECT_EQ(trimObjectCache(dir, 2 * 1024, key('3')), 1u);
  EXPECT_TRUE(hasEntry('1'));
  EXPECT_FALSE(hasEntry('2'));
  EXPECT_TRUE(hasEntry('3'));
}

TEST_F(ObjectCacheTest, ALimitOfZeroKeepsOnlyTheNewEntry) {
  writeEntry('1', 30);
  writeEntry('2', 20);
  EXPECT_EQ(trimObjectCache(dir, 0, key('2')), 1u);
  EXPECT_FALSE(hasEntry('1'));
  EXPECT_TRUE(hasEntry('2'));
}

TEST_F(ObjectCacheTest, OrphanedSidecarsGoBeforeWholeEntries) {
  writeEntry('1', 30);
  write(key('2') + ".json", 1024, 5); // its object is gone: never read
  writeEntry('3', 10);
  EXPECT_EQ(trimObjectCache(dir, 2 * 1024, key('3')), 1u);
  EXPECT_TRUE(hasEntry('1'));
  EXPECT_FALSE(exists(key('2') + ".json"));
}

TEST_F(ObjectCacheTest, RecordsOfRunsAreTrimmedByTheirLastUse) {
  // gopt-explore's record of an exploration's runs shares the folder: it
  // counts against the limit and goes when it is the least recently used,
  // whatever program shares its key's digits.
  writeEntry('1', 30);
  write(key('1') + ".measurements.json", 1024, 40); // the oldest
  writeEntry('3', 10);
  EXPECT_EQ(trimObjectCache(dir, 2 * 1024, key('3')), 1u);
  EXPECT_FALSE(exists(key('1') + ".measurements.json"));
  EXPECT_TRUE(hasEntry('1'));
  EXPECT_TRUE(hasEntry('3'));
  // A recent record stays and an older program goes.
  write(key('4') + ".measurements.json", 1024, 1);
  EXPECT_EQ(trimObjectCache(dir, 2 * 1024, key('3')), 1u);
  EXPECT_TRUE(exists(key('4') + ".measurements.json"));
  EXPECT_FALSE(hasEntry('1'));
}

TEST_F(ObjectCacheTest, StaleTemporaryFilesGoAndOtherFilesStay) {
  write(key('1') + ".o.tmp4242", 10, 120);    // a writer died long ago
  write(key('2') + ".json.tmp4243", 10, 120); // likewise
  write(key('3') + ".o.tmp4244", 10, 1);      // a writer at work
  write("notes.txt", 5000, 300);
  write("abc.o", 5000, 300); // not a key
  writeEntry('4', 10);
  trimObjectCache(dir, 1 << 20, key('4'));
  EXPECT_FALSE(exists(key('1') + ".o.tmp4242"));
  EXPECT_FALSE(exists(key('2') + ".json.tmp4243"));
  EXPECT_TRUE(exists(key('3') + ".o.tmp4244"));
  EXPECT_TRUE(exists("notes.txt"));
  EXPECT_TRUE(exists("abc.o"));
  // Foreign files do not count against the limit either.
  EXPECT_EQ(trimObjectCache(dir, 1024, key('4')), 0u);
  EXPECT_TRUE(hasEntry('4'));
}

TEST_F(ObjectCacheTest, AMissingFolderIsNoError) {
  EXPECT_EQ(trimObjectCache(path("absent"), 0, key('1')), 0u);
}
