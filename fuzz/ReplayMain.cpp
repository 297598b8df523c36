//===- ReplayMain.cpp - Run a fuzz target over files, without libFuzzer ---===//
//
// A build with GCC (or without -DGOPT_FUZZ=ON) links this main into each
// fuzz target: it runs LLVMFuzzerTestOneInput once per file named (folders:
// every file inside), so the corpora and the regression inputs of fuzz/ run
// in the ordinary test suite. scripts/fuzz.sh builds the real fuzzers.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool runFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                         bytes.size());
  return true;
}

int main(int argc, char **argv) {
  size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path arg(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (std::filesystem::directory_iterator it(arg, ec), end;
           !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec))
          files.push_back(it->path());
      std::sort(files.begin(), files.end());
      for (const auto &file : files)
        count += runFile(file);
    } else if (!runFile(arg)) {
      return 1;
    } else {
      ++count;
    }
  }
  std::printf("%zu inputs ran\n", count);
  return 0;
}
