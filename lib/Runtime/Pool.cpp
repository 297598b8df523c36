//===- Pool.cpp - gopt_pool2d: the library path for pooling ---------------===//
//
// gopt-lower-to-llvm{contractions=library} turns f32 max and sum pooling
// (`linalg.pooling_nchw_max` / `_sum` on the padded input; average pooling
// divides the sum afterwards) into calls of gopt_pool2d, and the
// `linalg.pooling_nhwc_*` of channels-last pooling into gopt_pool2d_nhwc.
// The generated code of a strided window unrolls into one element move per
// output; on NCHW this loop runs over output rows, each window offset a
// strided pass over the row, on NHWC over output pixels, each window offset
// a contiguous pass over the channels; the compiler vectorizes both. It is
// compiled for AVX-512, AVX2 and the baseline, and picks the widest the CPU
// has on each call.
//
// The test library of the JIT integration tests (test/Integration/lib)
// compiles this file too.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <cmath>
#include <cstdint>

namespace {

struct PoolShape {
  /// NCHW: planes = n·c, channels = 1; NHWC: planes = n, channels = c.
  int64_t planes, channels, h, w, kh, kw, oh, ow, sh, sw, dh, dw;
};

/// maximumf: NaN propagates, −0 < +0.
inline float maximum(float a, float b) {
  if (b > a || b != b || (b == a && std::signbit(a) && !std::signbit(b)))
    return b;
  return a;
}

template <bool Max>
inline __attribute__((always_inline)) void poolPlanes(const PoolShape &s,
                                                      const float *input,
                                                      float *output) {
  for (int64_t p = 0; p < s.planes; ++p) {
    const float *plane = input + p * s.h * s.w;
    for (int64_t y = 0; y < s.oh; ++y) {
      float *out = output + (p * s.oh + y) * s.ow;
      for (int64_t x = 0; x < s.ow; ++x)
        out[x] = Max ? -INFINITY : 0.0f;
      for (int64_t i = 0; i < s.kh; ++i) {
        const float *row = plane + (y * s.sh + i * s.dh) * s.w;
        for (int64_t j = 0; j < s.kw; ++j) {
          const float *in = row + j * s.dw;
          for (int64_t x = 0; x < s.ow; ++x) {
            float v = in[x * s.sw];
            out[x] = Max ? maximum(out[x], v) : out[x] + v;
          }
        }
      }
    }
  }
}

template <bool Max>
inline __attribute__((always_inline)) void poolPixels(const PoolShape &s,
                                                      const float *input,
                                                      float *output) {
  int64_t c = s.channels;
  for (int64_t b = 0; b < s.planes; ++b) {
    const float *image = input + b * s.h * s.w * c;
    for (int64_t y = 0; y < s.oh; ++y)
      for (int64_t x = 0; x < s.ow; ++x) {
        float *out = output + ((b * s.oh + y) * s.ow + x) * c;
        for (int64_t ch = 0; ch < c; ++ch)
          out[ch] = Max ? -INFINITY : 0.0f;
        for (int64_t i = 0; i < s.kh; ++i)
          for (int64_t j = 0; j < s.kw; ++j) {
            const float *in =
                image + ((y * s.sh + i * s.dh) * s.w + x * s.sw + j * s.dw) * c;
            for (int64_t ch = 0; ch < c; ++ch)
              out[ch] = Max ? maximum(out[ch], in[ch]) : out[ch] + in[ch];
          }
      }
  }
}

template <bool Max>
inline __attribute__((always_inline)) void pool(const PoolShape &s,
                                                const float *input,
                                                float *output) {
  if (s.channels == 1)
    poolPlanes<Max>(s, input, output);
  else
    poolPixels<Max>(s, input, output);
}

template <bool Max>
__attribute__((target("avx512f"))) void poolAVX512(const PoolShape &s,
                                                   const float *input,
                                                   float *output) {
  pool<Max>(s, input, output);
}

template <bool Max>
__attribute__((target("avx2,fma"))) void poolAVX2(const PoolShape &s,
                                                  const float *input,
                                                  float *output) {
  pool<Max>(s, input, output);
}

template <bool Max>
void poolBaseline(const PoolShape &s, const float *input, float *output) {
  pool<Max>(s, input, output);
}

template <bool Max>
void poolForThisCPU(const PoolShape &s, const float *input, float *output) {
  static const int level = __builtin_cpu_supports("avx512f")  ? 2
                           : __builtin_cpu_supports("avx2") ? 1
                                                            : 0;
  if (level == 2)
    poolAVX512<Max>(s, input, output);
  else if (level == 1)
    poolAVX2<Max>(s, input, output);
  else
    poolBaseline<Max>(s, input, output);
}

} // namespace

extern "C" void gopt_pool2d(int64_t kind, int64_t n, int64_t c, int64_t h,
                            int64_t w, int64_t kh, int64_t kw, int64_t oh,
                            int64_t ow, int64_t sh, int64_t sw, int64_t dh,
                            int64_t dw, const float *input, float *output) {
  if (n <= 0 || c <= 0 || oh <= 0 || ow <= 0)
    return;
  PoolShape s{n * c, 1, h, w, kh, kw, oh, ow, sh, sw, dh, dw};
  if (kind == 0)
    poolForThisCPU<true>(s, input, output);
  else
    poolForThisCPU<false>(s, input, output);
}

extern "C" void gopt_pool2d_nhwc(int64_t kind, int64_t n, int64_t c,
                                 int64_t h, int64_t w, int64_t kh, int64_t kw,
                                 int64_t oh, int64_t ow, int64_t sh,
                                 int64_t sw, int64_t dh, int64_t dw,
                                 const float *input, float *output) {
  if (n <= 0 || c <= 0 || oh <= 0 || ow <= 0)
    return;
  PoolShape s{n, c, h, w, kh, kw, oh, ow, sh, sw, dh, dw};
  if (kind == 0)
    poolForThisCPU<true>(s, input, output);
  else
    poolForThisCPU<false>(s, input, output);
}
