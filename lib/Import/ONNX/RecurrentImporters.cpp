//===- RecurrentImporters.cpp - ONNX LSTM and GRU, unrolled ---------------===//
//
// LSTM and GRU (opsets 13 to 17), unrolled over the sequence, which static
// shapes fix: the input projection of every step is one linear over the
// whole sequence, then each step is a linear of the hidden state, slices
// of the gates and their elementwise math, which gopt-fuse groups and
// gopt-deduplicate-kernels compiles once for all steps. Forward, reverse
// and bidirectional; layout 0 ([seq, batch, ...]) and 1 (batch first);
// initial states; LSTM's peepholes; clip. The default activations only.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// Builds gopt ops for a node and fails once: after the first op that
/// does not verify (its diagnostic emitted), every call returns null.
class Ops {
public:
  explicit Ops(NodeContext &n) : n(n) {}
  bool failed() const { return hasFailed; }

  template <typename OpTy, typename... Args> Value op(Args &&...args) {
    if (hasFailed)
      return {};
    return check(n.create<OpTy>(std::forward<Args>(args)...));
  }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    return hasFailed ? Value() : check(n.reshape(v, shape));
  }
  /// v[starts:ends], unit steps.
  Value slice(Value v, ArrayRef<int64_t> starts, ArrayRef<int64_t> ends) {
    if (hasFailed)
      return {};
    SmallVector<int64_t> steps(starts.size(), 1);
    return op<SliceOp>(v, starts, ends, ArrayRef<int64_t>(steps));
  }
  /// v[begin:end] along `axis`.
  Value slice(Value v, int64_t axis, int64_t begin, int64_t end) {
    if (hasFailed)
      return {};
    ArrayRef<int64_t> shape = NodeContext::typeOf(v).getShape();
    SmallVector<int64_t> starts(shape.size(), 0), ends(shape);
    starts[axis] = begin;
    ends[axis] = end;
    return slice(v, starts, ends);
  }
  /// v[index] along axis 0, that axis dropped.
  Value take(Value v, int64_t index) {
    Value s = slice(v, 0, index, index + 1);
    if (hasFailed)
      return {};
    return reshape(s, NodeContext::typeOf(v).getShape().drop_front());
  }
  Value concat(ArrayRef<Value> values, int64_t axis) {
    if (hasFailed)
      return {};
    if (values.size() == 1)
      return values.front();
    return op<ConcatOp>(ValueRange(values), axis);
  }
  Value clip(Value v, double bound) {
    if (hasFailed || bound <= 0)
      return v;
    return check(n.createTyped<ClipOp>(NodeContext::typeOf(v), v,
                                       n.builder().getF64FloatAttr(-bound),
                                       n.builder().getF64FloatAttr(bound)));
  }
  Value zeros(ArrayRef<int64_t> shape, Type element) {
    return n.splat(RankedTensorType::get(shape, element), 0.0);
  }

private:
  Value check(FailureOr<Value> v) {
    if (mlir::failed(v)) {
      hasFailed = true;
      return {};
    }
    return *v;
  }

  NodeContext &n;
  bool hasFailed = false;
};

/// What LSTM and GRU share: shapes, directions, the input as [seq, batch,
/// input], the initial hidden state of a direction, and the outputs.
struct Recurrence {
  int64_t seq = 0, batch = 0, hidden = 0, directions = 1;
  bool batchFirst = false;
  std::string direction;
  double clip = 0;
  Type element;
  Value x; // [seq, batch, input]
};

FailureOr<Recurrence> readRecurrence(NodeContext &n, Ops &ops, int gates) {
  Recurrence r;
  FailureOr<Value> x = n.requiredInput(0, "X");
  FailureOr<Value> w = n.requiredInput(1, "W");
  FailureOr<Value> rw = n.requiredInput(2, "R");
  if (failed(x) || failed(w) || failed(rw))
    return failure();
  RankedTensorType xType = NodeContext::typeOf(*x);
  if (xType.getRank() != 3 || !isa<FloatType>(xType.getElementType()))
    return n.emitError() << "X must be a 3-D float tensor";
  r.element = xType.getElementType();
  r.batchFirst = n.getInt("layout", 0) != 0;
  r.seq = xType.getDimSize(r.batchFirst ? 1 : 0);
  r.batch = xType.getDimSize(r.batchFirst ? 0 : 1);
  r.direction = n.getString("direction", "forward");
  if (r.direction != "forward" && r.direction != "reverse" &&
      r.direction != "bidirectional")
    return n.emitError() << "unknown direction '" << r.direction << "'";
  r.directions = r.direction == "bidirectional" ? 2 : 1;
  r.hidden = n.getInt("hidden_size", NodeContext::typeOf(*rw).getDimSize(2));
  int64_t inputSize = xType.getDimSize(2);
  SmallVector<int64_t> wShape{r.directions, gates * r.hidden, inputSize};
  SmallVector<int64_t> rShape{r.directions, gates * r.hidden, r.hidden};
  if (NodeContext::typeOf(*w).getShape() != ArrayRef<int64_t>(wShape) ||
      NodeContext::typeOf(*rw).getShape() != ArrayRef<int64_t>(rShape))
    return n.emitError() << "W and R must be " << shapeToString(wShape)
                         << " and " << shapeToString(rShape) << ", got "
                         << shapeToString(NodeContext::typeOf(*w).getShape())
                         << " and "
                         << shapeToString(NodeContext::typeOf(*rw).getShape());
  if (r.seq == 0)
    return n.emitError() << "the sequence is empty";
  r.clip = n.getFloat("clip", 0.0);
  if (const onnx::AttributeProto *a = n.attr("activations")) {
    for (const std::string &name : a->strings())
      if (name != "Sigmoid" && name != "Tanh")
        return n.emitError() << "activation '" << name
                             << "' is not supported (the defaults, Sigmoid "
                                "and Tanh, are)";
  }
  if (Value lens = n.input(4)) {
    FailureOr<SmallVector<int64_t>> known = n.knownInts(4, "sequence_lens");
    if (failed(known))
      return failure();
    for (int64_t len : *known)
      if (len != r.seq)
        return n.emitError() << "sequence_lens must all be the sequence "
                                "length "
                             << r.seq << ", got " << shapeToString(*known);
  }
  r.x = r.batchFirst ? ops.op<TransposeOp>(*x, ArrayRef<int64_t>{1, 0, 2}) : *x;
  if (ops.failed())
    return failure();
  return r;
}

/// Optional input `i`, a state [directions, batch, hidden] (batch first:
/// [batch, directions, hidden]), for direction d as [batch, hidden]; zeros
/// when absent.
Value initialState(NodeContext &n, Ops &ops, const Recurrence &r, unsigned i,
                   int64_t d) {
  Value v = n.input(i);
  if (!v)
    return ops.zeros({r.batch, r.hidden}, r.element);
  if (r.batchFirst)
    v = ops.op<TransposeOp>(v, ArrayRef<int64_t>{1, 0, 2});
  return ops.take(v, d);
}

/// Y [seq, directions, batch, hidden] (batch first: [batch, seq,
/// directions, hidden]) from each direction's steps in time order, and a
/// final state [directions, batch, hidden] (batch first: [batch,
/// directions, hidden]) from each direction's.
LogicalResult setOutputs(NodeContext &n, Ops &ops, const Recurrence &r,
                         ArrayRef<SmallVector<Value>> steps,
                         ArrayRef<SmallVector<Value>> finals) {
  SmallVector<Value> perDirection;
  for (ArrayRef<Value> dirSteps : steps) {
    SmallVector<Value> rows;
    for (Value h : dirSteps)
      rows.push_back(ops.reshape(h, {1, 1, r.batch, r.hidden}));
    perDirection.push_back(ops.concat(rows, 0));
  }
  Value y = ops.concat(perDirection, 1);
  if (r.batchFirst)
    y = ops.op<TransposeOp>(y, ArrayRef<int64_t>{2, 0, 1, 3});
  SmallVector<Value> results{y};
  for (ArrayRef<Value> states : finals) {
    SmallVector<Value> rows;
    for (Value h : states)
      rows.push_back(ops.reshape(h, {1, r.batch, r.hidden}));
    Value state = ops.concat(rows, 0);
    if (r.batchFirst)
      state = ops.op<TransposeOp>(state, ArrayRef<int64_t>{1, 0, 2});
    results.push_back(state);
  }
  if (ops.failed())
    return failure();
  return n.setResults(results);
}

/// The steps of direction d in the order they run.
SmallVector<int64_t> stepOrder(const Recurrence &r, int64_t d) {
  bool reverse =
      r.direction == "reverse" || (r.direction == "bidirectional" && d == 1);
  SmallVector<int64_t> order;
  for (int64_t t = 0; t < r.seq; ++t)
    order.push_back(reverse ? r.seq - 1 - t : t);
  return order;
}

/// ONNX LSTM, gates in the order i, o, f, c:
///   i = σ(x·Wi + h·Ri + Pi⊙C + b), f = σ(x·Wf + h·Rf + Pf⊙C + b),
///   c = tanh(x·Wc + h·Rc + b), C' = f⊙C + i⊙c,
///   o = σ(x·Wo + h·Ro + Po⊙C' + b), h' = o⊙tanh(C'),
/// each pre-activation clipped to [-clip, clip] when clip is given.
LogicalResult importLSTM(NodeContext &n) {
  Ops ops(n);
  FailureOr<Recurrence> rec = readRecurrence(n, ops, 4);
  if (failed(rec))
    return failure();
  const Recurrence &r = *rec;
  if (n.getInt("input_forget", 0) != 0)
    return n.emitError() << "input_forget = 1 is not supported";
  int64_t h = r.hidden;
  SmallVector<SmallVector<Value>> steps(r.directions);
  SmallVector<SmallVector<Value>> finalH(1), finalC(1);
  for (int64_t d = 0; d < r.directions; ++d) {
    Value w = ops.take(*n.requiredInput(1, "W"), d);
    Value rw = ops.take(*n.requiredInput(2, "R"), d);
    Value bias;
    if (Value b = n.input(3)) {
      Value bd = ops.take(b, d);
      Value inputBias = ops.slice(bd, 0, 0, 4 * h);
      Value recurrentBias = ops.slice(bd, 0, 4 * h, 8 * h);
      bias = ops.op<AddOp>(inputBias, recurrentBias);
    }
    // Every step's input projection at once: [seq, batch, 4h].
    Value projected = ops.op<LinearOp>(r.x, w, bias, false, true);
    Value peep = n.input(7) ? ops.take(n.input(7), d) : Value();
    Value hState = initialState(n, ops, r, 5, d);
    Value cState = initialState(n, ops, r, 6, d);
    SmallVector<Value> outs(r.seq);
    for (int64_t t : stepOrder(r, d)) {
      // Ops are created one statement at a time: the order of a call's
      // arguments is unspecified in C++, and the IR must not depend on the
      // compiler. The step's input comes first, so that the add after the
      // linear can join it as its epilogue.
      Value x = ops.take(projected, t);
      Value recurrent = ops.op<LinearOp>(hState, rw, Value(), false, true);
      Value gates = ops.op<AddOp>(recurrent, x);
      // Gate k's pre-activation, its peephole term (on `c`) added, then
      // clipped, as ONNX Runtime computes it.
      auto gate = [&](int64_t k, Value c) {
        Value g = ops.slice(gates, 1, k * h, (k + 1) * h);
        if (peep && c)
          g = ops.op<AddOp>(
              g, ops.op<MulOp>(ops.slice(peep, 0, k * h, (k + 1) * h), c));
        return ops.clip(g, r.clip);
      };
      Value i = ops.op<SigmoidOp>(gate(0, cState));
      Value f = ops.op<SigmoidOp>(gate(2, cState));
      Value c = ops.op<TanhOp>(gate(3, Value()));
      Value kept = ops.op<MulOp>(f, cState);
      Value added = ops.op<MulOp>(i, c);
      cState = ops.op<AddOp>(kept, added);
      Value o = ops.op<SigmoidOp>(gate(1, cState));
      hState = ops.op<MulOp>(o, ops.op<TanhOp>(cState));
      outs[t] = hState;
      if (ops.failed())
        return failure();
    }
    steps[d] = outs;
    finalH[0].push_back(hState);
    finalC[0].push_back(cState);
  }
  return setOutputs(n, ops, r, steps, {finalH[0], finalC[0]});
}

/// ONNX GRU, gates in the order z, r, h:
///   z = σ(x·Wz + h·Rz + b), r = σ(x·Wr + h·Rr + b),
///   ĥ = tanh(x·Wh + r⊙(h·Rh + Rbh) + Wbh)   (linear_before_reset = 1)
///   ĥ = tanh(x·Wh + (r⊙h)·Rh + Rbh + Wbh)   (linear_before_reset = 0)
///   h' = (1 − z)⊙ĥ + z⊙h = ĥ + z⊙(h − ĥ).
LogicalResult importGRU(NodeContext &n) {
  Ops ops(n);
  FailureOr<Recurrence> rec = readRecurrence(n, ops, 3);
  if (failed(rec))
    return failure();
  const Recurrence &r = *rec;
  bool linearBeforeReset = n.getInt("linear_before_reset", 0) != 0;
  int64_t h = r.hidden;
  SmallVector<SmallVector<Value>> steps(r.directions);
  SmallVector<Value> finalH;
  for (int64_t d = 0; d < r.directions; ++d) {
    Value w = ops.take(*n.requiredInput(1, "W"), d);
    Value rw = ops.take(*n.requiredInput(2, "R"), d);
    Value wb, rb;
    if (Value b = n.input(3)) {
      Value bd = ops.take(b, d);
      wb = ops.slice(bd, 0, 0, 3 * h);
      rb = ops.slice(bd, 0, 3 * h, 6 * h);
    }
    Value projected = ops.op<LinearOp>(r.x, w, wb, false, true);
    // Without linear_before_reset the candidate's recurrent linear reads
    // r⊙h: z and r get a linear of their own.
    Value rzr = linearBeforeReset ? rw : ops.slice(rw, 0, 0, 2 * h);
    Value rbzr = (!rb || linearBeforeReset) ? rb : ops.slice(rb, 0, 0, 2 * h);
    Value rh = ops.slice(rw, 0, 2 * h, 3 * h);
    Value rbh = rb ? ops.slice(rb, 0, 2 * h, 3 * h) : Value();
    Value hState = initialState(n, ops, r, 5, d);
    SmallVector<Value> outs(r.seq);
    for (int64_t t : stepOrder(r, d)) {
      Value recurrent = ops.op<LinearOp>(hState, rzr, rbzr, false, true);
      auto part = [&](Value v, int64_t k) {
        return ops.slice(v, 1, k * h, (k + 1) * h);
      };
      // Gate k of step t's input projection, one slice of the projection
      // each (not a slice of the step's slice): a chain of views only its
      // gate reads, which gopt-fuse puts into the gates' kernel.
      auto inputPart = [&](int64_t k) {
        Value x =
            ops.slice(projected, {t, 0, k * h}, {t + 1, r.batch, (k + 1) * h});
        return ops.reshape(x, {r.batch, h});
      };
      // One op per statement: the IR must not depend on the order in
      // which a compiler evaluates a call's arguments.
      auto gate = [&](int64_t k) {
        Value fromInput = inputPart(k);
        Value fromState = part(recurrent, k);
        return ops.op<SigmoidOp>(
            ops.clip(ops.op<AddOp>(fromInput, fromState), r.clip));
      };
      Value z = gate(0);
      Value reset = gate(1);
      Value candidateIn;
      if (linearBeforeReset) {
        Value stateTerm = part(recurrent, 2);
        candidateIn = ops.op<MulOp>(reset, stateTerm);
      } else {
        Value resetState = ops.op<MulOp>(reset, hState);
        candidateIn = ops.op<LinearOp>(resetState, rh, rbh, false, true);
      }
      Value inputTerm = inputPart(2);
      Value candidate = ops.op<TanhOp>(
          ops.clip(ops.op<AddOp>(inputTerm, candidateIn), r.clip));
      Value toState = ops.op<SubOp>(hState, candidate);
      hState = ops.op<AddOp>(candidate, ops.op<MulOp>(z, toState));
      outs[t] = hState;
      if (ops.failed())
        return failure();
    }
    steps[d] = outs;
    finalH.push_back(hState);
  }
  return setOutputs(n, ops, r, steps, {finalH});
}

} // namespace

void onnx_import::registerRecurrentImporters(OpImporterTable &table) {
  std::vector<AttrSpec> common = {{"activation_alpha", AttrType::FLOATS},
                                  {"activation_beta", AttrType::FLOATS},
                                  {"activations", AttrType::STRINGS},
                                  {"clip", AttrType::FLOAT},
                                  {"direction", AttrType::STRING},
                                  {"hidden_size", AttrType::INT},
                                  {"layout", AttrType::INT}};
  std::vector<AttrSpec> lstm = common;
  lstm.push_back({"input_forget", AttrType::INT});
  std::vector<AttrSpec> gru = common;
  gru.push_back({"linear_before_reset", AttrType::INT});
  table["LSTM"] = {importLSTM, lstm};
  table["GRU"] = {importGRU, gru};
}
