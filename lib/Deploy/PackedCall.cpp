//===- PackedCall.cpp - Call compiled code through its packed entry -------===//

#include "GOpt/Deploy/PackedCall.h"

#include <algorithm>

namespace gopt {
namespace deploy {

std::vector<int64_t> describeRowMajor(const void *data,
                                      const std::vector<int64_t> &shape) {
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> desc(memrefDescriptorWords(rank));
  desc[0] = desc[1] = reinterpret_cast<int64_t>(data);
  desc[2] = 0;
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc[3 + d] = shape[d];
    desc[3 + rank + d] = stride;
    stride *= shape[d];
  }
  return desc;
}

void callPacked(void (*entry)(void **),
                std::vector<std::vector<int64_t>> &arguments,
                const std::vector<int64_t> &resultRanks,
                std::vector<int64_t> &resultWords) {
  int64_t words = 0;
  for (int64_t rank : resultRanks)
    words += memrefDescriptorWords(rank);
  resultWords.assign(std::max<int64_t>(words, 1), 0);
  void *resultPtr = resultWords.data();
  std::vector<void *> argPtrs;
  for (std::vector<int64_t> &desc : arguments)
    argPtrs.push_back(desc.data());
  std::vector<void *> packed;
  if (!resultRanks.empty())
    packed.push_back(&resultPtr);
  for (void *&arg : argPtrs)
    packed.push_back(&arg);
  entry(packed.data());
}

} // namespace deploy
} // namespace gopt
