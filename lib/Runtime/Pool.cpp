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
// has on each call. gopt_pool2d_nhwc takes the input's padding and skips
// window positions outside the input (the reduction's identity as
// padding), so no padded copy is made. Output rows are split between the
// runtime's threads (OpenMP's, the pool the rest of the runtime uses) when
// there are enough windows.
//
// The test library of the JIT integration tests (test/Integration/lib)
// compiles this file too.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <cmath>
#include <cstdint>

namespace {

/// Windows (output elements times window size) below which pooling stays
/// on the calling thread.
constexpr int64_t kMinParallelWork = 1 << 16;

struct PoolShape {
  /// NCHW: planes = n·c, channels = 1; NHWC: planes = n, channels = c.
  int64_t planes, channels, h, w, kh, kw, oh, ow, sh, sw, dh, dw;
  /// NHWC: the input's padding (window positions outside it are skipped:
  /// the reduction's identity, -inf for max and 0 for sum, as padding).
  int64_t padTop = 0, padLeft = 0;
  /// Whether any side is padded: windows may reach outside the input.
  bool padded = false;
  /// Output rows (plane, y), plane-major, this call computes.
  int64_t rowBegin = 0, rowEnd = 0;
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
  for (int64_t row = s.rowBegin; row < s.rowEnd; ++row) {
    int64_t p = row / s.oh, y = row % s.oh;
    const float *plane = input + p * s.h * s.w;
    float *out = output + (p * s.oh + y) * s.ow;
    for (int64_t x = 0; x < s.ow; ++x)
      out[x] = Max ? -INFINITY : 0.0f;
    for (int64_t i = 0; i < s.kh; ++i) {
      const float *line = plane + (y * s.sh + i * s.dh) * s.w;
      for (int64_t j = 0; j < s.kw; ++j) {
        const float *in = line + j * s.dw;
        for (int64_t x = 0; x < s.ow; ++x) {
          float v = in[x * s.sw];
          out[x] = Max ? maximum(out[x], v) : out[x] + v;
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
  for (int64_t row = s.rowBegin; row < s.rowEnd; ++row) {
    int64_t b = row / s.oh, y = row % s.oh;
    const float *image = input + b * s.h * s.w * c;
    for (int64_t x = 0; x < s.ow; ++x) {
      float *out = output + ((b * s.oh + y) * s.ow + x) * c;
      for (int64_t ch = 0; ch < c; ++ch)
        out[ch] = Max ? -INFINITY : 0.0f;
      for (int64_t i = 0; i < s.kh; ++i) {
        int64_t iy = y * s.sh + i * s.dh - s.padTop;
        if (iy < 0 || iy >= s.h)
          continue;
        for (int64_t j = 0; j < s.kw; ++j) {
          int64_t ix = x * s.sw + j * s.dw - s.padLeft;
          if (ix < 0 || ix >= s.w)
            continue;
          const float *in = image + (iy * s.w + ix) * c;
          for (int64_t ch = 0; ch < c; ++ch)
            out[ch] = Max ? maximum(out[ch], in[ch]) : out[ch] + in[ch];
        }
      }
    }
  }
}

/// One channel is a plane: rows of output pixels a window offset walks
/// with a stride, when no window reaches outside the input (poolPlanes
/// reads no padding: NCHW inputs come padded already).
template <bool Max>
inline __attribute__((always_inline)) void pool(const PoolShape &s,
                                                const float *input,
                                                float *output) {
  if (s.channels == 1 && !s.padded)
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
void poolRows(const PoolShape &s, const float *input, float *output) {
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

/// What each chunk of output rows needs (gopt_parallel_for's context).
struct PoolTask {
  const PoolShape *shape;
  const float *input;
  float *output;
};

/// Output rows [begin, end) of the task `context` points to.
template <bool Max> void poolChunk(void *context, int64_t begin, int64_t end) {
  const PoolTask &task = *static_cast<const PoolTask *>(context);
  PoolShape part = *task.shape;
  part.rowBegin = begin;
  part.rowEnd = end;
  poolRows<Max>(part, task.input, task.output);
}

/// All output rows, split between the runtime's threads by
/// gopt_parallel_for (contiguous ranges) when there are enough windows.
template <bool Max>
void poolForThisCPU(const PoolShape &s, const float *input, float *output) {
  int64_t rows = s.planes * s.oh;
  int64_t work = rows * s.ow * s.channels * s.kh * s.kw;
  PoolTask task{&s, input, output};
  if (work >= kMinParallelWork)
    gopt_parallel_for(&poolChunk<Max>, &task, rows);
  else
    poolChunk<Max>(&task, 0, rows);
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

extern "C" void gopt_pool2d_nhwc(int64_t kind, int64_t n, int64_t c, int64_t h,
                                 int64_t w, int64_t kh, int64_t kw, int64_t oh,
                                 int64_t ow, int64_t sh, int64_t sw, int64_t dh,
                                 int64_t dw, int64_t padTop, int64_t padLeft,
                                 int64_t padBottom, int64_t padRight,
                                 const float *input, float *output) {
  if (n <= 0 || c <= 0 || oh <= 0 || ow <= 0)
    return;
  PoolShape s{n, c, h, w, kh, kw, oh, ow, sh, sw, dh, dw};
  s.padTop = padTop;
  s.padLeft = padLeft;
  // The output size already says how far windows reach: the bottom and
  // right padding only say whether they leave the input.
  s.padded = padTop || padLeft || padBottom || padRight;
  if (kind == 0)
    poolForThisCPU<true>(s, input, output);
  else
    poolForThisCPU<false>(s, input, output);
}
