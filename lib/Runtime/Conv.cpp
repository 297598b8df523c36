//===- Conv.cpp - gopt_conv2d: the library path for convolutions ----------===//
//
// gopt-lower-to-llvm{contractions=library} turns f32 convolutions (grouped
// and depthwise ones included) into calls of gopt_conv2d on contiguous
// NCHW input, FCHW weights and NCHW output, or of gopt_conv2d_nhwc on NHWC
// input, FHWC weights and NHWC output (the input already padded).
//
// A 1x1 convolution with one group is a GEMM per image on NCHW; on NHWC it
// goes to oneDNN like the others, with one GEMM for the whole batch as the
// fallback (strided: on the subsampled input; convolvePointwise).
// gopt_conv2d_nhwc also takes the zero padding around the input, which
// oneDNN applies as it reads (the caller then copies nothing; the other
// paths pad a copy). Otherwise, with oneDNN
// (GOPT_HAVE_ONEDNN), a call runs oneDNN's convolution: a plan per shape
// (the primitive, chosen with its preferred blocked layouts, and the
// reorders between those and NCHW) is made on the first call and kept;
// weights the compiler marks constant are reordered once per (buffer,
// plan) and kept until runtime::forgetConstantBuffer drops them. Without
// oneDNN, each group is im2col + gopt_sgemm (NHWC through NCHW copies).
// oneDNN's fast convolutions on this CPU keep activations channels last:
// on NHWC operands they run without any reorder of the activations.
//
// The test library of the JIT integration tests (test/Integration/lib)
// compiles this file too.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/PostOps.h"
#include "GOpt/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

#ifdef GOPT_HAVE_ONEDNN
#include <dnnl.h>
#endif

namespace {

using mlir::gopt::runtime::PostOpKind;

/// One step of the epilogue (PostOps.h); its operand, for the binary kinds,
/// comes with each call.
struct PostOp {
  PostOpKind kind;
  float alpha, beta;
  auto tie() const { return std::tie(kind, alpha, beta); }
  bool operator<(const PostOp &o) const { return tie() < o.tie(); }
};

/// The shape of one convolution call.
struct ConvShape {
  int64_t n, c, h, w, f, kh, kw, oh, ow, sh, sw, dh, dw, groups;
  bool accumulate;
  /// NHWC input and output, FHWC weights (else NCHW and FCHW).
  bool channelsLast;
  /// Zero padding around the input's h x w: top, left, bottom, right.
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;

  /// The epilogue applied to the output as it is written (channels last).
  std::vector<PostOp> postOps = {};

  bool padded() const { return pt || pl || pb || pr; }
  auto tie() const {
    return std::tie(n, c, h, w, f, kh, kw, oh, ow, sh, sw, dh, dw, groups,
                    accumulate, channelsLast, pt, pl, pb, pr, postOps);
  }
  bool operator<(const ConvShape &o) const { return tie() < o.tie(); }
};

/// The plain loops: for each image and group, im2col into
/// [C/G·KH·KW, OH·OW], then out[F/G, OH·OW] (+)= W[F/G, C/G·KH·KW] · cols.
void convolveByIm2Col(const ConvShape &s, const float *input,
                      const float *weight, float beta, float *output) {
  int64_t cg = s.c / s.groups, fg = s.f / s.groups;
  int64_t rows = cg * s.kh * s.kw, cols = s.oh * s.ow;
  std::vector<float> im2col(static_cast<size_t>(rows * cols));
  for (int64_t b = 0; b < s.n; ++b)
    for (int64_t g = 0; g < s.groups; ++g) {
      const float *in = input + (b * s.c + g * cg) * s.h * s.w;
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t y = 0; y < s.kh; ++y)
          for (int64_t x = 0; x < s.kw; ++x) {
            float *row = im2col.data() + ((ci * s.kh + y) * s.kw + x) * cols;
            for (int64_t oy = 0; oy < s.oh; ++oy)
              for (int64_t ox = 0; ox < s.ow; ++ox)
                row[oy * s.ow + ox] =
                    in[(ci * s.h + oy * s.sh + y * s.dh) * s.w + ox * s.sw +
                       x * s.dw];
          }
      float *out = output + (b * s.f + g * fg) * cols;
      gopt_sgemm(1, fg, cols, rows, 1.0f, weight + g * fg * rows, 0, rows, 1,
                 im2col.data(), 0, cols, 1, beta, out, 0, cols, 1);
    }
}

/// A 1x1 convolution with one group: on NCHW it is one GEMM per image,
/// out[f, oh·ow] = W[f, c] · in[c, oh·ow], with no im2col and none of the
/// reorders to the blocked or channels-last layouts oneDNN's convolutions
/// prefer (which cost more than the convolution itself on these feature
/// maps). With strides, the input is first subsampled into a contiguous
/// buffer (a quarter of it for stride 2).
bool isPointwise(const ConvShape &s) {
  return s.kh == 1 && s.kw == 1 && s.groups == 1 &&
         s.oh == (s.h - 1) / s.sh + 1 && s.ow == (s.w - 1) / s.sw + 1;
}

void convolvePointwise(const ConvShape &s, const float *input,
                       const float *weight, float beta, float *output) {
  int64_t hw = s.oh * s.ow;
  bool strided = s.sh != 1 || s.sw != 1;
  if (s.channelsLast) {
    // out[n·oh·ow, f] = in[n·oh·ow, c] · W[f, c]ᵀ, one GEMM for the batch.
    std::vector<float> sampled;
    const float *rows = input;
    if (strided) {
      sampled.resize(static_cast<size_t>(s.n * hw * s.c));
      float *to = sampled.data();
      for (int64_t b = 0; b < s.n; ++b)
        for (int64_t y = 0; y < s.oh; ++y)
          for (int64_t x = 0; x < s.ow; ++x, to += s.c)
            std::memcpy(to,
                        input + ((b * s.h + y * s.sh) * s.w + x * s.sw) * s.c,
                        static_cast<size_t>(s.c) * sizeof(float));
      rows = sampled.data();
    }
    gopt_sgemm(1, s.n * hw, s.f, s.c, 1.0f, rows, 0, s.c, 1, weight, 0, 1,
               s.c, beta, output, 0, s.f, 1);
    return;
  }
  if (!strided) {
    gopt_sgemm(s.n, s.f, hw, s.c, 1.0f, weight, 0, s.c, 1, input, s.c * hw,
               hw, 1, beta, output, s.f * hw, hw, 1);
    return;
  }
  std::vector<float> sampled(static_cast<size_t>(s.c * hw));
  for (int64_t b = 0; b < s.n; ++b) {
    const float *in = input + b * s.c * s.h * s.w;
    float *to = sampled.data();
    for (int64_t ch = 0; ch < s.c; ++ch)
      for (int64_t y = 0; y < s.oh; ++y) {
        const float *row = in + (ch * s.h + y * s.sh) * s.w;
        for (int64_t x = 0; x < s.ow; ++x)
          *to++ = row[x * s.sw];
      }
    gopt_sgemm(1, s.f, hw, s.c, 1.0f, weight, 0, s.c, 1, sampled.data(), 0,
               hw, 1, beta, output + b * s.f * hw, 0, hw, 1);
  }
}

/// Copies a row-major [a, b, c, d] tensor into [a, d, b, c] order
/// (NHWC → NCHW, FHWC → FCHW), or back with `inverse`.
void permuteChannels(const float *from, float *to, int64_t a, int64_t b,
                     int64_t c, int64_t d, bool inverse) {
  for (int64_t i = 0; i < a; ++i)
    for (int64_t j = 0; j < b; ++j)
      for (int64_t k = 0; k < c; ++k)
        for (int64_t l = 0; l < d; ++l) {
          int64_t last = ((i * b + j) * c + k) * d + l;
          int64_t first = ((i * d + l) * b + j) * c + k;
          if (inverse)
            to[last] = from[first];
          else
            to[first] = from[last];
        }
}

/// A channels-last convolution by the NCHW loops, on copies in NCHW order.
void convolveChannelsLastByIm2Col(const ConvShape &s, const float *input,
                                  const float *weight, float beta,
                                  float *output) {
  int64_t cg = s.c / s.groups;
  std::vector<float> in(static_cast<size_t>(s.n * s.c * s.h * s.w));
  std::vector<float> w(static_cast<size_t>(s.f * cg * s.kh * s.kw));
  std::vector<float> out(static_cast<size_t>(s.n * s.f * s.oh * s.ow));
  permuteChannels(input, in.data(), s.n, s.h, s.w, s.c, false);
  permuteChannels(weight, w.data(), s.f, s.kh, s.kw, cg, false);
  if (beta != 0.0f)
    permuteChannels(output, out.data(), s.n, s.oh, s.ow, s.f, false);
  ConvShape plain = s;
  plain.channelsLast = false;
  convolveByIm2Col(plain, in.data(), w.data(), beta, out.data());
  permuteChannels(out.data(), output, s.n, s.oh, s.ow, s.f, true);
}

/// Applies the epilogue of `s` to its NHWC output, in place, in plain loops
/// (where oneDNN does not apply it as it writes).
void applyPostOps(const ConvShape &s, float *output,
                  const float *const *operands) {
  if (s.postOps.empty())
    return;
  int64_t pixels = s.n * s.oh * s.ow;
  for (int64_t p = 0; p < pixels; ++p)
    for (int64_t ch = 0; ch < s.f; ++ch) {
      int64_t i = p * s.f + ch;
      float x = output[i];
      for (size_t k = 0; k < s.postOps.size(); ++k) {
        float operand = mlir::gopt::runtime::isBinary(s.postOps[k].kind)
                            ? operands[k][ch]
                            : 0.0f;
        x = mlir::gopt::runtime::applyPostOp(s.postOps[k].kind,
                                             s.postOps[k].alpha,
                                             s.postOps[k].beta, x, operand);
      }
      output[i] = x;
    }
}

#ifdef GOPT_HAVE_ONEDNN

bool ok(dnnl_status_t status) { return status == dnnl_success; }

struct Engine {
  dnnl_engine_t engine = nullptr;
  dnnl_stream_t stream = nullptr;
  Engine() {
    if (!ok(dnnl_engine_create(&engine, dnnl_cpu, 0)) ||
        !ok(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags)))
      engine = nullptr;
  }
};

Engine &getEngine() {
  static Engine engine;
  return engine;
}

/// A memory object over `desc`, holding its own buffer (`own`) or none yet.
dnnl_memory_t makeMemory(const dnnl_memory_desc_t &desc, bool own) {
  dnnl_memory_t memory = nullptr;
  if (!ok(dnnl_memory_create(&memory, &desc, getEngine().engine,
                             own ? DNNL_MEMORY_ALLOCATE : DNNL_MEMORY_NONE)))
    return nullptr;
  return memory;
}

dnnl_primitive_t makeReorder(const dnnl_memory_desc_t &from,
                             const dnnl_memory_desc_t &to) {
  dnnl_primitive_desc_t pd = nullptr;
  Engine &e = getEngine();
  if (!ok(dnnl_reorder_primitive_desc_create(&pd, &from, e.engine, &to,
                                             e.engine, nullptr)))
    return nullptr;
  dnnl_primitive_t reorder = nullptr;
  dnnl_status_t status = dnnl_primitive_create(&reorder, pd);
  dnnl_primitive_desc_destroy(pd);
  return ok(status) ? reorder : nullptr;
}

bool runReorder(dnnl_primitive_t reorder, dnnl_memory_t from,
                dnnl_memory_t to) {
  dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  return ok(dnnl_primitive_execute(reorder, getEngine().stream, 2, args));
}

/// One convolution shape in oneDNN: the primitive in the layouts it
/// prefers, and the reorders from and to the caller's plain layouts.
struct ConvPlan {
  dnnl_primitive_t conv = nullptr;
  dnnl_memory_desc_t weightsPrimDesc{};
  // Plain memories point at the caller's buffers on each call; the primitive
  // ones own their buffers (reused by every call of this shape).
  dnnl_memory_t srcUser = nullptr, srcPrim = nullptr;
  dnnl_memory_t weightsUser = nullptr, weightsPrimBuffer = nullptr;
  dnnl_memory_t dstUser = nullptr, dstPrim = nullptr;
  dnnl_primitive_t srcIn = nullptr, weightsIn = nullptr, dstIn = nullptr,
                   dstOut = nullptr;
  /// Reordered constant weights, by the caller's buffer.
  std::map<const void *, dnnl_memory_t> constantWeights;
  /// The bias (the epilogue's first step, when it adds a vector per
  /// channel to a convolution that does not accumulate), over the caller's
  /// buffer; null when there is none.
  dnnl_memory_t bias = nullptr;
  /// The binary steps of the epilogue: their index in oneDNN's post-ops,
  /// the step (and so the operand) they are, and a memory object over the
  /// caller's operand buffer.
  struct BinaryOperand {
    int postOpIndex;
    size_t step;
    dnnl_memory_t memory;
  };
  std::vector<BinaryOperand> binaryOperands;
};

/// oneDNN's algorithm for a unary step of the epilogue.
dnnl_alg_kind_t eltwiseAlgorithm(PostOpKind kind) {
  switch (kind) {
  case PostOpKind::Linear:
    return dnnl_eltwise_linear;
  case PostOpKind::Clip:
    return dnnl_eltwise_clip_v2;
  case PostOpKind::Logistic:
    return dnnl_eltwise_logistic;
  case PostOpKind::Swish:
    return dnnl_eltwise_swish;
  case PostOpKind::HardSwish:
    return dnnl_eltwise_hardswish;
  case PostOpKind::Tanh:
    return dnnl_eltwise_tanh;
  default:
    return dnnl_alg_kind_undef;
  }
}

/// Whether the epilogue of `s` starts with a per-channel addition oneDNN
/// takes as the convolution's bias.
bool takesBias(const ConvShape &s) {
  return !s.accumulate && !s.postOps.empty() &&
         s.postOps.front().kind == PostOpKind::AddChannel;
}

/// Appends the epilogue of `s` (after the sum of an accumulating
/// convolution) to `postOps`; the binary steps' operands go to `plan`.
/// False where oneDNN would compute it wrong: its convolutions (2.6) apply
/// the parameters of an elementwise algorithm's first step to every later
/// step of that algorithm (two clips, two linear maps with different
/// bounds or scales), so such chains are left to the plain loops.
bool appendPostOps(const ConvShape &s, dnnl_post_ops_t postOps,
                   ConvPlan &plan) {
  int index = 0;
  if (s.accumulate) {
    if (!ok(dnnl_post_ops_append_sum(postOps, 1.0f)))
      return false;
    ++index;
  }
  std::map<dnnl_alg_kind_t, std::tuple<float, float, float>> parameters;
  for (size_t step = takesBias(s) ? 1 : 0; step < s.postOps.size(); ++step) {
    const PostOp &op = s.postOps[step];
    if (mlir::gopt::runtime::isBinary(op.kind)) {
      dnnl_alg_kind_t alg =
          op.kind == PostOpKind::AddChannel ? dnnl_binary_add : dnnl_binary_mul;
      dnnl_dims_t dims = {1, s.f, 1, 1};
      dnnl_memory_desc_t desc;
      if (!ok(dnnl_memory_desc_init_by_tag(&desc, 4, dims, dnnl_f32,
                                           dnnl_nhwc)) ||
          !ok(dnnl_post_ops_append_binary(postOps, alg, &desc)))
        return false;
      dnnl_memory_t memory = makeMemory(desc, false);
      if (!memory)
        return false;
      plan.binaryOperands.push_back({index, step, memory});
    } else {
      // oneDNN's hardswish has no parameters: alpha is the step's scale.
      bool hardSwish = op.kind == PostOpKind::HardSwish;
      float scale = hardSwish ? op.alpha : 1.0f;
      float alpha = hardSwish ? 0.0f : op.alpha;
      float beta = hardSwish ? 0.0f : op.beta;
      dnnl_alg_kind_t alg = eltwiseAlgorithm(op.kind);
      auto [it, inserted] =
          parameters.try_emplace(alg, std::make_tuple(alpha, beta, scale));
      if (!inserted && it->second != std::make_tuple(alpha, beta, scale))
        return false;
      if (!ok(dnnl_post_ops_append_eltwise(postOps, scale, alg, alpha, beta)))
        return false;
    }
    ++index;
  }
  return true;
}

/// Makes the plan of `s`, or null when oneDNN declines the shape.
std::unique_ptr<ConvPlan> makePlan(const ConvShape &s) {
  Engine &e = getEngine();
  if (!e.engine)
    return nullptr;
  dnnl_memory_desc_t srcUser, weightsUser, dstUser, srcAny, weightsAny, dstAny;
  dnnl_dims_t src = {s.n, s.c, s.h, s.w}, dst = {s.n, s.f, s.oh, s.ow};
  dnnl_dims_t weights = {s.groups, s.f / s.groups, s.c / s.groups, s.kh, s.kw};
  int weightsRank = s.groups == 1 ? 4 : 5;
  const int64_t *weightsDims = s.groups == 1 ? weights + 1 : weights;
  // oneDNN's dims are always (n, c, h, w) and (g, o, i, h, w); the tags say
  // how the caller's buffers lay them out.
  dnnl_format_tag_t weightsTag =
      s.groups == 1 ? (s.channelsLast ? dnnl_ohwi : dnnl_oihw)
                    : (s.channelsLast ? dnnl_gohwi : dnnl_goihw);
  dnnl_format_tag_t imageTag = s.channelsLast ? dnnl_nhwc : dnnl_nchw;
  if (!ok(dnnl_memory_desc_init_by_tag(&srcUser, 4, src, dnnl_f32,
                                       imageTag)) ||
      !ok(dnnl_memory_desc_init_by_tag(&dstUser, 4, dst, dnnl_f32,
                                       imageTag)) ||
      !ok(dnnl_memory_desc_init_by_tag(&weightsUser, weightsRank, weightsDims,
                                       dnnl_f32, weightsTag)) ||
      !ok(dnnl_memory_desc_init_by_tag(&srcAny, 4, src, dnnl_f32,
                                       dnnl_format_tag_any)) ||
      !ok(dnnl_memory_desc_init_by_tag(&dstAny, 4, dst, dnnl_f32,
                                       dnnl_format_tag_any)) ||
      !ok(dnnl_memory_desc_init_by_tag(&weightsAny, weightsRank, weightsDims,
                                       dnnl_f32, dnnl_format_tag_any)))
    return nullptr;
  // oneDNN counts dilation from 0 (no gap).
  dnnl_dims_t strides = {s.sh, s.sw}, dilates = {s.dh - 1, s.dw - 1},
              padding = {s.pt, s.pl}, paddingEnd = {s.pb, s.pr};
  dnnl_memory_desc_t bias;
  dnnl_dims_t biasDims = {s.f};
  if (!ok(dnnl_memory_desc_init_by_tag(&bias, 1, biasDims, dnnl_f32, dnnl_a)))
    return nullptr;
  auto plan = std::make_unique<ConvPlan>();
  dnnl_primitive_attr_t attr = nullptr;
  dnnl_post_ops_t postOps = nullptr;
  if (!ok(dnnl_primitive_attr_create(&attr)))
    return nullptr;
  if (s.accumulate || !s.postOps.empty()) {
    if (!ok(dnnl_post_ops_create(&postOps)) ||
        !appendPostOps(s, postOps, *plan) ||
        !ok(dnnl_primitive_attr_set_post_ops(attr, postOps))) {
      if (postOps)
        dnnl_post_ops_destroy(postOps);
      dnnl_primitive_attr_destroy(attr);
      return nullptr;
    }
    dnnl_post_ops_destroy(postOps);
  }
  // The primitive for activations laid out as `srcMd` and `dstMd`, or null.
  auto createPrimitiveDesc =
      [&](const dnnl_memory_desc_t &srcMd,
          const dnnl_memory_desc_t &dstMd) -> dnnl_primitive_desc_t {
    dnnl_convolution_desc_t desc;
    dnnl_primitive_desc_t pd = nullptr;
    if (!ok(dnnl_dilated_convolution_forward_desc_init(
            &desc, dnnl_forward_inference, dnnl_convolution_direct, &srcMd,
            &weightsAny, takesBias(s) ? &bias : nullptr, &dstMd, strides,
            dilates, padding, paddingEnd)) ||
        !ok(dnnl_primitive_desc_create(&pd, &desc, attr, e.engine, nullptr)))
      return nullptr;
    return pd;
  };
  // Grouped convolutions on NHWC: for groups of a few channels oneDNN's
  // "any" layout is its blocked one (aBcd8b), and reordering the
  // activations in and out costs as much as the convolution
  // (RegNetY-400MF's first grouped convolution, 48 channels in groups of 8
  // at 112x112 stride 2: 0.61 ms with the reorders, 0.33 ms on NHWC, one
  // thread). Its NHWC implementation is asked for first, and "any" taken
  // when that is only the reference or GEMM-based one.
  dnnl_primitive_desc_t pd = nullptr;
  if (s.channelsLast && s.groups > 1) {
    pd = createPrimitiveDesc(srcUser, dstUser);
    const char *nhwcImpl = nullptr;
    if (pd && (!ok(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0,
                                             &nhwcImpl)) ||
               !nhwcImpl || std::strncmp(nhwcImpl, "ref", 3) == 0 ||
               std::strncmp(nhwcImpl, "gemm", 4) == 0)) {
      dnnl_primitive_desc_destroy(pd);
      pd = nullptr;
    }
  }
  if (!pd)
    pd = createPrimitiveDesc(srcAny, dstAny);
  dnnl_primitive_attr_destroy(attr);
  if (!pd)
    return nullptr;
  // An epilogue oneDNN applies only in its reference convolution, or only
  // with the activations reordered (its GEMM-based convolution on NCHW),
  // costs more than the fast convolution and the plain loops after it.
  const char *impl = nullptr;
  bool reordersActivations =
      !dnnl_memory_desc_equal(
          &srcUser, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0)) ||
      !dnnl_memory_desc_equal(
          &dstUser, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
  if (!s.postOps.empty() &&
      (reordersActivations ||
       !ok(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl)) ||
       !impl || std::strncmp(impl, "ref", 3) == 0)) {
    dnnl_primitive_desc_destroy(pd);
    return nullptr;
  }

  const dnnl_memory_desc_t srcPrim =
      *dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t dstPrim =
      *dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
  plan->weightsPrimDesc =
      *dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  dnnl_status_t status = dnnl_primitive_create(&plan->conv, pd);
  dnnl_primitive_desc_destroy(pd);
  if (!ok(status))
    return nullptr;

  plan->srcUser = makeMemory(srcUser, false);
  plan->weightsUser = makeMemory(weightsUser, false);
  plan->dstUser = makeMemory(dstUser, false);
  if (takesBias(s))
    plan->bias = makeMemory(bias, false);
  bool good = plan->srcUser && plan->weightsUser && plan->dstUser &&
              (plan->bias || !takesBias(s));
  if (!dnnl_memory_desc_equal(&srcUser, &srcPrim)) {
    plan->srcPrim = makeMemory(srcPrim, true);
    plan->srcIn = makeReorder(srcUser, srcPrim);
    good = good && plan->srcPrim && plan->srcIn;
  }
  if (!dnnl_memory_desc_equal(&weightsUser, &plan->weightsPrimDesc)) {
    plan->weightsPrimBuffer = makeMemory(plan->weightsPrimDesc, true);
    plan->weightsIn = makeReorder(weightsUser, plan->weightsPrimDesc);
    good = good && plan->weightsPrimBuffer && plan->weightsIn;
  }
  if (!dnnl_memory_desc_equal(&dstUser, &dstPrim)) {
    plan->dstPrim = makeMemory(dstPrim, true);
    plan->dstOut = makeReorder(dstPrim, dstUser);
    if (s.accumulate)
      plan->dstIn = makeReorder(dstUser, dstPrim);
    good =
        good && plan->dstPrim && plan->dstOut && (!s.accumulate || plan->dstIn);
  }
  return good ? std::move(plan) : nullptr;
}

struct PlanCache {
  std::mutex mutex;
  std::map<ConvShape, std::unique_ptr<ConvPlan>> plans;
  /// Shapes oneDNN declined: they take the plain loops.
  std::set<ConvShape> declined;
};

PlanCache &getPlanCache() {
  static PlanCache cache;
  return cache;
}

/// The plan of `s`, made on first use; null when oneDNN declines it.
ConvPlan *findPlan(const ConvShape &s) {
  PlanCache &cache = getPlanCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto it = cache.plans.find(s);
  if (it != cache.plans.end())
    return it->second.get();
  if (cache.declined.count(s))
    return nullptr;
  std::unique_ptr<ConvPlan> plan = makePlan(s);
  if (!plan) {
    cache.declined.insert(s);
    return nullptr;
  }
  return (cache.plans[s] = std::move(plan)).get();
}

/// The weights in the primitive's layout: reordered into the plan's buffer
/// on each call, or, for constant weights, once per buffer.
dnnl_memory_t primitiveWeights(ConvPlan &plan, const float *weight,
                               bool constant) {
  if (!ok(dnnl_memory_set_data_handle(plan.weightsUser,
                                      const_cast<float *>(weight))))
    return nullptr;
  if (!plan.weightsIn)
    return plan.weightsUser;
  if (!constant)
    return runReorder(plan.weightsIn, plan.weightsUser, plan.weightsPrimBuffer)
               ? plan.weightsPrimBuffer
               : nullptr;
  {
    std::lock_guard<std::mutex> lock(getPlanCache().mutex);
    auto it = plan.constantWeights.find(weight);
    if (it != plan.constantWeights.end())
      return it->second;
  }
  dnnl_memory_t kept = makeMemory(plan.weightsPrimDesc, true);
  if (!kept || !runReorder(plan.weightsIn, plan.weightsUser, kept)) {
    if (kept)
      dnnl_memory_destroy(kept);
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(getPlanCache().mutex);
  plan.constantWeights[weight] = kept;
  return kept;
}

/// Runs `s` through its plan; false when there is none or a step fails.
bool convolveWithOneDNN(const ConvShape &s, const float *input,
                        const float *weight, bool constantWeight, float *output,
                        const float *const *operands) {
  ConvPlan *plan = findPlan(s);
  if (!plan)
    return false;
  dnnl_stream_t stream = getEngine().stream;
  if (!ok(dnnl_memory_set_data_handle(plan->srcUser,
                                      const_cast<float *>(input))) ||
      !ok(dnnl_memory_set_data_handle(plan->dstUser, output)))
    return false;
  dnnl_memory_t src = plan->srcUser, dst = plan->dstUser;
  if (plan->srcIn) {
    if (!runReorder(plan->srcIn, plan->srcUser, plan->srcPrim))
      return false;
    src = plan->srcPrim;
  }
  if (plan->dstPrim) {
    if (plan->dstIn && !runReorder(plan->dstIn, plan->dstUser, plan->dstPrim))
      return false;
    dst = plan->dstPrim;
  }
  dnnl_memory_t weights = primitiveWeights(*plan, weight, constantWeight);
  if (!weights)
    return false;
  std::vector<dnnl_exec_arg_t> args = {
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
  if (plan->bias) {
    if (!ok(dnnl_memory_set_data_handle(plan->bias,
                                        const_cast<float *>(operands[0]))))
      return false;
    args.push_back({DNNL_ARG_BIAS, plan->bias});
  }
  for (const ConvPlan::BinaryOperand &binary : plan->binaryOperands) {
    if (!ok(dnnl_memory_set_data_handle(
            binary.memory, const_cast<float *>(operands[binary.step]))))
      return false;
    args.push_back(
        {DNNL_ARG_ATTR_MULTIPLE_POST_OP(binary.postOpIndex) | DNNL_ARG_SRC_1,
         binary.memory});
  }
  if (!ok(dnnl_primitive_execute(plan->conv, stream,
                                 static_cast<int>(args.size()), args.data())))
    return false;
  if (plan->dstOut && !runReorder(plan->dstOut, plan->dstPrim, plan->dstUser))
    return false;
  return ok(dnnl_stream_wait(stream));
}

#endif // GOPT_HAVE_ONEDNN

} // namespace

void mlir::gopt::runtime::forgetConstantBuffer(const void *begin,
                                               size_t bytes) {
#ifdef GOPT_HAVE_ONEDNN
  PlanCache &cache = getPlanCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  const char *first = static_cast<const char *>(begin);
  for (auto &entry : cache.plans) {
    auto &kept = entry.second->constantWeights;
    for (auto it = kept.begin(); it != kept.end();) {
      const char *p = static_cast<const char *>(it->first);
      if (p >= first && p < first + bytes) {
        dnnl_memory_destroy(it->second);
        it = kept.erase(it);
      } else {
        ++it;
      }
    }
  }
#else
  (void)begin;
  (void)bytes;
#endif
}

namespace {

void convolve(const ConvShape &s, const float *input, const float *weight,
              int64_t constantWeight, float beta, float *output);

/// `s` on an explicitly zero-padded copy of the input (NHWC), for the paths
/// that take no padding (the 1x1 GEMM, im2col).
void convolvePaddedCopy(const ConvShape &s, const float *input,
                        const float *weight, int64_t constantWeight, float beta,
                        float *output) {
  ConvShape p = s;
  p.h = s.h + s.pt + s.pb;
  p.w = s.w + s.pl + s.pr;
  p.pt = p.pl = p.pb = p.pr = 0;
  std::vector<float> padded(static_cast<size_t>(p.n * p.h * p.w * p.c), 0.0f);
  for (int64_t b = 0; b < s.n; ++b)
    for (int64_t y = 0; y < s.h; ++y)
      std::memcpy(padded.data() + ((b * p.h + y + s.pt) * p.w + s.pl) * p.c,
                  input + (b * s.h + y) * s.w * s.c,
                  static_cast<size_t>(s.w * s.c) * sizeof(float));
  convolve(p, padded.data(), weight, constantWeight, beta, output);
}

void convolve(const ConvShape &s, const float *input, const float *weight,
              int64_t constantWeight, float beta, float *output) {
  if (s.n <= 0 || s.f <= 0 || s.oh <= 0 || s.ow <= 0)
    return;
  // On NCHW a 1x1 convolution is a GEMM without reorders; on NHWC oneDNN's
  // 1x1 convolution is faster than the GEMM (EfficientNet-B0, one thread:
  // 5.9 against 6.6 ms), which remains its fallback.
  bool pointwise = !s.padded() && isPointwise(s);
  if (pointwise && !s.channelsLast) {
    convolvePointwise(s, input, weight, beta, output);
    return;
  }
#ifdef GOPT_HAVE_ONEDNN
  if ((beta == 0.0f || beta == 1.0f) &&
      convolveWithOneDNN(s, input, weight, constantWeight != 0, output,
                         nullptr))
    return;
#endif
  if (s.padded()) {
    convolvePaddedCopy(s, input, weight, constantWeight, beta, output);
    return;
  }
  if (pointwise) {
    convolvePointwise(s, input, weight, beta, output);
    return;
  }
  if (s.channelsLast)
    convolveChannelsLastByIm2Col(s, input, weight, beta, output);
  else
    convolveByIm2Col(s, input, weight, beta, output);
}

/// `s` and its epilogue: in one oneDNN primitive where oneDNN takes both,
/// else the convolution (convolve) and then the epilogue in plain loops.
void convolveWithPostOps(const ConvShape &s, const float *input,
                         const float *weight, int64_t constantWeight,
                         float beta, float *output,
                         const float *const *operands) {
#ifdef GOPT_HAVE_ONEDNN
  if (!s.postOps.empty() && (beta == 0.0f || beta == 1.0f) &&
      convolveWithOneDNN(s, input, weight, constantWeight != 0, output,
                         operands))
    return;
#endif
  ConvShape plain = s;
  plain.postOps.clear();
  convolve(plain, input, weight, constantWeight, beta, output);
  applyPostOps(s, output, operands);
}

} // namespace

extern "C" void gopt_conv2d(int64_t n, int64_t c, int64_t h, int64_t w,
                            int64_t f, int64_t kh, int64_t kw, int64_t oh,
                            int64_t ow, int64_t sh, int64_t sw, int64_t dh,
                            int64_t dw, int64_t groups, const float *input,
                            const float *weight, int64_t constantWeight,
                            float beta, float *output) {
  convolve({n, c, h, w, f, kh, kw, oh, ow, sh, sw, dh, dw, groups,
            beta != 0.0f, /*channelsLast=*/false},
           input, weight, constantWeight, beta, output);
}

extern "C" void gopt_conv2d_nhwc(
    int64_t n, int64_t c, int64_t h, int64_t w, int64_t f, int64_t kh,
    int64_t kw, int64_t oh, int64_t ow, int64_t sh, int64_t sw, int64_t dh,
    int64_t dw, int64_t groups, int64_t padTop, int64_t padLeft,
    int64_t padBottom, int64_t padRight, const float *input,
    const float *weight, int64_t constantWeight, float beta, float *output,
    int64_t postOpCount, const int64_t *postOpKinds, const float *postOpParams,
    const float *const *postOpOperands) {
  ConvShape s{n,  c,  h,  w,  f,  kh,     kw,           oh,
              ow, sh, sw, dh, dw, groups, beta != 0.0f, /*channelsLast=*/true};
  s.pt = padTop;
  s.pl = padLeft;
  s.pb = padBottom;
  s.pr = padRight;
  for (int64_t i = 0; i < postOpCount; ++i) {
    if (!mlir::gopt::runtime::isKnownPostOpKind(postOpKinds[i])) {
      std::fprintf(stderr,
                   "gopt_conv2d_nhwc: unknown epilogue step kind %lld\n",
                   static_cast<long long>(postOpKinds[i]));
      std::abort();
    }
    s.postOps.push_back({static_cast<PostOpKind>(postOpKinds[i]),
                         postOpParams[2 * i], postOpParams[2 * i + 1]});
  }
  convolveWithPostOps(s, input, weight, constantWeight, beta, output,
                      postOpOperands);
}
