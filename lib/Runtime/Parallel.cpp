//===- Parallel.cpp - gopt_parallel_for: generated loops on all threads ---===//
//
// gopt-parallelize-kernel-loops outlines the body of a kernel's parallel
// loop nest into `void body(void *context, int64_t begin, int64_t end)`,
// which runs the iterations [begin, end) of the nest (linearized), and calls
// gopt_parallel_for with it. The iterations are split into one contiguous
// chunk per thread (neighbouring iterations touch neighbouring memory).
//
// The threads are OpenMP's: the same pool oneDNN's GEMMs and convolutions
// run on, so library calls and generated loops never compete for cores, and
// one setting (runtime::setLibraryThreads, gopt-run's --threads) sizes both.
// Called from inside a parallel region (a library's callback, a nested
// kernel), or with one thread, the body runs on the calling thread.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <algorithm>

#if defined(_OPENMP)
#include <omp.h>
#endif

extern "C" void gopt_parallel_for(void (*body)(void *, int64_t, int64_t),
                                  void *context, int64_t iterations) {
  if (iterations <= 0)
    return;
#if defined(_OPENMP)
  int64_t threads = std::min<int64_t>(omp_get_max_threads(), iterations);
  if (threads > 1 && !omp_in_parallel()) {
#pragma omp parallel num_threads(static_cast <int>(threads))
    {
      int64_t team = omp_get_num_threads();
      int64_t index = omp_get_thread_num();
      int64_t begin = iterations * index / team;
      int64_t end = iterations * (index + 1) / team;
      if (begin < end)
        body(context, begin, end);
    }
    return;
  }
#endif
  body(context, 0, iterations);
}
