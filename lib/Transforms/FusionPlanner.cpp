//===- FusionPlanner.cpp - Choose and build fusion groups -----------------===//
//
// Ops are visited once in program order; each starts as its own group and
// may join the groups of its producers. A group is placed, as a whole, at its
// first op, so an op may join only if every input it takes from outside is
// available before that first op (`maxInputPos < first`). That one integer
// comparison per candidate rules out cycles and keeps planning linear: a
// group's inputs always precede it, so ordering the groups by first op is a
// topological order. Stale (too large) input positions are only ever
// conservative.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Transforms/FusionPlanner.h"
#include "GOpt/Transforms/AttentionChain.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// How an op may take part in fusion.
enum class Role {
  /// Never fused (data movement, constants, opaque and foreign ops, existing
  /// fusion ops).
  Closed,
  /// Elementwise or broadcast: joins producer groups, or starts one.
  Elementwise,
  /// Contraction or reduction: the single anchor of its group.
  Anchor,
};

/// A chain of views (viewChain) an op reads that may join its group: the
/// chain's ops, each still a group of its own, and its source.
struct ViewChain {
  SmallVector<int64_t> groups;
  Value source;
};

struct GroupState {
  int64_t first;
  int64_t maxInputPos;
  int64_t size;
  Operation *anchor;
  bool open;
};

class Planner {
public:
  Planner(Block &block, const FusionPlannerOptions &options)
      : block(block), options(options) {}

  std::vector<SmallVector<Operation *>> run();

private:
  Role roleOf(Operation *op) const;
  int64_t find(int64_t g);
  /// Position at which the value is available once groups are placed.
  int64_t availablePos(Value v);
  /// Group of the in-block producer of `v`, or -1.
  int64_t producerGroup(Value v);
  bool tryMerge(Operation *op, ArrayRef<int64_t> groups, bool asEpilogue);
  /// Merges `op` and `candidates` into one closed group, several anchors
  /// allowed, when the ops' inputs from outside are all available before
  /// the first of them (counted op by op: the candidates read each other).
  bool mergeAttention(Operation *op, ArrayRef<int64_t> candidates);
  /// Transposes of `op`'s operands it can read in place, each still a
  /// group of its own.
  SmallVector<int64_t> absorbableTransposes(Operation *op);
  /// Merges the attention chain `op` ends into one closed group.
  bool tryAttention(Operation *op);
  bool acceptsEpilogue(int64_t g, Operation *op);
  /// The chains of views `op` reads, each op read only by the next and by
  /// nothing else, at least one of them a slice (absorbSliceViews).
  SmallVector<ViewChain> absorbableViews(Operation *op);
  /// tryMerge with the chains of `views` whose source the merged group does
  /// not compute, else without them.
  bool tryMergeWithViews(Operation *op, ArrayRef<int64_t> candidates,
                         ArrayRef<ViewChain> views, bool asEpilogue);

  Block &block;
  const FusionPlannerOptions &options;
  DenseMap<Operation *, int64_t> position;
  SmallVector<Operation *> ops;
  SmallVector<int64_t> parent;
  SmallVector<GroupState> groups;
  /// Ops that run after their group's anchor (the epilogue).
  SmallVector<bool> epilogue;
  /// The scalings of Q of the block's attention chains: tryAttention takes
  /// each as a group of its own (the first product's alpha), so they take
  /// no views in.
  llvm::SmallPtrSet<Operation *, 4> queryScalings;
};

} // namespace

Role Planner::roleOf(Operation *op) const {
  auto kindIface = dyn_cast<FusionKindOpInterface>(op);
  if (!kindIface || op->getNumRegions() != 0 || op->getNumResults() != 1)
    return Role::Closed;
  // A dead op would be computed in a kernel for nothing (gopt-dce removes it).
  if (op->use_empty())
    return Role::Closed;
  switch (kindIface.getFusionKind()) {
  case FusionKind::Elementwise:
  case FusionKind::Broadcast:
    return Role::Elementwise;
  case FusionKind::Contraction:
    return options.fuseContractionEpilogues ? Role::Anchor : Role::Closed;
  case FusionKind::Reduction:
    return options.fuseReductions ? Role::Anchor : Role::Closed;
  default:
    return Role::Closed;
  }
}

int64_t Planner::find(int64_t g) {
  while (parent[g] != g) {
    parent[g] = parent[parent[g]];
    g = parent[g];
  }
  return g;
}

int64_t Planner::producerGroup(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != &block)
    return -1;
  return find(position.lookup(def));
}

int64_t Planner::availablePos(Value v) {
  int64_t g = producerGroup(v);
  return g < 0 ? -1 : groups[g].first;
}

bool Planner::acceptsEpilogue(int64_t g, Operation *op) {
  Operation *anchor = groups[g].anchor;
  if (!anchor)
    return true;
  // Inside an anchored group, op may only read the anchor and its epilogue:
  // reading the prologue would need the pre-reduction values again.
  for (Value v : op->getOperands()) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &block || producerGroup(v) != g)
      continue;
    int64_t pos = position.lookup(def);
    if (def != anchor && !epilogue[pos])
      return false;
  }
  return true;
}

bool Planner::tryMerge(Operation *op, ArrayRef<int64_t> candidates,
                       bool asEpilogue) {
  int64_t self = find(position.lookup(op));
  int64_t first = groups[self].first, maxInput = -1;
  int64_t size = groups[self].size;
  Operation *anchor = groups[self].anchor;
  for (int64_t g : candidates) {
    first = std::min(first, groups[g].first);
    maxInput = std::max(maxInput, groups[g].maxInputPos);
    size += groups[g].size;
    if (groups[g].anchor) {
      if (anchor)
        return false;
      anchor = groups[g].anchor;
    }
  }
  if (size > options.maxGroupSize)
    return false;
  for (Value v : op->getOperands()) {
    int64_t g = producerGroup(v);
    if (g >= 0 && llvm::is_contained(candidates, g))
      continue;
    maxInput = std::max(maxInput, availablePos(v));
  }
  if (maxInput >= first)
    return false;
  for (int64_t g : candidates)
    parent[g] = self;
  groups[self] = GroupState{first, maxInput, size, anchor, /*open=*/true};
  epilogue[position.lookup(op)] = asEpilogue;
  return true;
}

SmallVector<ViewChain> Planner::absorbableViews(Operation *op) {
  SmallVector<ViewChain> views;
  if (!options.absorbSliceViews || queryScalings.contains(op))
    return views;
  for (Value v : op->getOperands()) {
    SmallVector<Operation *> chain = viewChain(v, &block);
    if (chain.empty())
      continue;
    // Each view is read by the next alone, so none has joined a group yet.
    ViewChain view{{}, chain.back()->getOperand(0)};
    for (Operation *def : chain)
      view.groups.push_back(find(position.lookup(def)));
    views.push_back(std::move(view));
  }
  return views;
}

bool Planner::tryMergeWithViews(Operation *op, ArrayRef<int64_t> candidates,
                                ArrayRef<ViewChain> views, bool asEpilogue) {
  SmallVector<int64_t> all(candidates.begin(), candidates.end());
  // Merged, a chain's only input from outside is its source: each view's
  // input position stands for its source's while the merge is tried.
  SmallVector<std::pair<int64_t, int64_t>> savedInputPos;
  for (const ViewChain &chain : views) {
    // A slice of a value the group computes would not be a view of the
    // kernel's input.
    int64_t source = producerGroup(chain.source);
    if (source >= 0 && llvm::is_contained(candidates, source))
      continue;
    for (int64_t g : chain.groups) {
      savedInputPos.push_back({g, groups[g].maxInputPos});
      groups[g].maxInputPos = availablePos(chain.source);
      all.push_back(g);
    }
  }
  if (!savedInputPos.empty()) {
    if (tryMerge(op, all, asEpilogue)) {
      for (auto [g, inputPos] : savedInputPos)
        epilogue[g] = asEpilogue;
      return true;
    }
    for (auto [g, inputPos] : savedInputPos)
      groups[g].maxInputPos = inputPos;
  }
  return !candidates.empty() && tryMerge(op, candidates, asEpilogue);
}

SmallVector<int64_t> Planner::absorbableTransposes(Operation *op) {
  SmallVector<int64_t> transposes;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isAbsorbableTranspose(operand))
      continue;
    Operation *transpose = operand.get().getDefiningOp();
    if (transpose->getBlock() != &block)
      continue;
    int64_t g = find(position.lookup(transpose));
    if (groups[g].size == 1 && !groups[g].open)
      transposes.push_back(g);
  }
  return transposes;
}

bool Planner::tryAttention(Operation *op) {
  auto output = dyn_cast<MatmulOp>(op);
  std::optional<AttentionChain> chain =
      output ? matchAttentionChain(output) : std::nullopt;
  if (!chain)
    return false;
  // By now the scores' product has taken its transposes, the scaling and
  // the mask addition (its epilogue); the softmax is alone. Their groups
  // must hold nothing else, or the kernel would compute more than the
  // chain.
  int64_t scores = find(position.lookup(chain->scores));
  int64_t softmax = find(position.lookup(chain->softmax));
  if (scores == softmax || groups[softmax].size != 1)
    return false;
  int64_t members = 1;
  for (Operation *member : {chain->scaling, chain->maskAddition.getOperation()})
    if (member) {
      if (find(position.lookup(member)) != scores)
        return false;
      ++members;
    }
  for (Value operand : chain->scores->getOperands())
    if (auto transpose = operand.getDefiningOp<TransposeOp>();
        transpose && transpose->getBlock() == &block &&
        find(position.lookup(transpose)) == scores)
      ++members;
  if (groups[scores].size != members)
    return false;
  // With the scaling of Q when it is a group of its own, and the
  // transposes P·V reads in place; else without them.
  int64_t queryScaling = -1;
  if (chain->queryScaling) {
    queryScaling = find(position.lookup(chain->queryScaling));
    if (queryScaling == scores || groups[queryScaling].size != 1)
      queryScaling = -1;
  }
  SmallVector<int64_t> transposes;
  if (options.absorbTransposes)
    transposes = absorbableTransposes(op);
  bool merged = false;
  for (bool withScaling : {true, false})
    for (bool withTransposes : {true, false}) {
      if (merged || (withScaling && queryScaling < 0) ||
          (withTransposes && transposes.empty()))
        continue;
      SmallVector<int64_t> candidates = {scores, softmax};
      if (withScaling)
        candidates.push_back(queryScaling);
      if (withTransposes)
        candidates.append(transposes);
      merged = mergeAttention(op, candidates);
    }
  return merged;
}

bool Planner::mergeAttention(Operation *op, ArrayRef<int64_t> candidates) {
  int64_t pos = position.lookup(op);
  int64_t self = find(pos);
  SmallVector<int64_t> all(candidates.begin(), candidates.end());
  all.push_back(self);
  int64_t first = pos, size = 0;
  for (int64_t g : all) {
    first = std::min(first, groups[g].first);
    size += groups[g].size;
  }
  if (size > options.maxGroupSize)
    return false;
  int64_t maxInput = -1;
  for (int64_t p = first; p <= pos; ++p) {
    if (!llvm::is_contained(all, find(p)))
      continue;
    for (Value v : ops[p]->getOperands())
      if (!llvm::is_contained(all, producerGroup(v)))
        maxInput = std::max(maxInput, availablePos(v));
  }
  if (maxInput >= first)
    return false;
  for (int64_t g : candidates)
    parent[g] = self;
  // Nothing joins the attention kernel: it is one library call.
  groups[self] = GroupState{first, maxInput, size, op, /*open=*/false};
  return true;
}

std::vector<SmallVector<Operation *>> Planner::run() {
  for (Operation &op : block) {
    position[&op] = static_cast<int64_t>(ops.size());
    ops.push_back(&op);
  }
  int64_t n = ops.size();
  if (options.fuseAttention && options.absorbSliceViews)
    for (Operation *op : ops)
      if (auto matmul = dyn_cast<MatmulOp>(op))
        if (std::optional<AttentionChain> chain = matchAttentionChain(matmul);
            chain && chain->queryScaling)
          queryScalings.insert(chain->queryScaling);
  parent.resize(n);
  groups.resize(n);
  epilogue.assign(n, false);

  for (int64_t pos = 0; pos < n; ++pos) {
    Operation *op = ops[pos];
    Role role = roleOf(op);
    parent[pos] = pos;
    int64_t maxInput = -1;
    for (Value v : op->getOperands())
      maxInput = std::max(maxInput, availablePos(v));
    groups[pos] = GroupState{pos, maxInput, 1,
                             role == Role::Anchor ? op : nullptr,
                             role != Role::Closed};
    if (role == Role::Closed)
      continue;

    // Open producer groups, each once, split by whether they are anchored.
    SmallVector<int64_t> anchored, plain;
    for (Value v : op->getOperands()) {
      int64_t g = producerGroup(v);
      if (g < 0 || g == pos || !groups[g].open ||
          llvm::is_contained(anchored, g) || llvm::is_contained(plain, g))
        continue;
      (groups[g].anchor ? anchored : plain).push_back(g);
    }

    if (role == Role::Elementwise) {
      // Prefer the epilogue of an anchored producer (a kernel saved and an
      // intermediate's round trip), then all plain producers at once, then
      // one at a time; with the views the op reads where they can come
      // along, else the views alone.
      SmallVector<ViewChain> views = absorbableViews(op);
      bool merged = false;
      for (int64_t g : anchored)
        if (!merged && acceptsEpilogue(g, op))
          merged = tryMergeWithViews(op, {g}, views, /*asEpilogue=*/true);
      if (!merged && !plain.empty())
        merged = tryMergeWithViews(op, plain, views, /*asEpilogue=*/false);
      for (int64_t g : plain)
        if (!merged)
          merged = tryMergeWithViews(op, {g}, views, /*asEpilogue=*/false);
      if (!merged)
        tryMergeWithViews(op, {}, views, /*asEpilogue=*/false);
      continue;
    }

    if (options.fuseAttention && tryAttention(op))
      continue;

    // A matmul reads a transpose only it reads in place (the group's
    // kernel folds the permutation into the contraction's strides).
    // Both operands' transposes together first: one placed after the other
    // is an input the other's group would not have in time.
    if (options.absorbTransposes) {
      SmallVector<int64_t> transposes = absorbableTransposes(op);
      if (!transposes.empty() &&
          !tryMerge(op, transposes, /*asEpilogue=*/false))
        for (int64_t g : transposes)
          if (tryMerge(op, {g}, /*asEpilogue=*/false))
            break;
    }

    // An anchor takes plain elementwise producers as its prologue when it
    // reads each operand element once.
    auto kindIface = cast<FusionKindOpInterface>(op);
    if (plain.empty() || !kindIface.acceptsProducerFusion())
      continue;
    if (!tryMerge(op, plain, /*asEpilogue=*/false))
      for (int64_t g : plain)
        if (tryMerge(op, {g}, /*asEpilogue=*/false))
          break;
  }

  // Collect groups of two or more ops, ordered by first op.
  DenseMap<int64_t, size_t> index;
  std::vector<SmallVector<Operation *>> result;
  SmallVector<std::pair<int64_t, size_t>> order;
  for (int64_t pos = 0; pos < n; ++pos) {
    int64_t g = find(pos);
    if (groups[g].size < 2)
      continue;
    auto [it, inserted] = index.try_emplace(g, result.size());
    if (inserted) {
      result.emplace_back();
      order.push_back({groups[g].first, it->second});
    }
    result[it->second].push_back(ops[pos]);
  }
  llvm::sort(order);
  std::vector<SmallVector<Operation *>> sorted;
  sorted.reserve(result.size());
  for (auto [first, i] : order)
    sorted.push_back(std::move(result[i]));
  return sorted;
}

bool mlir::gopt::isViewOp(Operation *op) {
  if (isa<ReshapeOp>(op))
    return true;
  auto slice = dyn_cast<SliceOp>(op);
  return slice &&
         llvm::all_of(slice.getSteps(), [](int64_t step) { return step == 1; });
}

SmallVector<Operation *> mlir::gopt::viewChain(Value v, Block *block) {
  SmallVector<Operation *> chain;
  bool slices = false;
  while (Operation *def = v.getDefiningOp()) {
    if (def->getBlock() != block || !isViewOp(def) || !v.hasOneUse())
      break;
    chain.push_back(def);
    slices |= isa<SliceOp>(def);
    v = def->getOperand(0);
  }
  if (!slices)
    chain.clear();
  return chain;
}

bool mlir::gopt::readsPermutedInPlace(MatmulOp matmul, unsigned operandNumber,
                                      ArrayRef<int64_t> perm) {
  int64_t rank = static_cast<int64_t>(perm.size());
  if (rank < 2 || operandNumber > 1)
    return false;
  // The input's innermost dim must stay one of the two matrix dims.
  auto innermost = llvm::find(perm, rank - 1);
  if (std::distance(perm.begin(), innermost) < rank - 2)
    return false;
  if (operandNumber != 0)
    return true;
  // A right operand shared by every batch lets the batches' rows be one
  // GEMM; strided left rows would split it into one GEMM per batch.
  auto rhsType = cast<ShapedType>(matmul.getRhs().getType());
  ArrayRef<int64_t> rhsBatch = rhsType.getShape().drop_back(2);
  bool sharedRhs = llvm::all_of(rhsBatch, [](int64_t d) { return d == 1; });
  return !sharedRhs || rank == 2;
}

bool mlir::gopt::isAbsorbableTranspose(OpOperand &operand) {
  auto matmul = dyn_cast<MatmulOp>(operand.getOwner());
  auto transpose = operand.get().getDefiningOp<TransposeOp>();
  return matmul && transpose && transpose->hasOneUse() &&
         readsPermutedInPlace(matmul, operand.getOperandNumber(),
                              transpose.getPerm());
}

std::vector<SmallVector<Operation *>>
mlir::gopt::planFusionGroups(Block &block,
                             const FusionPlannerOptions &options) {
  return Planner(block, options).run();
}

SmallVector<Operation *> mlir::gopt::dissolveFusion(FusionOp fusion,
                                                    RewriterBase &rewriter) {
  Block &body = fusion.getBodyBlock();
  auto yield = cast<YieldOp>(body.getTerminator());
  SmallVector<Value> results(yield.getOperands());
  rewriter.eraseOp(yield);
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    ops.push_back(&op);
  rewriter.inlineBlockBefore(&body, fusion, fusion.getInputs());
  rewriter.replaceOp(fusion, results);
  return ops;
}

FusionOp mlir::gopt::materializeFusionGroup(ArrayRef<Operation *> group,
                                            RewriterBase &rewriter) {
  llvm::SmallPtrSet<Operation *, 16> members(group.begin(), group.end());
  llvm::SetVector<Value> inputs;
  SmallVector<Value> exposed;
  SmallVector<Location> locs;
  for (Operation *op : group) {
    locs.push_back(op->getLoc());
    for (Value v : op->getOperands())
      if (!members.contains(v.getDefiningOp()))
        inputs.insert(v);
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *user) {
            return !members.contains(user);
          }))
        exposed.push_back(r);
  }

  rewriter.setInsertionPoint(group.front());
  Location loc = rewriter.getFusedLoc(locs);
  auto fusion = FusionOp::create(rewriter, loc, ValueRange(exposed).getTypes(),
                                 inputs.getArrayRef());
  SmallVector<Location> argLocs;
  for (Value v : inputs)
    argLocs.push_back(v.getLoc());
  Block *body = rewriter.createBlock(&fusion.getBody(), {},
                                     ValueRange(inputs.getArrayRef()).getTypes(),
                                     argLocs);
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body->getArguments());
  for (Operation *op : group)
    rewriter.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value v : exposed)
    yielded.push_back(mapping.lookup(v));
  YieldOp::create(rewriter, loc, yielded);

  for (auto [original, replacement] : llvm::zip(exposed, fusion.getResults()))
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return !members.contains(use.getOwner());
    });
  for (Operation *op : llvm::reverse(group))
    rewriter.eraseOp(op);
  rewriter.setInsertionPointAfter(fusion);
  return fusion;
}
