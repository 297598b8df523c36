//===- AttentionTest.cpp - gopt_attention against plain loops -------------===//
//
// The runtime's attention (lib/Runtime/Attention.cpp) on strided operands
// (the head split read in place), broadcast and -inf masks, masks that
// hide ranges of keys (causal, a window, rows that hide all), several row
// blocks and both thread counts, against softmax(scale · Q·Kᵀ + mask) · V
// computed in double by plain loops.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

using mlir::gopt::runtime::getLibraryThreads;
using mlir::gopt::runtime::setLibraryThreads;

/// A [b0, b1, rows, cols] view of `data` by element strides.
struct View {
  std::vector<float> *data;
  int64_t s[4];
  float &at(int64_t i0, int64_t i1, int64_t i, int64_t j) const {
    return (*data)[i0 * s[0] + i1 * s[1] + i * s[2] + j * s[3]];
  }
};

/// Masks of -inf that hide whole ranges of keys, shared by every batch
/// ([sq, sk]): the runtime leaves keys hidden from every row of a block
/// out of its work.
enum class Hidden {
  None,
  /// Key j hidden from query i after i + (sk - sq): a causal decoder.
  Causal,
  /// Only keys (i - 4 .. i] visible: keys hidden before and after.
  Window,
  /// Causal, and the first 150 rows hide every key (a whole block and
  /// part of the next): their softmax is 0/0, NaN.
  FirstRowsHideAll,
};

struct Case {
  int64_t b0, b1, sq, sk, d, dv;
  float scale;
  bool mask, broadcastMask, infiniteMask;
  Hidden hidden = Hidden::None;
};

/// softmax(scale · Q·Kᵀ + mask) · V by loops, in double.
std::vector<double> reference(const Case &c, const View &q, const View &kt,
                              const View &v, const View *mask) {
  std::vector<double> out(c.b0 * c.b1 * c.sq * c.dv);
  std::vector<double> scores(c.sk);
  for (int64_t i0 = 0; i0 < c.b0; ++i0)
    for (int64_t i1 = 0; i1 < c.b1; ++i1)
      for (int64_t i = 0; i < c.sq; ++i) {
        double max = -INFINITY;
        for (int64_t j = 0; j < c.sk; ++j) {
          double s = 0;
          for (int64_t p = 0; p < c.d; ++p)
            s += double(q.at(i0, i1, i, p)) * kt.at(i0, i1, p, j);
          s *= c.scale;
          if (mask)
            s += mask->at(i0, i1, i, j);
          scores[j] = s;
          max = std::max(max, s);
        }
        double sum = 0;
        for (double &s : scores)
          sum += (s = std::exp(s - max));
        for (int64_t e = 0; e < c.dv; ++e) {
          double o = 0;
          for (int64_t j = 0; j < c.sk; ++j)
            o += scores[j] / sum * v.at(i0, i1, j, e);
          out[((i0 * c.b1 + i1) * c.sq + i) * c.dv + e] = o;
        }
      }
  return out;
}

void check(const Case &c) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  auto filled = [&](int64_t n) {
    std::vector<float> data(n);
    for (float &x : data)
      x = uniform(rng);
    return data;
  };
  // Q, K and V as a projection [b0, sq, b1, d] leaves them (heads split
  // by strides); Kᵀ read from K [b0, sk, b1, d] with the roles of rows and
  // columns exchanged.
  std::vector<float> qData = filled(c.b0 * c.sq * c.b1 * c.d);
  std::vector<float> kData = filled(c.b0 * c.sk * c.b1 * c.d);
  std::vector<float> vData = filled(c.b0 * c.sk * c.b1 * c.dv);
  View q{&qData, {c.sq * c.b1 * c.d, c.d, c.b1 * c.d, 1}};
  View kt{&kData, {c.sk * c.b1 * c.d, c.d, 1, c.b1 * c.d}};
  View v{&vData, {c.sk * c.b1 * c.dv, c.dv, c.b1 * c.dv, 1}};
  // The mask: one row for every query (broadcast) or one per batch and row.
  std::vector<float> maskData =
      filled(c.broadcastMask ? c.sk : c.b0 * c.b1 * c.sq * c.sk);
  if (c.infiniteMask)
    for (int64_t j = 0; j < c.sk; j += 3)
      maskData[j] = -INFINITY;
  View mask{&maskData,
            {c.broadcastMask ? 0 : c.b1 * c.sq * c.sk,
             c.broadcastMask ? 0 : c.sq * c.sk, c.broadcastMask ? 0 : c.sk, 1}};
  if (c.hidden != Hidden::None) {
    maskData.assign(c.sq * c.sk, 0.0f);
    mask.s[0] = mask.s[1] = 0;
    mask.s[2] = c.sk;
    for (int64_t i = 0; i < c.sq; ++i)
      for (int64_t j = 0; j < c.sk; ++j) {
        int64_t last = i + (c.sk - c.sq);
        bool hidden = j > last;
        if (c.hidden == Hidden::Window)
          hidden |= j <= last - 5;
        if (c.hidden == Hidden::FirstRowsHideAll)
          hidden |= i < 150;
        if (hidden)
          maskData[i * c.sk + j] = -INFINITY;
      }
  }
  std::vector<float> outData(c.b0 * c.b1 * c.sq * c.dv, NAN);
  View out{&outData, {c.b1 * c.sq * c.dv, c.sq * c.dv, c.dv, 1}};
  gopt_attention(c.b0, c.b1, c.sq, c.sk, c.d, c.dv, c.scale, qData.data(),
                 q.s[0], q.s[1], q.s[2], q.s[3], kData.data(), kt.s[0], kt.s[1],
                 kt.s[2], kt.s[3], vData.data(), v.s[0], v.s[1], v.s[2], v.s[3],
                 c.mask ? maskData.data() : nullptr, mask.s[0], mask.s[1],
                 mask.s[2], mask.s[3], outData.data(), out.s[0], out.s[1],
                 out.s[2], out.s[3]);
  std::vector<double> expected =
      reference(c, q, kt, v, c.mask ? &mask : nullptr);
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::isnan(expected[i])) {
      ASSERT_TRUE(std::isnan(outData[i])) << "element " << i;
      continue;
    }
    ASSERT_NEAR(outData[i], expected[i], 1e-5 + 1e-4 * std::fabs(expected[i]))
        << "element " << i;
  }
}

class AttentionTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    saved = getLibraryThreads();
    setLibraryThreads(GetParam());
  }
  void TearDown() override { setLibraryThreads(saved); }
  int saved = 1;
};

TEST_P(AttentionTest, HeadsReadThroughStrides) {
  check({1, 4, 128, 128, 32, 32, 0.125f, false, false, false});
}

TEST_P(AttentionTest, SeveralRowBlocksAndAPartialOne) {
  // 32768 / 300 = 109 rows a block: 250 rows are three blocks.
  check({2, 3, 250, 300, 16, 24, 0.25f, true, false, false});
}

TEST_P(AttentionTest, BroadcastMaskWithMinusInfinity) {
  check({2, 2, 40, 57, 8, 8, 1.0f, true, true, true});
}

TEST_P(AttentionTest, CausalMaskSkipsHiddenKeys) {
  // 32768 / 300 = 109 rows a block; more keys than queries (a prefix).
  check({1, 2, 250, 300, 16, 16, 0.25f, true, false, false, Hidden::Causal});
}

TEST_P(AttentionTest, WindowMaskHidesKeysOnBothSides) {
  check({1, 2, 250, 250, 8, 8, 0.5f, true, false, false, Hidden::Window});
}

TEST_P(AttentionTest, RowsThatHideEveryKeyAreNaN) {
  check({1, 1, 250, 300, 8, 8, 0.5f, true, false, false,
         Hidden::FirstRowsHideAll});
}

TEST_P(AttentionTest, OneQueryOneKey) {
  check({1, 1, 1, 1, 4, 3, 0.5f, false, false, false});
}

INSTANTIATE_TEST_SUITE_P(Threads, AttentionTest, ::testing::Values(1, 2));

} // namespace
