//===- EinsumImporter.cpp - ONNX Einsum as transposes and a matmul --------===//
//
// Einsum of one or two operands, in explicit ("ij,jk->ik") or implicit
// ("ij,jk") form. Two operands become one batched gopt.matmul: each
// operand's letters are sorted into batch letters (in both operands and the
// output), contracted letters (in both, not in the output) and free ones
// (in one operand and the output); the operand is transposed to
// [batch, free, contracted] (or [batch, contracted, free]) and reshaped to
// three dims, the product reshaped back and transposed to the output's
// order. A letter in one operand only and not in the output is summed out
// first (gopt.reduce sum). One operand is a reduce and a transpose. A
// letter repeated in one term takes the diagonal first: the two dims moved
// last and flattened, every (n + 1)-th element sliced ("ii->i", the trace
// "ii"). Ellipses are errors. MaxViT exports its attention as
// "BGHID,BGHJD->BGHIJ" and "BGHIJ,BGHJD->BGHID".
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// One operand: its value and the letter naming each of its dims.
struct Term {
  Value value;
  std::string letters;
};

int64_t extentOf(const Term &t, char letter) {
  return NodeContext::typeOf(t.value).getDimSize(t.letters.find(letter));
}

/// `t` transposed so its letters read `order` (no op when they do).
FailureOr<Term> transposeTo(NodeContext &n, const Term &t,
                            llvm::StringRef order) {
  if (t.letters == order)
    return t;
  SmallVector<int64_t> perm;
  for (char c : order)
    perm.push_back(t.letters.find(c));
  FailureOr<Value> v = n.create<TransposeOp>(t.value, ArrayRef<int64_t>(perm));
  if (failed(v))
    return failure();
  return Term{*v, order.str()};
}

/// `t` with the letters `drop` summed out.
FailureOr<Term> sumOut(NodeContext &n, const Term &t, llvm::StringRef drop) {
  if (drop.empty())
    return t;
  SmallVector<int64_t> axes;
  std::string kept;
  for (auto [i, c] : llvm::enumerate(t.letters)) {
    if (drop.contains(c))
      axes.push_back(i);
    else
      kept.push_back(c);
  }
  FailureOr<Value> v = n.create<ReduceOp>(ReduceKind::sum, t.value,
                                          ArrayRef<int64_t>(axes), false);
  if (failed(v))
    return failure();
  return Term{*v, kept};
}

/// `t` with the two dims of a letter it repeats replaced by their diagonal
/// (a dim of that letter, last): the dims moved last, flattened to n·n
/// and every (n + 1)-th element sliced. Repeated until no letter repeats.
FailureOr<Term> takeDiagonals(NodeContext &n, Term t) {
  for (;;) {
    auto repeated = llvm::find_if(
        t.letters, [&](char c) { return llvm::count(t.letters, c) > 1; });
    if (repeated == t.letters.end())
      return t;
    char c = *repeated;
    // The first two occurrences last; a third stays among the others (and
    // the next round takes it).
    size_t first = t.letters.find(c), second = t.letters.find(c, first + 1);
    SmallVector<int64_t> perm;
    std::string kept;
    for (size_t i = 0; i < t.letters.size(); ++i)
      if (i != first && i != second) {
        perm.push_back(i);
        kept.push_back(t.letters[i]);
      }
    perm.append({int64_t(first), int64_t(second)});
    FailureOr<Value> moved = t.value;
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      moved = n.create<TransposeOp>(t.value, ArrayRef<int64_t>(perm));
    if (failed(moved))
      return failure();
    RankedTensorType type = NodeContext::typeOf(*moved);
    int64_t extent = type.getShape().back();
    SmallVector<int64_t> flat(type.getShape().drop_back(2));
    flat.push_back(extent * extent);
    FailureOr<Value> flattened = n.reshape(*moved, flat);
    if (failed(flattened))
      return failure();
    int64_t rank = flat.size();
    SmallVector<int64_t> starts(rank, 0), ends(flat), steps(rank, 1);
    steps.back() = extent + 1;
    FailureOr<Value> diagonal =
        n.create<SliceOp>(*flattened, ArrayRef<int64_t>(starts),
                          ArrayRef<int64_t>(ends), ArrayRef<int64_t>(steps));
    if (failed(diagonal))
      return failure();
    t = Term{*diagonal, kept + c};
  }
}

/// The product of the extents of `letters` in `t`.
int64_t extentProduct(const Term &t, llvm::StringRef letters) {
  int64_t product = 1;
  for (char c : letters)
    product *= extentOf(t, c);
  return product;
}

LogicalResult importEinsum(NodeContext &n) {
  std::string equation;
  for (char c : n.getString("equation", ""))
    if (c != ' ')
      equation.push_back(c);
  if (equation.find("...") != std::string::npos)
    return n.emitError() << "ellipses ('...') are not supported";
  auto [lhs, rhs] = llvm::StringRef(equation).split("->");
  bool implicit = !llvm::StringRef(equation).contains("->");
  SmallVector<llvm::StringRef> termText;
  lhs.split(termText, ',');
  if (termText.size() != static_cast<size_t>(n.node.input_size()))
    return n.emitError() << "the equation '" << equation << "' names "
                         << termText.size() << " operands, the node has "
                         << n.node.input_size();
  if (termText.size() > 2)
    return n.emitError() << "an Einsum of " << termText.size()
                         << " operands is not supported (one or two)";

  SmallVector<Term> terms;
  llvm::DenseMap<char, int64_t> extents;
  for (auto [i, text] : llvm::enumerate(termText)) {
    FailureOr<Value> v = n.requiredInput(i, "Inputs");
    if (failed(v))
      return failure();
    RankedTensorType type = NodeContext::typeOf(*v);
    if (static_cast<int64_t>(text.size()) != type.getRank())
      return n.emitError() << "term '" << text << "' names " << text.size()
                           << " dims of an operand of rank " << type.getRank();
    for (auto [d, c] : llvm::enumerate(text)) {
      if (!llvm::isAlpha(c))
        return n.emitError()
               << "'" << c << "' in '" << equation << "' is not a letter";
      auto [it, inserted] = extents.try_emplace(c, type.getDimSize(d));
      if (!inserted && it->second != type.getDimSize(d))
        return n.emitError() << "letter '" << c << "' has extents "
                             << it->second << " and " << type.getDimSize(d);
    }
    terms.push_back({*v, text.str()});
  }

  // The implicit output: the letters used once, in alphabetical order.
  std::string output;
  if (implicit) {
    std::string all;
    for (const Term &t : terms)
      all += t.letters;
    for (char c = 'A'; c <= 'z'; ++c)
      if (llvm::count(all, c) == 1)
        output.push_back(c);
  } else {
    output = rhs.str();
    for (char c : output) {
      if (output.find(c) != output.rfind(c))
        return n.emitError() << "letter '" << c << "' repeats in the output";
      if (!extents.count(c))
        return n.emitError()
               << "output letter '" << c << "' names no operand dim";
    }
  }
  auto inOutput = [&](char c) { return output.find(c) != std::string::npos; };

  // Letters a term repeats: its diagonal.
  for (Term &t : terms) {
    FailureOr<Term> diagonal = takeDiagonals(n, t);
    if (failed(diagonal))
      return failure();
    t = *diagonal;
  }

  // Letters only one operand has and the output lacks are summed out.
  for (size_t i = 0; i < terms.size(); ++i) {
    std::string drop;
    for (char c : terms[i].letters) {
      bool elsewhere = terms.size() == 2 &&
                       terms[1 - i].letters.find(c) != std::string::npos;
      if (!inOutput(c) && !elsewhere)
        drop.push_back(c);
    }
    FailureOr<Term> summed = sumOut(n, terms[i], drop);
    if (failed(summed))
      return failure();
    terms[i] = *summed;
  }

  if (terms.size() == 1) {
    FailureOr<Term> r = transposeTo(n, terms[0], output);
    return failed(r) ? failure() : n.setResults({r->value});
  }

  Term &a = terms[0], &b = terms[1];
  auto in = [](const Term &t, char c) {
    return t.letters.find(c) != std::string::npos;
  };
  std::string batch, m, nn, k;
  for (char c : output) {
    if (in(a, c) && in(b, c))
      batch.push_back(c);
    else if (in(a, c))
      m.push_back(c);
    else
      nn.push_back(c);
  }
  for (char c : a.letters)
    if (in(b, c) && !inOutput(c))
      k.push_back(c);

  FailureOr<Term> at = transposeTo(n, a, batch + m + k);
  FailureOr<Term> bt = transposeTo(n, b, batch + k + nn);
  if (failed(at) || failed(bt))
    return failure();
  SmallVector<int64_t> lead;
  if (!batch.empty())
    lead.push_back(extentProduct(*at, batch));
  SmallVector<int64_t> aShape(lead), bShape(lead);
  aShape.append({extentProduct(*at, m), extentProduct(*at, k)});
  bShape.append({extentProduct(*bt, k), extentProduct(*bt, nn)});
  FailureOr<Value> a3 = n.reshape(at->value, aShape);
  if (failed(a3))
    return failure();
  FailureOr<Value> b3 = n.reshape(bt->value, bShape);
  if (failed(b3))
    return failure();
  FailureOr<Value> product = n.create<MatmulOp>(*a3, *b3);
  if (failed(product))
    return failure();
  SmallVector<int64_t> shape;
  for (char c : batch)
    shape.push_back(extentOf(*at, c));
  for (char c : m)
    shape.push_back(extentOf(*at, c));
  for (char c : nn)
    shape.push_back(extentOf(*bt, c));
  FailureOr<Value> unflat = n.reshape(*product, shape);
  if (failed(unflat))
    return failure();
  FailureOr<Term> r = transposeTo(n, {*unflat, batch + m + nn}, output);
  return failed(r) ? failure() : n.setResults({r->value});
}

} // namespace

void onnx_import::registerEinsumImporter(OpImporterTable &table) {
  table["Einsum"] = {importEinsum, {{"equation", AttrType::STRING}}};
}
