//===- ONNXImporterTest.cpp - The importONNXModel library API -------------===//
//
// Models are built as onnx::ModelProto in C++, serialized, and imported
// through importONNXModelFromBuffer, so these tests need no Python.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Import/ONNX/ONNXImporter.h"

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include "gtest/gtest.h"

#include <cstring>
#include <functional>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Builds small models node by node.
class ModelBuilder {
public:
  explicit ModelBuilder(int64_t opset = 17) {
    model.set_ir_version(8);
    auto *id = model.add_opset_import();
    id->set_domain("");
    id->set_version(opset);
    graph = model.mutable_graph();
    graph->set_name("g");
  }

  ModelBuilder &input(const std::string &name, std::vector<int64_t> shape,
                      int elem = onnx::TensorProto::FLOAT) {
    setValueInfo(graph->add_input(), name, shape, elem);
    return *this;
  }
  ModelBuilder &output(const std::string &name) {
    graph->add_output()->set_name(name);
    return *this;
  }
  onnx::NodeProto &node(const std::string &op, std::vector<std::string> ins,
                        std::vector<std::string> outs,
                        const std::string &name = "") {
    onnx::NodeProto *n = graph->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? outs.front() : name);
    for (const std::string &in : ins)
      n->add_input(in);
    for (const std::string &out : outs)
      n->add_output(out);
    return *n;
  }
  ModelBuilder &floats(const std::string &name, std::vector<int64_t> dims,
                       std::vector<float> values) {
    onnx::TensorProto *t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims)
      t->add_dims(d);
    for (float v : values)
      t->add_float_data(v);
    return *this;
  }
  ModelBuilder &ints(const std::string &name, std::vector<int64_t> values) {
    onnx::TensorProto *t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(values.size());
    for (int64_t v : values)
      t->add_int64_data(v);
    return *this;
  }
  std::string bytes() const { return model.SerializeAsString(); }

  onnx::ModelProto model;
  onnx::GraphProto *graph;

private:
  static void setValueInfo(onnx::ValueInfoProto *info, const std::string &name,
                           const std::vector<int64_t> &shape, int elem) {
    info->set_name(name);
    auto *tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elem);
    auto *s = tensor->mutable_shape();
    for (int64_t d : shape) {
      if (d < 0)
        s->add_dim()->set_dim_param("N");
      else
        s->add_dim()->set_dim_value(d);
    }
  }
};

void setInt(onnx::NodeProto &n, const std::string &name, int64_t v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void setInts(onnx::NodeProto &n, const std::string &name,
             std::vector<int64_t> v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v)
    a->add_ints(x);
}

/// A context with the importer's dialects that records every error.
class ImportTest : public ::testing::Test {
protected:
  ImportTest() {
    DialectRegistry registry;
    registerONNXImportDialects(registry);
    context.appendDialectRegistry(registry);
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            errors.push_back(diag.str());
          return success();
        });
  }

  OwningOpRef<ModuleOp> import(const ModelBuilder &b,
                               const ONNXImportOptions &options = {},
                               llvm::StringRef modelDir = "") {
    return importONNXModelFromBuffer(&context, b.bytes(), modelDir, "test.onnx",
                                     options);
  }

  std::string print(ModuleOp module) {
    std::string s;
    llvm::raw_string_ostream os(s);
    module.print(os);
    return s;
  }

  MLIRContext context;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  std::vector<std::string> errors;
};

TEST_F(ImportTest, ImportsAGraphAsOneFunction) {
  ModelBuilder b;
  b.input("x", {2, 3}).floats("bias", {3}, {1, 2, 3}).output("y");
  b.node("Add", {"x", "bias"}, {"s"});
  b.node("Relu", {"s"}, {"y"});
  auto module = import(b);
  ASSERT_TRUE(module) << (errors.empty() ? "" : errors.front());
  auto func = module->lookupSymbol<func::FuncOp>("main");
  ASSERT_TRUE(func);
  auto type = RankedTensorType::get({2, 3}, Float32Type::get(&context));
  EXPECT_EQ(func.getFunctionType().getInputs(), ArrayRef<Type>(type));
  EXPECT_EQ(func.getFunctionType().getResults(), ArrayRef<Type>(type));
  int adds = 0, relus = 0;
  func.walk([&](Operation *op) {
    adds += isa<AddOp>(op);
    relus += isa<ReluOp>(op);
  });
  EXPECT_EQ(adds, 1);
  EXPECT_EQ(relus, 1);
  EXPECT_TRUE(errors.empty());
}

TEST_F(ImportTest, WeightsAreResourceBlobsAndNamesAreLocations) {
  ModelBuilder b;
  b.input("x", {2, 2}).floats("w", {2, 2}, {1, 2, 3, 4}).output("y");
  b.node("MatMul", {"x", "w"}, {"y"}, "proj");
  auto module = import(b);
  ASSERT_TRUE(module);
  ConstantOp weight;
  MatmulOp matmul;
  module->walk([&](Operation *op) {
    if (auto c = dyn_cast<ConstantOp>(op))
      weight = c;
    if (auto m = dyn_cast<MatmulOp>(op))
      matmul = m;
  });
  ASSERT_TRUE(weight && matmul);
  EXPECT_TRUE(isa<DenseResourceElementsAttr>(weight.getValue()));
  auto name = dyn_cast<NameLoc>(matmul.getLoc());
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getName().getValue(), "proj");
  auto file = dyn_cast<FileLineColLoc>(name.getChildLoc());
  ASSERT_TRUE(file);
  EXPECT_EQ(file.getFilename().getValue(), "test.onnx");
}

/// The f32 values of the first gopt.constant of `module` that has `n`
/// elements.
std::vector<float> constantFloats(ModuleOp module, int64_t n) {
  std::vector<float> values;
  module->walk([&](ConstantOp c) {
    auto type = cast<RankedTensorType>(c.getType());
    if (!values.empty() || type.getNumElements() != n)
      return;
    ArrayRef<char> raw;
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue()))
      raw = resource.getRawHandle().getBlob()->getData();
    else
      raw = cast<DenseElementsAttr>(c.getValue()).getRawData();
    values.resize(raw.size() / sizeof(float));
    std::memcpy(values.data(), raw.data(), raw.size());
  });
  return values;
}

TEST_F(ImportTest, WeightsKeepTheirValuesInEveryStorage) {
  // The same 24 floats as raw bytes (which the blob takes from the parsed
  // model), as typed float_data, and as external data.
  std::vector<float> want(24);
  for (size_t k = 0; k < want.size(); ++k)
    want[k] = 0.5f * k - 3;
  std::string raw(reinterpret_cast<const char *>(want.data()),
                  want.size() * sizeof(float));
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gopt-import", dir));
  llvm::SmallString<128> bin(dir);
  llvm::sys::path::append(bin, "w.bin");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(bin, ec);
    ASSERT_FALSE(ec);
    os << raw;
  }
  for (int storage : {0, 1, 2}) {
    ModelBuilder b;
    b.input("x", {4, 6}).output("y");
    onnx::TensorProto *w = b.graph->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(4);
    w->add_dims(6);
    if (storage == 0) {
      w->set_raw_data(raw);
    } else if (storage == 1) {
      for (float v : want)
        w->add_float_data(v);
    } else {
      w->set_data_location(onnx::TensorProto::EXTERNAL);
      auto *entry = w->add_external_data();
      entry->set_key("location");
      entry->set_value("w.bin");
    }
    b.node("Add", {"x", "w"}, {"y"});
    auto module = import(b, {}, dir);
    ASSERT_TRUE(module) << storage;
    EXPECT_EQ(constantFloats(*module, 24), want) << storage;
  }
  llvm::sys::fs::remove_directories(dir);
}

/// A float initializer named `name` holding `values` as raw data.
onnx::TensorProto rawFloats(const std::string &name,
                            const std::vector<float> &values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(values.size());
  t.set_raw_data(std::string(reinterpret_cast<const char *>(values.data()),
                             values.size() * sizeof(float)));
  return t;
}

/// A protobuf field of wire type 2 (a message or bytes): tag, length, bytes.
std::string lengthDelimited(int field, const std::string &payload) {
  std::string out;
  auto varint = [&](uint64_t v) {
    for (; v >= 0x80; v >>= 7)
      out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    out.push_back(static_cast<char>(v));
  };
  varint(uint64_t(field) << 3 | 2);
  varint(payload.size());
  return out + payload;
}

TEST_F(ImportTest, RawDataIsCopiedOutAlignedForEveryInitializer) {
  // Odd sizes put each raw data at an odd offset of the file; each blob
  // must hold its own values, aligned for the runner, once the serialized
  // model is gone.
  std::vector<std::vector<float>> want = {{1, 2, 3}, {4, 5, 6, 7, 8}, {}};
  for (int k = 0; k < 37; ++k)
    want[2].push_back(0.25f * k);
  ModelBuilder b;
  b.input("x", {3}).output("y").output("z").output("t");
  *b.graph->add_initializer() = rawFloats("a", want[0]);
  *b.graph->add_initializer() = rawFloats("b", want[1]);
  *b.graph->add_initializer() = rawFloats("c", want[2]);
  b.node("Add", {"x", "a"}, {"y"});
  b.node("Neg", {"b"}, {"z"});
  b.node("Neg", {"c"}, {"t"});
  std::string bytes = b.bytes();
  auto module = importONNXModelFromBuffer(&context, bytes, "", "test.onnx", {});
  std::fill(bytes.begin(), bytes.end(), '\0');
  ASSERT_TRUE(module) << (errors.empty() ? "" : errors.front());
  for (const std::vector<float> &values : want)
    EXPECT_EQ(constantFloats(*module, values.size()), values);
  module->walk([&](ConstantOp c) {
    auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue());
    ASSERT_TRUE(resource);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(
                  resource.getRawHandle().getBlob()->getData().data()) %
                  64,
              0u);
  });
}

TEST_F(ImportTest, SplitGraphsAndRepeatedRawDataParseAsProtobufDoes) {
  // Protobuf merges a message field given twice (the graph here) and keeps
  // the last of a bytes field given twice (the raw data): the importer's
  // own walk over the wire format must read the model the same way.
  ModelBuilder b;
  b.input("x", {2}).output("y");
  b.node("Add", {"x", "w"}, {"y"});
  std::string tensor = rawFloats("w", {9, 9}).SerializeAsString() +
                       lengthDelimited(onnx::TensorProto::kRawDataFieldNumber,
                                       rawFloats("", {1, 2}).raw_data());
  std::string bytes =
      b.bytes() +
      lengthDelimited(
          onnx::ModelProto::kGraphFieldNumber,
          lengthDelimited(onnx::GraphProto::kInitializerFieldNumber, tensor));
  onnx::ModelProto reference;
  ASSERT_TRUE(reference.ParseFromString(bytes));
  ASSERT_EQ(reference.graph().initializer_size(), 1);
  auto module = importONNXModelFromBuffer(&context, bytes, "", "test.onnx", {});
  ASSERT_TRUE(module) << (errors.empty() ? "" : errors.front());
  EXPECT_EQ(constantFloats(*module, 2), (std::vector<float>{1, 2}));
}

TEST_F(ImportTest, TruncatedWeightsFailWithOneDiagnostic) {
  ModelBuilder b;
  b.input("x", {64}).output("y");
  *b.graph->add_initializer() = rawFloats("w", std::vector<float>(64, 1));
  b.node("Add", {"x", "w"}, {"y"});
  std::string bytes = b.bytes();
  for (size_t cut : {size_t(1), size_t(100), bytes.size() / 2}) {
    errors.clear();
    EXPECT_FALSE(importONNXModelFromBuffer(
        &context, llvm::StringRef(bytes).drop_back(cut), "", "cut.onnx", {}));
    ASSERT_EQ(errors.size(), 1u) << cut;
    EXPECT_NE(errors[0].find("could not be parsed"), std::string::npos);
  }
}

TEST_F(ImportTest, SanitizedBlobNamesStayDistinct) {
  ModelBuilder b;
  b.input("x", {2}).floats("w:1", {2}, {1, 2}).floats("w_1", {2}, {3, 4});
  b.output("y");
  b.node("Add", {"x", "w:1"}, {"a"});
  b.node("Add", {"a", "w_1"}, {"y"});
  auto module = import(b);
  ASSERT_TRUE(module);
  SmallVector<std::string> keys;
  module->walk([&](ConstantOp c) {
    keys.push_back(cast<DenseResourceElementsAttr>(c.getValue())
                       .getRawHandle()
                       .getKey()
                       .str());
  });
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_NE(keys[0], keys[1]);
}

TEST_F(ImportTest, ShapeChainGivesStaticTypes) {
  ModelBuilder b;
  b.input("x", {2, 3, 4}).ints("zero", {0}).ints("minus1", {-1}).output("y");
  b.node("Shape", {"x"}, {"s"});
  setInt(b.node("Gather", {"s", "zero"}, {"batch"}), "axis", 0);
  setInt(b.node("Concat", {"batch", "minus1"}, {"target"}), "axis", 0);
  b.node("Reshape", {"x", "target"}, {"y"});
  auto module = import(b);
  ASSERT_TRUE(module) << (errors.empty() ? "" : errors.front());
  auto func = module->lookupSymbol<func::FuncOp>("main");
  EXPECT_EQ(func.getFunctionType().getResult(0),
            RankedTensorType::get({2, 12}, Float32Type::get(&context)));
  // The chain is still there for gopt-fold to remove.
  int shapes = 0;
  func.walk([&](ShapeOp) { ++shapes; });
  EXPECT_EQ(shapes, 1);
}

TEST_F(ImportTest, InputShapeOverrides) {
  ONNXImportOptions options;
  std::string error;
  EXPECT_TRUE(parseInputShapeOverride("x=4x8", options, error));
  EXPECT_EQ(options.inputShapes["x"], (SmallVector<int64_t>{4, 8}));
  EXPECT_TRUE(parseInputShapeOverride("a=b=1x2", options, error));
  EXPECT_EQ(options.inputShapes["a=b"], (SmallVector<int64_t>{1, 2}));
  EXPECT_FALSE(parseInputShapeOverride("x4x8", options, error));
  EXPECT_FALSE(parseInputShapeOverride("x=", options, error));
  EXPECT_FALSE(parseInputShapeOverride("x=4xx8", options, error));
  EXPECT_FALSE(parseInputShapeOverride("x=-1x8", options, error));
  EXPECT_NE(error.find("-1"), std::string::npos);

  ModelBuilder b;
  b.input("x", {-1, 8}).output("y");
  b.node("Relu", {"x"}, {"y"});
  EXPECT_FALSE(import(b));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("dynamic dimension 0 ('N')"), std::string::npos);
  errors.clear();
  ONNXImportOptions fixed;
  fixed.inputShapes["x"] = {3, 8};
  fixed.functionName = "forward";
  auto module = import(b, fixed);
  ASSERT_TRUE(module);
  auto func = module->lookupSymbol<func::FuncOp>("forward");
  ASSERT_TRUE(func);
  EXPECT_EQ(cast<RankedTensorType>(func.getArgumentTypes()[0]).getShape(),
            (ArrayRef<int64_t>{3, 8}));
}

TEST_F(ImportTest, MalformedBytesFailWithOneDiagnostic) {
  OwningOpRef<ModuleOp> module = importONNXModelFromBuffer(
      &context, "\x0a\xff\xff\xff\xff\x0f garbage", "", "bad.onnx");
  EXPECT_FALSE(module);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("could not be parsed"), std::string::npos);
}

TEST_F(ImportTest, UnsupportedOpsAreListedInOneError) {
  ModelBuilder b;
  b.input("x", {4}).output("z");
  b.node("RoiAlign", {"x"}, {"a"});
  b.node("RoiAlign", {"a"}, {"b"});
  b.node("Loop", {"b"}, {"z"});
  EXPECT_FALSE(import(b));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("2 unsupported ONNX op types: Loop (1 node), "
                           "RoiAlign (2 nodes)"),
            std::string::npos)
      << errors[0];
}

TEST_F(ImportTest, ExternalDataNeedsAModelFolder) {
  ModelBuilder b;
  b.input("x", {2}).output("y");
  onnx::TensorProto *w = b.graph->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(2);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto *entry = w->add_external_data();
  entry->set_key("location");
  entry->set_value("w.bin");
  b.node("Add", {"x", "w"}, {"y"});
  EXPECT_FALSE(import(b));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("import it by path"), std::string::npos);
}

TEST_F(ImportTest, WrongOpsetIsRejected) {
  ModelBuilder b(/*opset=*/18);
  b.input("x", {2}).output("y");
  b.node("Relu", {"x"}, {"y"});
  EXPECT_FALSE(import(b));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("opset 18 is not supported"), std::string::npos);
}

/// Malformed nodes: each must fail with a diagnostic, never crash.
struct BadNode {
  const char *what;
  std::function<void(ModelBuilder &)> build;
  const char *expected;
};

class BadNodeTest : public ImportTest,
                    public ::testing::WithParamInterface<BadNode> {};

TEST_P(BadNodeTest, FailsWithADiagnostic) {
  ModelBuilder b;
  b.input("x", {2, 3}).output("y");
  GetParam().build(b);
  EXPECT_FALSE(import(b)) << GetParam().what;
  ASSERT_FALSE(errors.empty()) << GetParam().what;
  EXPECT_NE(errors.front().find(GetParam().expected), std::string::npos)
      << GetParam().what << ": " << errors.front();
}

INSTANTIATE_TEST_SUITE_P(
    ONNXImport, BadNodeTest,
    ::testing::Values(
        BadNode{"missing input",
                [](ModelBuilder &b) { b.node("Add", {"x"}, {"y"}); },
                "missing input 1"},
        BadNode{"conv on rank 2",
                [](ModelBuilder &b) {
                  b.floats("w", {1, 1, 1, 1}, {1});
                  b.node("Conv", {"x", "w"}, {"y"});
                },
                "only 1-D, 2-D and 3-D convolution"},
        BadNode{"float gather indices",
                [](ModelBuilder &b) {
                  b.floats("i", {1}, {0});
                  b.node("Gather", {"x", "i"}, {"y"});
                },
                "'gopt.gather' op operand #1 must be"},
        BadNode{"two -1 in reshape",
                [](ModelBuilder &b) {
                  b.ints("s", {-1, -1});
                  b.node("Reshape", {"x", "s"}, {"y"});
                },
                "more than one -1"},
        BadNode{"reshape to more elements than int64 holds",
                [](ModelBuilder &b) {
                  b.ints("s", {int64_t(1) << 40, int64_t(1) << 40});
                  b.node("Reshape", {"x", "s"}, {"y"});
                },
                "has too many elements"},
        BadNode{"reshape to a wrong element count",
                [](ModelBuilder &b) {
                  b.ints("s", {4, 2});
                  b.node("Reshape", {"x", "s"}, {"y"});
                },
                "reshape"},
        BadNode{"split sizes that do not add up",
                [](ModelBuilder &b) {
                  b.ints("s", {1, 1});
                  setInt(b.node("Split", {"x", "s"}, {"y", "z"}), "axis", 1);
                },
                "split"},
        BadNode{"concat of different ranks",
                [](ModelBuilder &b) {
                  b.floats("c", {3}, {1, 2, 3});
                  setInt(b.node("Concat", {"x", "c"}, {"y"}), "axis", 0);
                },
                "expected rank 2"},
        BadNode{"transpose with a bad perm",
                [](ModelBuilder &b) {
                  setInts(b.node("Transpose", {"x"}, {"y"}), "perm", {0, 0});
                },
                "perm"},
        BadNode{"squeeze of a dim that is not 1",
                [](ModelBuilder &b) {
                  b.ints("a", {1});
                  b.node("Squeeze", {"x", "a"}, {"y"});
                },
                "cannot squeeze axis 1 of size 3"},
        BadNode{"unsqueeze with a repeated axis",
                [](ModelBuilder &b) {
                  b.ints("a", {0, 0});
                  b.node("Unsqueeze", {"x", "a"}, {"y"});
                },
                "repeated"},
        BadNode{"slice bounds of different lengths",
                [](ModelBuilder &b) {
                  b.ints("s", {0, 0});
                  b.ints("e", {1});
                  b.node("Slice", {"x", "s", "e"}, {"y"});
                },
                "differ in length"},
        BadNode{"cast to string",
                [](ModelBuilder &b) {
                  setInt(b.node("Cast", {"x"}, {"y"}), "to",
                         onnx::TensorProto::STRING);
                },
                "unsupported element type STRING"},
        BadNode{"softmax axis out of range",
                [](ModelBuilder &b) {
                  setInt(b.node("Softmax", {"x"}, {"y"}), "axis", 5);
                },
                "out of range"},
        BadNode{"attribute of the wrong type",
                [](ModelBuilder &b) {
                  setInts(b.node("Softmax", {"x"}, {"y"}), "axis", {1});
                },
                "attribute 'axis' must be INT, not INTS"},
        BadNode{"layer norm scale of the wrong shape",
                [](ModelBuilder &b) {
                  b.floats("g", {2}, {1, 1});
                  b.node("LayerNormalization", {"x", "g"}, {"y"});
                },
                "does not broadcast to the normalized shape"},
        BadNode{"an optional output gopt does not compute",
                [](ModelBuilder &b) {
                  b.floats("g", {3}, {1, 1, 1});
                  b.node("LayerNormalization", {"x", "g"}, {"y", "mean"});
                },
                "output 1 ('mean') is not supported"},
        BadNode{"a value produced twice",
                [](ModelBuilder &b) {
                  b.node("Relu", {"x"}, {"y"}, "first");
                  b.node("Exp", {"x"}, {"y"}, "second");
                },
                "produced by both node 'first' and node 'second'"},
        BadNode{"sqrt of an integer tensor",
                [](ModelBuilder &b) {
                  setInt(b.node("Cast", {"x"}, {"i"}), "to",
                         onnx::TensorProto::INT32);
                  b.node("Sqrt", {"i"}, {"y"});
                },
                "gopt.sqrt"},
        BadNode{"raw data of the wrong size",
                [](ModelBuilder &b) {
                  onnx::TensorProto *t = b.graph->add_initializer();
                  t->set_name("w");
                  t->set_data_type(onnx::TensorProto::FLOAT);
                  t->add_dims(3);
                  t->set_raw_data("12345");
                  b.node("Add", {"x", "w"}, {"y"});
                },
                "holds 5 bytes of data, expected 12"},
        BadNode{"an unsupported initializer type",
                [](ModelBuilder &b) {
                  onnx::TensorProto *t = b.graph->add_initializer();
                  t->set_name("w");
                  t->set_data_type(onnx::TensorProto::UINT8);
                  t->add_dims(1);
                  t->set_raw_data("1");
                  b.node("Add", {"x", "w"}, {"y"});
                },
                "unsupported element type UINT8"},
        BadNode{"reflect pads as wide as the axis",
                [](ModelBuilder &b) {
                  b.ints("p", {0, 3, 0, 0});
                  onnx::NodeProto &n = b.node("Pad", {"x", "p"}, {"y"});
                  auto *a = n.add_attribute();
                  a->set_name("mode");
                  a->set_type(onnx::AttributeProto::STRING);
                  a->set_s("reflect");
                },
                "reflect pads of axis 1 (3, 0) must be smaller than its size "
                "3"},
        BadNode{"expand to a negative dim",
                [](ModelBuilder &b) {
                  b.ints("s", {-2, 1, 3});
                  b.node("Expand", {"x", "s"}, {"y"});
                },
                "result shape [-2, 2, 3] has a negative dim"},
        BadNode{"tile past int64's element count",
                [](ModelBuilder &b) {
                  b.ints("r", {int64_t(1) << 40, int64_t(1) << 40});
                  b.node("Tile", {"x", "r"}, {"y"});
                },
                "has more elements than int64 holds"},
        BadNode{"one-hot of a huge depth",
                [](ModelBuilder &b) {
                  b.ints("i", {0, 1});
                  b.ints("depth", {int64_t(1) << 62});
                  b.floats("values", {2}, {0, 1});
                  b.node("OneHot", {"i", "depth", "values"}, {"y"});
                },
                "the positions along the axis would have 4611686018427387904 "
                "elements; GOpt builds such tables of at most 16777216"},
        BadNode{"tile repeats of the wrong rank",
                [](ModelBuilder &b) {
                  b.ints("r", {2});
                  b.node("Tile", {"x", "r"}, {"y"});
                },
                "repeats has 1 entries, expected 2"},
        BadNode{"depth to space on rank 2",
                [](ModelBuilder &b) {
                  onnx::NodeProto &n = b.node("DepthToSpace", {"x"}, {"y"});
                  auto *a = n.add_attribute();
                  a->set_name("blocksize");
                  a->set_type(onnx::AttributeProto::INT);
                  a->set_i(2);
                },
                "the input must be 4-D [N, C, H, W], got rank 2"},
        BadNode{"pad in wrap mode",
                [](ModelBuilder &b) {
                  b.ints("p", {0, 1, 0, 1});
                  onnx::NodeProto &n = b.node("Pad", {"x", "p"}, {"y"});
                  auto *a = n.add_attribute();
                  a->set_name("mode");
                  a->set_type(onnx::AttributeProto::STRING);
                  a->set_s("wrap");
                },
                "mode 'wrap' is not supported (constant, edge and reflect "
                "are)"},
        BadNode{"an initializer defined twice",
                [](ModelBuilder &b) {
                  b.floats("w", {3}, {1, 2, 3}).floats("w", {3}, {4, 5, 6});
                  b.node("Add", {"x", "w"}, {"y"});
                },
                "initializer 'w' is defined twice"},
        BadNode{"graph output nobody computes",
                [](ModelBuilder &b) { b.node("Relu", {"x"}, {"z"}); },
                "graph output 'y' is not computed by any node"}));

} // namespace
