//===- ONNXImporter.cpp - ONNX ModelProto to a gopt function --------------===//
//
// The driver: parses the model, checks the opset and that every op type is
// supported (one error lists all that are not), turns inputs and
// initializers into function arguments and constants, orders the nodes and
// hands each to its op importer (Elementwise/Shape/NeuralImporters.cpp).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Import/ONNX/ONNXImporter.h"
#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

/// The opsets whose op semantics the importers implement.
static constexpr int64_t kMinOpset = 13;
static constexpr int64_t kMaxOpset = 17;

const OpImporterTable &onnx_import::getOpImporters() {
  static const OpImporterTable table = [] {
    OpImporterTable t;
    registerElementwiseImporters(t);
    registerShapeImporters(t);
    registerNeuralImporters(t);
    registerEvaluatedImporters(t);
    registerEinsumImporter(t);
    registerResizeImporter(t);
    registerRecurrentImporters(t);
    registerReductionImporters(t);
    registerRearrangeImporters(t);
    registerGridSampleImporter(t);
    return t;
  }();
  return table;
}

bool gopt::parseInputShapeOverride(llvm::StringRef text,
                                   ONNXImportOptions &options,
                                   std::string &error) {
  auto [name, dims] = text.rsplit('=');
  if (name.empty() || dims.empty() || !text.contains('=')) {
    error = "expected NAME=D0xD1x..., got '" + text.str() + "'";
    return false;
  }
  SmallVector<int64_t> shape;
  SmallVector<llvm::StringRef> parts;
  dims.split(parts, 'x');
  for (llvm::StringRef part : parts) {
    int64_t d;
    if (part.getAsInteger(10, d) || d < 0) {
      error = "dimension '" + part.str() + "' of '" + text.str() +
              "' is not a non-negative integer";
      return false;
    }
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  return true;
}

bool gopt::parseNamedDimOverride(llvm::StringRef text,
                                 ONNXImportOptions &options,
                                 std::string &error) {
  auto [name, value] = text.split('=');
  int64_t size = 0;
  if (name.empty() || value.getAsInteger(10, size) || size < 1) {
    error = "expected NAME=N with N >= 1, got '" + text.str() + "'";
    return false;
  }
  options.namedDims[name] = size;
  return true;
}

void gopt::registerONNXImportDialects(DialectRegistry &registry) {
  registry.insert<GOptDialect, func::FuncDialect>();
}

namespace {

/// Imports one ModelProto.
class ModelImporter {
public:
  ModelImporter(MLIRContext *context, const ONNXImportOptions &options,
                llvm::StringRef modelDir, llvm::StringRef sourceName)
      : context(context), options(options), modelDir(modelDir),
        fileLoc(FileLineColLoc::get(context, sourceName, 0, 0)) {}

  /// Imports `parsed`; its constants share the initializers' bytes.
  OwningOpRef<ModuleOp> import(const ParsedModel &parsed);

private:
  LogicalResult checkOpset(const onnx::ModelProto &model);
  LogicalResult checkOpTypes(const onnx::GraphProto &graph);
  /// Collects initializers and the typed function arguments.
  LogicalResult importSignature(const onnx::GraphProto &graph);
  FailureOr<RankedTensorType> getInputType(const onnx::ValueInfoProto &input);
  /// Initializers that something reads become constants, in file order;
  /// their blobs share the bytes parseModel set aside.
  LogicalResult importInitializers(const ParsedModel &parsed,
                                   GraphImporter &importer);
  LogicalResult importNodes(const onnx::GraphProto &graph, ArrayRef<int> order,
                            ArrayRef<std::string> names,
                            GraphImporter &importer);
  LogicalResult checkAttributes(NodeContext &node, const OpImporter &importer);
  /// Returns the graph outputs and sets the function's result types.
  LogicalResult importOutputs(const onnx::GraphProto &graph,
                              GraphImporter &importer, func::FuncOp func);
  void checkDeclaredType(const onnx::ValueInfoProto &output,
                         RankedTensorType imported);

  MLIRContext *context;
  const ONNXImportOptions &options;
  llvm::StringRef modelDir;
  Location fileLoc;

  llvm::StringMap<const onnx::TensorProto *> initializers;
  /// Names defined before the first node: initializers and inputs.
  llvm::StringMap<bool> defined;
  SmallVector<const onnx::ValueInfoProto *> inputs;
  SmallVector<Type> argTypes;
};

} // namespace

LogicalResult ModelImporter::checkOpset(const onnx::ModelProto &model) {
  std::optional<int64_t> version;
  for (const onnx::OperatorSetIdProto &opset : model.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      version = opset.version();
  if (!version)
    return emitError(fileLoc)
           << "the model imports no opset of the default ONNX domain";
  if (*version < kMinOpset || *version > kMaxOpset)
    return emitError(fileLoc)
           << "opset " << *version << " is not supported: GOpt imports opsets "
           << kMinOpset << " to " << kMaxOpset
           << " (re-export the model with opset_version in that range)";
  return success();
}

LogicalResult ModelImporter::checkOpTypes(const onnx::GraphProto &graph) {
  const OpImporterTable &table = getOpImporters();
  std::map<std::string, int> unsupported;
  for (const onnx::NodeProto &node : graph.node()) {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (defaultDomain && table.count(node.op_type()))
      continue;
    std::string key =
        defaultDomain ? node.op_type() : node.domain() + "::" + node.op_type();
    ++unsupported[key];
  }
  if (unsupported.empty())
    return success();
  InFlightDiagnostic diag = emitError(fileLoc);
  diag << unsupported.size() << " unsupported ONNX op type"
       << (unsupported.size() == 1 ? "" : "s") << ":";
  llvm::StringRef separator = " ";
  for (const auto &[type, count] : unsupported) {
    diag << separator << type << " (" << count << " node"
         << (count == 1 ? "" : "s") << ")";
    separator = ", ";
  }
  diag << "; docs/Import.md lists the supported ops";
  return failure();
}

FailureOr<RankedTensorType>
ModelImporter::getInputType(const onnx::ValueInfoProto &input) {
  const std::string &name = input.name();
  if (!input.type().has_tensor_type())
    return emitError(fileLoc) << "graph input '" << name << "' is not a tensor";
  const onnx::TypeProto::Tensor &tensor = input.type().tensor_type();
  Type element = convertDataType(context, tensor.elem_type());
  if (!element)
    return emitError(fileLoc)
           << "graph input '" << name << "' has unsupported element type "
           << dataTypeName(tensor.elem_type());
  auto override = options.inputShapes.find(name);
  if (override != options.inputShapes.end())
    return RankedTensorType::get(override->second, element);
  if (!tensor.has_shape())
    return emitError(fileLoc)
           << "graph input '" << name << "' has no shape; pass --input-shape "
           << name << "=D0xD1x...";
  SmallVector<int64_t> shape;
  for (int i = 0; i < tensor.shape().dim_size(); ++i) {
    const onnx::TensorShapeProto::Dimension &dim = tensor.shape().dim(i);
    if (dim.has_dim_param()) {
      auto named = options.namedDims.find(dim.dim_param());
      if (named != options.namedDims.end()) {
        shape.push_back(named->second);
        continue;
      }
    }
    if (i == 0 && options.batchSize) {
      shape.push_back(*options.batchSize);
      continue;
    }
    if (!dim.has_dim_value() || dim.dim_value() < 0) {
      InFlightDiagnostic diag = emitError(fileLoc);
      diag << "graph input '" << name << "' has dynamic dimension " << i;
      if (dim.has_dim_param())
        diag << " ('" << dim.dim_param() << "')";
      diag << "; gopt needs static shapes: pass --input-shape " << name
           << "=D0xD1x...";
      return failure();
    }
    shape.push_back(dim.dim_value());
  }
  return RankedTensorType::get(shape, element);
}

/// The ONNX name of an attribute type, for diagnostics.
static llvm::StringRef attributeTypeName(int type) {
  if (!onnx::AttributeProto::AttributeType_IsValid(type))
    return "UNDEFINED";
  return onnx::AttributeProto::AttributeType_Name(
      static_cast<onnx::AttributeProto::AttributeType>(type));
}

LogicalResult ModelImporter::checkAttributes(NodeContext &node,
                                             const OpImporter &importer) {
  for (const onnx::AttributeProto &attr : node.node.attribute()) {
    const AttrSpec *spec = nullptr;
    for (const AttrSpec &s : importer.attributes)
      if (attr.name() == s.name)
        spec = &s;
    if (!spec)
      return node.emitError()
             << "unsupported attribute '" << attr.name() << "'";
    if (attr.type() != spec->type)
      return node.emitError() << "attribute '" << attr.name() << "' must be "
                              << attributeTypeName(spec->type) << ", not "
                              << attributeTypeName(attr.type());
  }
  return success();
}

/// The model's own type for a graph output, where it gives one, is a second
/// opinion on the importer's shape rules: a disagreement is a warning.
void ModelImporter::checkDeclaredType(const onnx::ValueInfoProto &output,
                                      RankedTensorType imported) {
  if (!output.type().has_tensor_type())
    return;
  const onnx::TypeProto::Tensor &tensor = output.type().tensor_type();
  Type element = convertDataType(context, tensor.elem_type());
  bool differs = element && element != imported.getElementType();
  if (tensor.has_shape()) {
    const onnx::TensorShapeProto &shape = tensor.shape();
    differs |= shape.dim_size() != imported.getRank();
    for (int i = 0; i < shape.dim_size() && i < imported.getRank(); ++i)
      differs |= shape.dim(i).has_dim_value() &&
                 shape.dim(i).dim_value() != imported.getDimSize(i);
  }
  if (!differs)
    return;
  InFlightDiagnostic diag = emitWarning(fileLoc);
  diag << "graph output '" << output.name() << "' is declared as ";
  if (tensor.has_shape()) {
    diag << "[";
    for (int i = 0; i < tensor.shape().dim_size(); ++i) {
      const onnx::TensorShapeProto::Dimension &dim = tensor.shape().dim(i);
      diag << (i ? ", " : "");
      if (dim.has_dim_value())
        diag << dim.dim_value();
      else
        diag << "?";
    }
    diag << "] ";
  }
  diag << dataTypeName(tensor.elem_type()) << " but imports as " << imported;
}

/// Display names of the nodes: their own, or <OpType>_<index> when unnamed.
static std::vector<std::string> getNodeNames(const onnx::GraphProto &graph) {
  std::vector<std::string> names;
  for (int i = 0; i < graph.node_size(); ++i)
    names.push_back(graph.node(i).name().empty()
                        ? graph.node(i).op_type() + "_" + std::to_string(i)
                        : graph.node(i).name());
  return names;
}

LogicalResult ModelImporter::importSignature(const onnx::GraphProto &graph) {
  for (const onnx::TensorProto &t : graph.initializer()) {
    if (initializers.count(t.name()))
      return emitError(fileLoc)
             << "initializer '" << t.name() << "' is defined twice";
    initializers[t.name()] = &t;
    defined[t.name()] = true;
  }
  // Graph inputs that an initializer provides (IR < 4 lists them) are
  // constants, not arguments.
  llvm::StringMap<bool> inputNames;
  for (const onnx::ValueInfoProto &input : graph.input())
    if (!initializers.count(input.name()))
      inputNames[input.name()] = true;
  for (const auto &entry : options.inputShapes) {
    if (inputNames.count(entry.getKey()))
      continue;
    InFlightDiagnostic diag = emitError(fileLoc);
    diag << "--input-shape names '" << entry.getKey()
         << "', which is not a graph input (inputs:";
    for (const onnx::ValueInfoProto &input : graph.input())
      if (inputNames.count(input.name()))
        diag << " " << input.name();
    diag << ")";
    return failure();
  }
  // Every named dimension given must be one an input declares.
  for (const auto &entry : options.namedDims) {
    llvm::SmallVector<std::string> declared;
    bool found = false;
    for (const onnx::ValueInfoProto &input : graph.input()) {
      if (initializers.count(input.name()) ||
          !input.type().tensor_type().has_shape())
        continue;
      for (const auto &dim : input.type().tensor_type().shape().dim())
        if (dim.has_dim_param()) {
          found |= dim.dim_param() == entry.getKey();
          if (!llvm::is_contained(declared, dim.dim_param()))
            declared.push_back(dim.dim_param());
        }
    }
    if (found)
      continue;
    InFlightDiagnostic diag = emitError(fileLoc);
    diag << "no graph input has a dimension named '" << entry.getKey()
         << "' (named dimensions:";
    for (const std::string &name : declared)
      diag << " " << name;
    if (declared.empty())
      diag << " none";
    diag << ")";
    return failure();
  }
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue;
    FailureOr<RankedTensorType> type = getInputType(input);
    if (failed(type))
      return failure();
    inputs.push_back(&input);
    argTypes.push_back(*type);
    defined[input.name()] = true;
  }
  return success();
}

LogicalResult ModelImporter::importInitializers(const ParsedModel &parsed,
                                                GraphImporter &importer) {
  const onnx::GraphProto &graph = parsed.model.graph();
  llvm::StringMap<bool> used;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &in : node.input())
      used[in] = true;
  for (const onnx::ValueInfoProto &out : graph.output())
    used[out.name()] = true;
  for (auto [t, rawData] :
       llvm::zip_equal(graph.initializer(), parsed.initializerBytes)) {
    if (!used.count(t.name()))
      continue;
    // Errors name the tensor themselves; the constant is located at it.
    FailureOr<ElementsAttr> value =
        convertInitializer(t, rawData, parsed.storage, fileLoc, modelDir);
    if (failed(value))
      return failure();
    Location loc = NameLoc::get(StringAttr::get(context, t.name()), fileLoc);
    auto constant = ConstantOp::create(importer.builder, loc, *value);
    importer.evaluate(constant);
    importer.values[t.name()] = constant.getResult();
  }
  return success();
}

LogicalResult ModelImporter::importNodes(const onnx::GraphProto &graph,
                                         ArrayRef<int> order,
                                         ArrayRef<std::string> names,
                                         GraphImporter &importer) {
  const OpImporterTable &table = getOpImporters();
  for (int i : order) {
    const onnx::NodeProto &proto = graph.node(i);
    Location loc = NameLoc::get(StringAttr::get(context, names[i]), fileLoc);
    NodeContext node(importer, proto, loc);
    const OpImporter &op = table.find(proto.op_type())->second;
    if (failed(checkAttributes(node, op)) || failed(op.fn(node)))
      return failure();
  }
  return success();
}

LogicalResult ModelImporter::importOutputs(const onnx::GraphProto &graph,
                                           GraphImporter &importer,
                                           func::FuncOp func) {
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    Value v = importer.values.lookup(out.name());
    if (!v)
      return emitError(fileLoc) << "graph output '" << out.name()
                                << "' is not computed by any node";
    results.push_back(v);
    checkDeclaredType(out, cast<RankedTensorType>(v.getType()));
  }
  func::ReturnOp::create(importer.builder, fileLoc, results);
  func.setFunctionType(
      FunctionType::get(context, argTypes, ValueRange(results).getTypes()));
  return success();
}

OwningOpRef<ModuleOp> ModelImporter::import(const ParsedModel &parsed) {
  const onnx::ModelProto &model = parsed.model;
  context->loadDialect<GOptDialect, func::FuncDialect>();
  if (!model.has_graph()) {
    emitError(fileLoc) << "the model has no graph";
    return {};
  }
  const onnx::GraphProto &graph = model.graph();
  if (failed(checkOpset(model)) || failed(checkOpTypes(graph)) ||
      failed(importSignature(graph)))
    return {};
  std::vector<std::string> names = getNodeNames(graph);
  FailureOr<SmallVector<int>> order = sortNodes(graph, defined, names, fileLoc);
  if (failed(order))
    return {};

  OpBuilder builder(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc, options.functionName,
                                   builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  GraphImporter importer(builder, modelDir);
  for (auto [input, arg] : llvm::zip(inputs, entry->getArguments()))
    importer.values[input->name()] = arg;

  if (failed(importInitializers(parsed, importer)) ||
      failed(importNodes(graph, *order, names, importer)) ||
      failed(importOutputs(graph, importer, func)) ||
      failed(mlir::verify(*module)))
    return {};
  return module;
}

OwningOpRef<ModuleOp> gopt::importONNXModelFromBuffer(
    MLIRContext *context, llvm::StringRef bytes, llvm::StringRef modelDir,
    llvm::StringRef sourceName, const ONNXImportOptions &options) {
  Location fileLoc = FileLineColLoc::get(context, sourceName, 0, 0);
  ParsedModel parsed;
  if (failed(parseModel(bytes, parsed, fileLoc)))
    return {};
  return ModelImporter(context, options, modelDir, sourceName).import(parsed);
}

OwningOpRef<ModuleOp> gopt::importONNXModel(MLIRContext *context,
                                            llvm::StringRef path,
                                            const ONNXImportOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    emitError(FileLineColLoc::get(context, path, 0, 0))
        << "cannot read '" << path << "': " << buffer.getError().message();
    return {};
  }
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  return importONNXModelFromBuffer(context, (*buffer)->getBuffer(), dir,
                                   llvm::sys::path::filename(path), options);
}
