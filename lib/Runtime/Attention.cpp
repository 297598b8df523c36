//===- Attention.cpp - gopt_attention: attention as one library call ------===//
//
// gopt-lower-to-llvm{contractions=library} turns every
// `gopt.attention_kernel` (the `QKᵀ → scale → mask → softmax → ·V` chain of
// one kernel, docs/Lowering.md "Attention kernels") into one call of
// gopt_attention. For each batch (one or two batch dims, e.g. batch and
// head) and each block of query rows it computes
//
//   S = scale · Q_rows · Kᵀ (+ mask)        gopt_sgemm, alpha = scale
//   P = exp(S − rowmax(S)), l = rowsum(P)    in place, vectorized here
//   O_rows = (P · V) / l                     gopt_sgemm, then a row scale
//
// so the scores of a block (rows × Sk floats, at most 128 KiB) stay in
// cache and are never written to memory as a [B..., Sq, Sk] tensor, as the
// three kernels the chain was before wrote them twice and read them twice.
// Keys the mask hides (-inf) from every row of a block are left out of its
// GEMMs and softmax: a causal mask halves the work.
// Every operand is read through its strides (the head split's transposes
// are never materialized). Blocks are split between the runtime's threads
// (gopt_parallel_for); the GEMMs inside run on one thread each.
//
// The softmax loop is written for AVX-512 and AVX2 (intrinsics) and the
// baseline, and picks the widest the CPU has, like the pooling (Pool.cpp);
// its exp is Cephes' expf polynomial (within a few ulp of expf over the
// range softmax uses, x ≤ 0), exactly 0 below -87.3 (a -inf mask entry
// gives probability 0).
//
// The test library of the JIT integration tests (test/Integration/lib)
// compiles this file too.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
// GCC 12 warns inside its own AVX-512 headers (the reductions'
// _mm512_undefined_ps) under -Wall.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#include <vector>

namespace {

/// Scores of one block of query rows, in floats, at most: the block's rows
/// are chosen so that they fit (128 KiB, a core's L2 share on any x86 CPU
/// the runtime targets), and at most kMaxBlockRows of them.
constexpr int64_t kMaxBlockFloats = 32 * 1024;
constexpr int64_t kMaxBlockRows = 128;

/// A 4-D strided operand: element (b0, b1, i, j) at
/// data[b0 * s[0] + b1 * s[1] + i * s[2] + j * s[3]].
struct Strided {
  const float *data;
  int64_t s[4];
  const float *at(int64_t b0, int64_t b1, int64_t i) const {
    return data + b0 * s[0] + b1 * s[1] + i * s[2];
  }
};

struct AttentionShape {
  int64_t b0, b1, sq, sk, d, dv, rows;
  float scale;
  Strided q, kt, v, mask;
  float *out;
  int64_t o[4];
};

/// Rows per block: as many as fit kMaxBlockFloats scores, at most
/// kMaxBlockRows, at most all of them.
int64_t blockRows(int64_t sq, int64_t sk) {
  int64_t rows =
      std::max<int64_t>(kMaxBlockFloats / std::max<int64_t>(sk, 1), 1);
  return std::min({rows, kMaxBlockRows, std::max<int64_t>(sq, 1)});
}

// exp on a vector of x ≤ 88 (softmax's arguments are ≤ 0): Cephes' expf
// polynomial on r = x − n·ln 2 (n = round(x / ln 2), ln 2 in two parts),
// times 2^n; 0 below -87.3 (a -inf mask entry, or a score far below its
// row's maximum), NaN stays NaN.
constexpr float kLog2e = 1.44269504088896341f, kLn2Hi = 0.693359375f,
                kLn2Lo = -2.12194440e-4f, kTooSmall = -87.3f;
constexpr float kExpPoly[] = {1.9875691500e-4f, 1.3981999507e-3f,
                              8.3334519073e-3f, 4.1665795894e-2f,
                              1.6666665459e-1f, 5.0000001201e-1f};

/// The scalar form, for the baseline and the tails.
inline float expScalar(float x) {
  if (x < kTooSmall)
    return 0.0f;
  float n = std::nearbyint(x * kLog2e);
  float r = x - n * kLn2Hi - n * kLn2Lo;
  float p = kExpPoly[0];
  for (int i = 1; i < 6; ++i)
    p = p * r + kExpPoly[i];
  p = p * r * r + r + 1.0f;
  return std::ldexp(p, static_cast<int>(n));
}

__attribute__((target("avx512f"))) inline __m512 exp512(__m512 x) {
  __m512 n =
      _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(kLog2e)),
                           _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Hi), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Lo), r);
  __m512 p = _mm512_set1_ps(kExpPoly[0]);
  for (int i = 1; i < 6; ++i)
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpPoly[i]));
  p = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r,
                      _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  __m512 e = _mm512_scalef_ps(p, n);
  __mmask16 tiny = _mm512_cmp_ps_mask(x, _mm512_set1_ps(kTooSmall), _CMP_LT_OQ);
  return _mm512_mask_mov_ps(e, tiny, _mm512_setzero_ps());
}

__attribute__((target("avx2,fma"))) inline __m256 exp256(__m256 x) {
  __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(kLog2e)),
                             _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Hi), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Lo), r);
  __m256 p = _mm256_set1_ps(kExpPoly[0]);
  for (int i = 1; i < 6; ++i)
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpPoly[i]));
  p = _mm256_fmadd_ps(_mm256_mul_ps(p, r), r,
                      _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  // 2^n through the exponent bits; n ≥ -126 where the result is kept.
  __m256 tiny = _mm256_cmp_ps(x, _mm256_set1_ps(kTooSmall), _CMP_LT_OQ);
  __m256i bits = _mm256_slli_epi32(
      _mm256_add_epi32(
          _mm256_cvtps_epi32(_mm256_max_ps(n, _mm256_set1_ps(-126.0f))),
          _mm256_set1_epi32(127)),
      23);
  __m256 e = _mm256_mul_ps(p, _mm256_castsi256_ps(bits));
  return _mm256_andnot_ps(tiny, e);
}

/// Adds row i of the mask (element j at mask[i * maskRow + j * maskCol])
/// to row i of the scores.
inline void addMask(float *s, int64_t sk, const float *mask, int64_t maskCol) {
  if (maskCol == 1) {
    for (int64_t j = 0; j < sk; ++j)
      s[j] += mask[j];
  } else {
    for (int64_t j = 0; j < sk; ++j)
      s[j] += mask[j * maskCol];
  }
}

/// Adds the mask to `rows` rows of scores (row stride `sk`), then turns each
/// row into exp(s − max) in place and writes the row's sum to `sums`.
__attribute__((target("avx512f"))) void
softmaxAVX512(float *scores, int64_t rows, int64_t sk, const float *mask,
              int64_t maskRow, int64_t maskCol, float *sums) {
  int64_t body = sk & ~int64_t(15);
  __mmask16 tail = static_cast<__mmask16>((1u << (sk - body)) - 1);
  for (int64_t i = 0; i < rows; ++i) {
    float *s = scores + i * sk;
    if (mask)
      addMask(s, sk, mask + i * maskRow, maskCol);
    __m512 max = _mm512_set1_ps(-INFINITY);
    for (int64_t j = 0; j < body; j += 16)
      max = _mm512_max_ps(max, _mm512_loadu_ps(s + j));
    if (tail)
      max = _mm512_mask_max_ps(max, tail, max,
                               _mm512_maskz_loadu_ps(tail, s + body));
    __m512 rowMax = _mm512_set1_ps(_mm512_reduce_max_ps(max));
    __m512 sum = _mm512_setzero_ps();
    for (int64_t j = 0; j < body; j += 16) {
      __m512 e = exp512(_mm512_sub_ps(_mm512_loadu_ps(s + j), rowMax));
      _mm512_storeu_ps(s + j, e);
      sum = _mm512_add_ps(sum, e);
    }
    if (tail) {
      __m512 e =
          exp512(_mm512_sub_ps(_mm512_maskz_loadu_ps(tail, s + body), rowMax));
      _mm512_mask_storeu_ps(s + body, tail, e);
      sum = _mm512_mask_add_ps(sum, tail, sum, e);
    }
    sums[i] = _mm512_reduce_add_ps(sum);
  }
}

__attribute__((target("avx2,fma"))) void
softmaxAVX2(float *scores, int64_t rows, int64_t sk, const float *mask,
            int64_t maskRow, int64_t maskCol, float *sums) {
  int64_t body = sk & ~int64_t(7);
  for (int64_t i = 0; i < rows; ++i) {
    float *s = scores + i * sk;
    if (mask)
      addMask(s, sk, mask + i * maskRow, maskCol);
    __m256 max8 = _mm256_set1_ps(-INFINITY);
    for (int64_t j = 0; j < body; j += 8)
      max8 = _mm256_max_ps(max8, _mm256_loadu_ps(s + j));
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, max8);
    float max = -INFINITY;
    for (float lane : lanes)
      max = std::max(max, lane);
    for (int64_t j = body; j < sk; ++j)
      max = std::max(max, s[j]);
    __m256 rowMax = _mm256_set1_ps(max);
    __m256 sum8 = _mm256_setzero_ps();
    for (int64_t j = 0; j < body; j += 8) {
      __m256 e = exp256(_mm256_sub_ps(_mm256_loadu_ps(s + j), rowMax));
      _mm256_storeu_ps(s + j, e);
      sum8 = _mm256_add_ps(sum8, e);
    }
    _mm256_store_ps(lanes, sum8);
    float sum = 0.0f;
    for (float lane : lanes)
      sum += lane;
    for (int64_t j = body; j < sk; ++j)
      sum += (s[j] = expScalar(s[j] - max));
    sums[i] = sum;
  }
}

void softmaxBaseline(float *scores, int64_t rows, int64_t sk, const float *mask,
                     int64_t maskRow, int64_t maskCol, float *sums) {
  for (int64_t i = 0; i < rows; ++i) {
    float *s = scores + i * sk;
    if (mask)
      addMask(s, sk, mask + i * maskRow, maskCol);
    float max = -INFINITY;
    for (int64_t j = 0; j < sk; ++j)
      max = std::max(max, s[j]);
    float sum = 0.0f;
    for (int64_t j = 0; j < sk; ++j)
      sum += (s[j] = expScalar(s[j] - max));
    sums[i] = sum;
  }
}

void softmax(float *scores, int64_t rows, int64_t sk, const float *mask,
             int64_t maskRow, int64_t maskCol, float *sums) {
  static const int level =
      __builtin_cpu_supports("avx512f")                                 ? 2
      : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1
                                                                        : 0;
  if (level == 2)
    softmaxAVX512(scores, rows, sk, mask, maskRow, maskCol, sums);
  else if (level == 1)
    softmaxAVX2(scores, rows, sk, mask, maskRow, maskCol, sums);
  else
    softmaxBaseline(scores, rows, sk, mask, maskRow, maskCol, sums);
}

/// Keys [first, end) of a block of query rows: outside them the mask is
/// -inf in every row of the block, so their probabilities are 0 and the
/// block's GEMMs and softmax leave them out (a causal mask: the keys after
/// the block's last row, half the work of the whole). Empty when every key
/// of every row is masked.
struct KeyRange {
  int64_t first, end;
};

KeyRange unmaskedKeys(const float *mask, int64_t rows, int64_t sk,
                      int64_t maskRow, int64_t maskCol) {
  KeyRange keys{sk, 0};
  for (int64_t i = 0; i < rows; ++i) {
    const float *m = mask + i * maskRow;
    int64_t first = 0, end = sk;
    while (first < keys.first && first < end && m[first * maskCol] == -INFINITY)
      ++first;
    while (end > keys.end && end > first && m[(end - 1) * maskCol] == -INFINITY)
      --end;
    if (first < end) {
      keys.first = std::min(keys.first, first);
      keys.end = std::max(keys.end, end);
    }
  }
  return keys;
}

/// Blocks [begin, end) of the shape `context` points to: block t is rows
/// [r·rows, …) of batch (t / blocksPerBatch).
void attentionBlocks(void *context, int64_t begin, int64_t end) {
  const AttentionShape &a = *static_cast<const AttentionShape *>(context);
  int64_t blocksPerBatch = (a.sq + a.rows - 1) / a.rows;
  // One block's scores and row sums, kept by each thread between calls.
  thread_local std::vector<float> scratch;
  size_t floats = static_cast<size_t>(a.rows * a.sk + a.rows);
  if (scratch.size() < floats)
    scratch.resize(floats);
  float *scores = scratch.data(), *sums = scores + a.rows * a.sk;
  for (int64_t t = begin; t < end; ++t) {
    int64_t batch = t / blocksPerBatch, block = t % blocksPerBatch;
    int64_t b0 = batch / a.b1, b1 = batch % a.b1;
    int64_t row = block * a.rows;
    int64_t rows = std::min(a.rows, a.sq - row);
    float *out = a.out + b0 * a.o[0] + b1 * a.o[1] + row * a.o[2];
    const float *mask = a.mask.data ? a.mask.at(b0, b1, row) : nullptr;
    // The keys the block's rows may attend to: [first, end).
    KeyRange keys{0, a.sk};
    if (mask)
      keys = unmaskedKeys(mask, rows, a.sk, a.mask.s[2], a.mask.s[3]);
    if (keys.end <= keys.first) {
      // Every key masked in every row: each softmax is 0/0.
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < a.dv; ++j)
          out[i * a.o[2] + j * a.o[3]] = NAN;
      continue;
    }
    int64_t sk = keys.end - keys.first;
    // S = scale · Q_rows · Kᵀ
    gopt_sgemm(1, rows, sk, a.d, a.scale, a.q.at(b0, b1, row), 0, a.q.s[2],
               a.q.s[3], a.kt.at(b0, b1, 0) + keys.first * a.kt.s[3], 0,
               a.kt.s[2], a.kt.s[3], 0.0f, scores, 0, sk, 1);
    softmax(scores, rows, sk, mask ? mask + keys.first * a.mask.s[3] : nullptr,
            a.mask.s[2], a.mask.s[3], sums);
    // O_rows = P · V, then each row divided by its sum.
    gopt_sgemm(1, rows, a.dv, sk, 1.0f, scores, 0, sk, 1,
               a.v.at(b0, b1, keys.first), 0, a.v.s[2], a.v.s[3], 0.0f, out, 0,
               a.o[2], a.o[3]);
    for (int64_t i = 0; i < rows; ++i) {
      float inverse = 1.0f / sums[i];
      float *o = out + i * a.o[2];
      for (int64_t j = 0; j < a.dv; ++j)
        o[j * a.o[3]] *= inverse;
    }
  }
}

} // namespace

extern "C" void
gopt_attention(int64_t b0, int64_t b1, int64_t sq, int64_t sk, int64_t d,
               int64_t dv, float scale, const float *q, int64_t qB0,
               int64_t qB1, int64_t qRow, int64_t qCol, const float *kt,
               int64_t kB0, int64_t kB1, int64_t kRow, int64_t kCol,
               const float *v, int64_t vB0, int64_t vB1, int64_t vRow,
               int64_t vCol, const float *mask, int64_t mB0, int64_t mB1,
               int64_t mRow, int64_t mCol, float *out, int64_t oB0, int64_t oB1,
               int64_t oRow, int64_t oCol) {
  if (b0 <= 0 || b1 <= 0 || sq <= 0 || dv <= 0)
    return;
  AttentionShape a{b0,
                   b1,
                   sq,
                   sk,
                   d,
                   dv,
                   blockRows(sq, sk),
                   scale,
                   {q, {qB0, qB1, qRow, qCol}},
                   {kt, {kB0, kB1, kRow, kCol}},
                   {v, {vB0, vB1, vRow, vCol}},
                   {mask, {mB0, mB1, mRow, mCol}},
                   out,
                   {oB0, oB1, oRow, oCol}};
  if (sk <= 0) {
    // No keys: every row's softmax is empty, 0/0.
    for (int64_t i0 = 0; i0 < b0; ++i0)
      for (int64_t i1 = 0; i1 < b1; ++i1)
        for (int64_t i = 0; i < sq; ++i)
          for (int64_t j = 0; j < dv; ++j)
            out[i0 * oB0 + i1 * oB1 + i * oRow + j * oCol] = NAN;
    return;
  }
  int64_t blocks = b0 * b1 * ((sq + a.rows - 1) / a.rows);
  gopt_parallel_for(&attentionBlocks, &a, blocks);
}
