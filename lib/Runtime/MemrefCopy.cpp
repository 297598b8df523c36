//===- MemrefCopy.cpp - The strided copy lowered memref.copy calls --------===//
//
// finalize-memref-to-llvm lowers a memref.copy between non-contiguous
// memrefs to a call of `memrefCopy(elemSize, src, dst)` over unranked
// descriptors, which upstream's libmlir_c_runner_utils provides; compiled
// GOpt code gets it from this runtime instead. Same ABI: an unranked memref
// is {rank, pointer to the ranked descriptor {allocated, aligned, offset,
// sizes[rank], strides[rank]}}.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <cstring>
#include <vector>

namespace {

struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};

/// View of a ranked descriptor's fields.
struct RankedView {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;

  RankedView(const UnrankedDescriptor &u) {
    auto *words = static_cast<int64_t *>(u.descriptor);
    aligned = reinterpret_cast<char *>(words[1]);
    offset = words[2];
    sizes = words + 3;
    strides = words + 3 + u.rank;
  }
};

} // namespace

extern "C" void memrefCopy(int64_t elemSize, void *srcArg, void *dstArg) {
  auto *src = static_cast<UnrankedDescriptor *>(srcArg);
  auto *dst = static_cast<UnrankedDescriptor *>(dstArg);
  int64_t rank = src->rank;
  RankedView from(*src), to(*dst);
  int64_t total = 1;
  for (int64_t d = 0; d < rank; ++d)
    total *= from.sizes[d];
  if (total == 0)
    return;
  if (rank == 0) {
    std::memcpy(to.aligned + to.offset * elemSize,
                from.aligned + from.offset * elemSize, elemSize);
    return;
  }
  // Walk the index space; copy contiguous innermost runs at once.
  bool innerContiguous =
      from.strides[rank - 1] == 1 && to.strides[rank - 1] == 1;
  int64_t run = innerContiguous ? from.sizes[rank - 1] : 1;
  int64_t outer = innerContiguous ? rank - 1 : rank;
  std::vector<int64_t> index(rank, 0);
  for (int64_t done = 0; done < total; done += run) {
    int64_t srcAt = from.offset, dstAt = to.offset;
    for (int64_t d = 0; d < rank; ++d) {
      srcAt += index[d] * from.strides[d];
      dstAt += index[d] * to.strides[d];
    }
    std::memmove(to.aligned + dstAt * elemSize,
                 from.aligned + srcAt * elemSize, run * elemSize);
    for (int64_t d = outer - 1; d >= 0; --d) {
      if (++index[d] < from.sizes[d])
        break;
      index[d] = 0;
    }
  }
}
