//===- GraphImporter.h - State shared by the ONNX op importers --*- C++ -*-===//
//
// Internal to lib/Import/ONNX. The graph importer owns the value table (ONNX
// names to SSA values) and the import-time constant table that gives every
// op a static result type; NodeContext is what one op importer sees.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_IMPORT_ONNX_GRAPHIMPORTER_H
#define GOPT_LIB_IMPORT_ONNX_GRAPHIMPORTER_H

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace mlir {
namespace gopt {
namespace onnx_import {

/// Values with at most this many elements are evaluated at import time when
/// their operands are known, so shape subgraphs give static types.
constexpr int64_t kMaxKnownElements = 1 << 16;

/// The most elements of a table an importer builds from a model's dims and
/// attributes (positions along an axis, a mask, a gather's indices): 16 Mi.
constexpr int64_t kMaxBuiltTableElements = int64_t(1) << 24;

//===----------------------------------------------------------------------===//
// Tensors and types (TensorConversion.cpp)
//===----------------------------------------------------------------------===//

/// The MLIR element type of an ONNX TensorProto::DataType; null when gopt
/// has no such element type.
Type convertDataType(MLIRContext *context, int32_t dataType);

/// The ONNX spelling of a data type ("FLOAT", "UINT8", ...).
std::string dataTypeName(int32_t dataType);

/// Converts an initializer or Constant value. Small integer tensors and
/// single elements become inline dense attributes; everything else (the
/// weights) becomes a `dense_resource` blob named after the tensor. External
/// data is read from `modelDir`, which the path may not leave.
FailureOr<ElementsAttr> convertTensor(const onnx::TensorProto &tensor,
                                      Location loc, llvm::StringRef modelDir);

/// convertTensor for an initializer whose raw data parseModel set aside:
/// `rawData` (nullopt: the tensor has none) lies in `storage`, which the
/// blob shares rather than copy the bytes.
FailureOr<ElementsAttr>
convertInitializer(const onnx::TensorProto &tensor,
                   std::optional<llvm::StringRef> rawData,
                   const std::shared_ptr<char> &storage, Location loc,
                   llvm::StringRef modelDir);

/// A ModelProto parsed with its main graph's initializers' raw data aside.
struct ParsedModel {
  /// Everything but that raw data.
  onnx::ModelProto model;
  /// initializerBytes[i]: the raw data of model.graph().initializer(i), or
  /// nullopt when it has none (typed fields, external data); each 64-byte
  /// aligned in `storage`.
  std::vector<std::optional<llvm::StringRef>> initializerBytes;
  /// One allocation in huge pages (allocateConstantStorage), shared by the
  /// blobs of the constants made from it.
  std::shared_ptr<char> storage;
};

/// Parses the serialized ModelProto `bytes` (ModelWeights.cpp): protobuf
/// parses it without the initializers' raw data, which are copied once, so
/// a model's weights are neither copied a tensor at a time into heap strings
/// nor limited by protobuf's 2 GiB. Emits an error at `loc` and fails when
/// `bytes` is no well-formed protobuf.
LogicalResult parseModel(llvm::StringRef bytes, ParsedModel &out, Location loc);

/// A float constant of `type` from `values`, stored as a `dense_resource`
/// blob named `blobName` when it has more than one element.
ElementsAttr makeFloatElements(RankedTensorType type, ArrayRef<double> values,
                               llvm::StringRef blobName);

/// The elements of a constant as 64-bit integers, or as doubles.
std::optional<SmallVector<int64_t>> getIntValues(Attribute attr);
std::optional<SmallVector<double>> getFloatValues(Attribute attr);

//===----------------------------------------------------------------------===//
// Graph ordering (GraphSort.cpp)
//===----------------------------------------------------------------------===//

/// Orders `graph`'s nodes so every node follows the producers of its inputs.
/// `defined` holds the names available before the first node (graph inputs
/// and initializers); `names[i]` is node i's display name. Emits a
/// diagnostic naming a node on a cycle, or a node that reads a value nobody
/// defines, and fails.
FailureOr<SmallVector<int>> sortNodes(const onnx::GraphProto &graph,
                                      const llvm::StringMap<bool> &defined,
                                      ArrayRef<std::string> names,
                                      Location graphLoc);

//===----------------------------------------------------------------------===//
// Import state
//===----------------------------------------------------------------------===//

/// The value table and import-time constants of the graph being imported.
class GraphImporter {
public:
  GraphImporter(OpBuilder &builder, llvm::StringRef modelDir)
      : builder(builder), modelDir(modelDir) {}

  OpBuilder &builder;
  /// Folder external data is read from (empty: none allowed).
  llvm::StringRef modelDir;
  /// ONNX value name -> SSA value.
  llvm::StringMap<Value> values;

  /// The known constant value of `v` (an Elements attribute), or null. Used
  /// for type inference only: the ops that compute `v` are still emitted.
  Attribute getKnown(Value v) const { return known.lookup(v); }
  void setKnown(Value v, Attribute attr) { known[v] = attr; }

  /// Records what `op`'s results are when its operands are known.
  void evaluate(Operation *op);

private:
  DenseMap<Value, Attribute> known;
};

/// One ONNX node while its importer runs.
class NodeContext {
public:
  NodeContext(GraphImporter &graph, const onnx::NodeProto &node, Location loc)
      : graph(graph), node(node), loc(loc) {}

  GraphImporter &graph;
  const onnx::NodeProto &node;
  Location loc;

  OpBuilder &builder() { return graph.builder; }
  MLIRContext *getContext() { return builder().getContext(); }

  /// An error at the node, prefixed with its op type.
  InFlightDiagnostic emitError();

  //===--- inputs ---------------------------------------------------------===//

  /// Input `i`, or null when the node has fewer inputs or the name is empty
  /// (an omitted optional input).
  Value input(unsigned i);
  /// Input `i`; emits an error naming the input when it is missing.
  FailureOr<Value> requiredInput(unsigned i, llvm::StringRef what);
  static RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }
  /// The import-time integer values of input `i` (shapes, axes, indices);
  /// emits an error when they are not known at import time.
  FailureOr<SmallVector<int64_t>> knownInts(unsigned i, llvm::StringRef what);
  /// The import-time float values of input `i`.
  FailureOr<SmallVector<double>> knownFloats(unsigned i, llvm::StringRef what);

  //===--- attributes -----------------------------------------------------===//

  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  int64_t getInt(llvm::StringRef name, int64_t defaultValue) const;
  double getFloat(llvm::StringRef name, double defaultValue) const;
  std::string getString(llvm::StringRef name,
                        llvm::StringRef defaultValue) const;
  std::optional<SmallVector<int64_t>> getInts(llvm::StringRef name) const;

  //===--- ops ------------------------------------------------------------===//

  /// Creates a single-result op whose result type the op infers; reports
  /// the op's own diagnostic and fails when the operands do not fit.
  template <typename OpTy, typename... Args>
  FailureOr<Value> create(Args &&...args) {
    OpTy op = OpTy::create(builder(), loc, builder().getNoneType(),
                           std::forward<Args>(args)...);
    SmallVector<Type> types;
    if (failed(OpTy::inferReturnTypes(
            getContext(), loc, op->getOperands(), op->getAttrDictionary(),
            op->getPropertiesStorage(), op->getRegions(), types))) {
      op->erase();
      return failure();
    }
    op->getResult(0).setType(types.front());
    return finish(op);
  }

  /// Creates a single-result op with the given result type.
  template <typename OpTy, typename... Args>
  FailureOr<Value> createTyped(Type resultType, Args &&...args) {
    OpTy op =
        OpTy::create(builder(), loc, resultType, std::forward<Args>(args)...);
    return finish(op);
  }

  /// Verifies a freshly created op, records its known results, and returns
  /// its first result; erases it and fails when it does not verify.
  FailureOr<Value> finish(Operation *op);

  /// A constant of `attr`, known at import time.
  Value constant(ElementsAttr attr);
  /// Fails with an error when a table of `elements` elements (`what`) is
  /// more than kMaxBuiltTableElements.
  LogicalResult checkTableSize(int64_t elements, llvm::StringRef what);
  /// The i64 constant 0, 1, ..., extent - 1 along `axis` of a rank-`rank`
  /// shape of ones (it broadcasts against tensors of that rank); an error
  /// when extent is past checkTableSize's bound.
  FailureOr<Value> positionsAlong(int64_t rank, int64_t axis, int64_t extent);
  /// A splat constant of `type` holding `value`.
  Value splat(RankedTensorType type, double value);
  /// A scalar constant of `like`'s element type holding `value`, which its
  /// users broadcast.
  Value scalarLike(Value like, double value);
  /// A bool scalar constant.
  Value boolScalar(bool value);
  /// `axis` (negative ones count from the back) as a dim of a rank-`rank`
  /// shape; an error naming it when it is out of range.
  FailureOr<int64_t> normalizedAxis(int64_t axis, int64_t rank);
  /// Reshape of `v` to `shape` (no op when the shape already matches).
  FailureOr<Value> reshape(Value v, ArrayRef<int64_t> shape);

  /// Binds the node's outputs to `results`, in order. An output the node
  /// names beyond `results` (an optional output gopt does not compute) is
  /// an error.
  LogicalResult setResults(ArrayRef<Value> results);
};

/// `axes` for `rank` as sorted, distinct, non-negative dims; an error at
/// the first one out of range or repeated.
FailureOr<SmallVector<int64_t>>
normalizeAxes(NodeContext &n, ArrayRef<int64_t> axes, int64_t rank);

/// The lowest and highest value of a float (−inf, +inf) or signed integer
/// element type: what never wins a max (a min).
double lowestValue(Type element);
double highestValue(Type element);

//===----------------------------------------------------------------------===//
// Op importer registry (one file per op family)
//===----------------------------------------------------------------------===//

using ImportFn = LogicalResult (*)(NodeContext &);

/// An attribute an importer understands, and its ONNX type.
struct AttrSpec {
  const char *name;
  onnx::AttributeProto::AttributeType type;
};

/// How one ONNX op type is imported.
struct OpImporter {
  ImportFn fn;
  std::vector<AttrSpec> attributes;
};

using OpImporterTable = llvm::StringMap<OpImporter>;

void registerElementwiseImporters(OpImporterTable &table);
void registerShapeImporters(OpImporterTable &table);
void registerNeuralImporters(OpImporterTable &table);
void registerEvaluatedImporters(OpImporterTable &table);
void registerEinsumImporter(OpImporterTable &table);
void registerResizeImporter(OpImporterTable &table);
void registerRecurrentImporters(OpImporterTable &table);
void registerReductionImporters(OpImporterTable &table);
void registerRearrangeImporters(OpImporterTable &table);
void registerGridSampleImporter(OpImporterTable &table);

/// The [begin, end] padding auto_pad SAME_UPPER (`upper`) or SAME_LOWER
/// gives a dim of size `in`: the output is ceil(in / stride), the total
/// padding split evenly, the odd one at the end (upper) or the start.
std::pair<int64_t, int64_t> samePadding(int64_t in, int64_t kernel,
                                        int64_t stride, int64_t dilation,
                                        bool upper);

/// The end padding ceil_mode adds on a pooled dim of size `in` (PyTorch's
/// rule: the output size rounded up, but no window starting in the end
/// padding); 0 when the padded input is smaller than the kernel.
int64_t ceilModeEndPadding(int64_t in, int64_t kernel, int64_t stride,
                           int64_t begin, int64_t end);

/// Conv on [N, C, D, H, W] with a 5-D weight, and MaxPool / AveragePool
/// with a 3-D kernel: 2-D ops over the frames (VolumeImporters.cpp); the
/// Conv and pooling importers hand those cases on.
LogicalResult importConv3D(NodeContext &n);
LogicalResult importPool3D(NodeContext &n, PoolKind kind);

/// Every supported op type of the default domain.
const OpImporterTable &getOpImporters();

} // namespace onnx_import
} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_IMPORT_ONNX_GRAPHIMPORTER_H
