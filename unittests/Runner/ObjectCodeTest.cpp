//===- ObjectCodeTest.cpp - LLVM-dialect modules before translation -------===//
//
// lib/Runner/ObjectCode.h is private to the runner; what it does to a module
// before translating it is checked here on the IR.
//
//===----------------------------------------------------------------------===//

#include "ObjectCode.h"

#include "GOpt/InitAllDialects.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

/// `source` parsed as LLVM IR in `context`; null (and a test failure) when
/// it does not parse.
std::unique_ptr<llvm::Module> parseIR(llvm::StringRef source,
                                      llvm::LLVMContext &context) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(source, error, context);
  if (!module)
    ADD_FAILURE() << error.getMessage().str();
  return module;
}

/// The names of the functions `part` defines, sorted.
std::vector<std::string> definedFunctions(const llvm::Module &part) {
  std::vector<std::string> names;
  for (const llvm::Function &f : part)
    if (!f.isDeclaration())
      names.push_back(f.getName().str());
  llvm::sort(names);
  return names;
}

/// Attributes of other dialects leave the host functions' arguments and
/// results (what the C interface copies of `gopt.weight`); LLVM's stay, and
/// a function inside a nested module keeps all of its own.
TEST(ObjectCode, ForeignArgumentAttributesAreDropped) {
  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  MLIRContext context(registry);
  context.allowUnregisteredDialects();
  const char *source = R"mlir(
    llvm.func @entry(%a: !llvm.ptr {gopt.weight, llvm.noalias},
                     %b: !llvm.ptr {gopt.weight}) -> (i64 {other.mark}) {
      %c = llvm.mlir.constant(0 : i64) : i64
      llvm.return %c : i64
    }
    llvm.func @plain(%a: !llvm.ptr) {
      llvm.return
    }
    module @nested {
      llvm.func @device(%a: !llvm.ptr {other.mark}) {
        llvm.return
      }
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  gopt::dropForeignArgumentAttributes(*module);

  auto entry = module->lookupSymbol<LLVM::LLVMFuncOp>("entry");
  ASSERT_TRUE(entry);
  DictionaryAttr first = entry.getArgAttrDict(0);
  ASSERT_TRUE(first);
  EXPECT_EQ(first.size(), 1u);
  EXPECT_TRUE(first.get("llvm.noalias"));
  EXPECT_TRUE(!entry.getArgAttrDict(1) || entry.getArgAttrDict(1).empty());
  EXPECT_FALSE(entry.getResAttrsAttr());

  auto plain = module->lookupSymbol<LLVM::LLVMFuncOp>("plain");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain.getArgAttrsAttr());

  ModuleOp nested;
  module->walk([&](ModuleOp m) {
    if (m.getSymName() == "nested")
      nested = m;
  });
  ASSERT_TRUE(nested);
  auto device = nested.lookupSymbol<LLVM::LLVMFuncOp>("device");
  ASSERT_TRUE(device && device.getArgAttrDict(0));
  EXPECT_TRUE(device.getArgAttrDict(0).get("other.mark"));
}

/// A kernel reads one field of the descriptor it is passed; after
/// dropUnusedArguments it takes that field alone, and is internal. The
/// exported entry keeps its name, linkage and signature, and a function
/// whose address escapes keeps its arguments.
TEST(ObjectCode, UnreadArgumentsAreDropped) {
  const char *source = R"ll(
    declare void @runtime_parallel_for(ptr, i64)

    define void @kernel(ptr %allocated, ptr %aligned, i64 %offset,
                        i64 %size, i64 %stride) {
      %d0 = insertvalue { ptr, ptr, i64, i64, i64 } poison, ptr %allocated, 0
      %d1 = insertvalue { ptr, ptr, i64, i64, i64 } %d0, ptr %aligned, 1
      %d2 = insertvalue { ptr, ptr, i64, i64, i64 } %d1, i64 %offset, 2
      %d3 = insertvalue { ptr, ptr, i64, i64, i64 } %d2, i64 %size, 3
      %d4 = insertvalue { ptr, ptr, i64, i64, i64 } %d3, i64 %stride, 4
      %p = extractvalue { ptr, ptr, i64, i64, i64 } %d4, 1
      store float 1.0, ptr %p
      ret void
    }

    define void @body(ptr %data, i64 %unused) {
      store float 2.0, ptr %data
      ret void
    }

    define void @entry(ptr %buffer, i64 %unusedByEntry) {
      call void @kernel(ptr %buffer, ptr %buffer, i64 0, i64 4, i64 1)
      call void @runtime_parallel_for(ptr @body, i64 4)
      ret void
    }
  )ll";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parseIR(source, context);
  ASSERT_TRUE(module);
  gopt::dropUnusedArguments(*module, {"entry"});

  llvm::Function *entry = module->getFunction("entry");
  ASSERT_TRUE(entry);
  EXPECT_TRUE(entry->hasExternalLinkage());
  EXPECT_EQ(entry->arg_size(), 2u);

  llvm::Function *kernel = module->getFunction("kernel");
  ASSERT_TRUE(kernel);
  EXPECT_TRUE(kernel->hasLocalLinkage());
  ASSERT_EQ(kernel->arg_size(), 1u);
  EXPECT_TRUE(kernel->getArg(0)->getType()->isPointerTy());
  // The call passes what the kernel reads: the aligned pointer.
  ASSERT_EQ(kernel->getNumUses(), 1u);
  auto *call = llvm::cast<llvm::CallBase>(kernel->user_back());
  EXPECT_EQ(call->arg_size(), 1u);
  EXPECT_EQ(call->getArgOperand(0), entry->getArg(0));

  llvm::Function *body = module->getFunction("body");
  ASSERT_TRUE(body);
  EXPECT_TRUE(body->hasLocalLinkage());
  EXPECT_EQ(body->arg_size(), 2u);
}

/// A vector op counts once per 512 bits it spans; every function pays a
/// fixed cost besides.
TEST(ObjectCode, CompileCostCountsVectorPieces) {
  const char *source = R"ll(
    define void @scalar(ptr %p) {
      %x = load float, ptr %p
      %y = fadd float %x, %x
      store float %y, ptr %p
      ret void
    }
    define void @wide(ptr %p) {
      %x = load <240 x float>, ptr %p
      %y = fadd <240 x float> %x, %x
      store <240 x float> %y, ptr %p
      ret void
    }
  )ll";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parseIR(source, context);
  ASSERT_TRUE(module);
  uint64_t scalar = gopt::estimateCompileCost(*module->getFunction("scalar"));
  uint64_t wide = gopt::estimateCompileCost(*module->getFunction("wide"));
  // Four instructions each; the wide one's three vector ops are 15 pieces
  // each (7680 bits).
  EXPECT_EQ(wide - scalar, 3u * 15u - 3u);
}

/// The parts define every function once between them, each declares what
/// it calls from another, and the costs are balanced: the one large
/// function is alone in its part, the small ones share the other.
TEST(ObjectCode, SplitBalancesCompileCost) {
  std::string source = R"ll(
    @table = internal constant [4 x float] [float 1.0, float 2.0,
                                            float 3.0, float 4.0]
    define internal void @large(ptr %p) {
      %x = load <1024 x float>, ptr %p
      %y = fadd <1024 x float> %x, %x
      %z = fmul <1024 x float> %y, %x
      store <1024 x float> %z, ptr %p
      ret void
    }
  )ll";
  for (int i = 0; i < 6; ++i)
    source += "define internal void @small" + std::to_string(i) +
              "(ptr %p) {\n"
              "  %x = load float, ptr @table\n"
              "  store float %x, ptr %p\n"
              "  ret void\n"
              "}\n";
  source += R"ll(
    define void @entry(ptr %p) {
      call void @large(ptr %p)
      call void @small0(ptr %p)
      call void @small1(ptr %p)
      call void @small2(ptr %p)
      call void @small3(ptr %p)
      call void @small4(ptr %p)
      call void @small5(ptr %p)
      ret void
    }
  )ll";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parseIR(source, context);
  ASSERT_TRUE(module);
  std::vector<gopt::ModulePart> parts = gopt::splitModuleBalanced(*module, 2);
  ASSERT_EQ(parts.size(), 2u);

  // The costliest part first: the large function, alone.
  EXPECT_EQ(definedFunctions(*parts[0].module),
            std::vector<std::string>{"large"});
  std::vector<std::string> rest = definedFunctions(*parts[1].module);
  EXPECT_EQ(rest.size(), 7u);
  EXPECT_TRUE(llvm::is_contained(rest, "entry"));
  // What the other part defines is declared here, external and hidden, so
  // that the parts link.
  llvm::Function *large = parts[1].module->getFunction("large");
  ASSERT_TRUE(large);
  EXPECT_TRUE(large->isDeclaration());
  EXPECT_TRUE(large->hasExternalLinkage());
  EXPECT_TRUE(large->hasHiddenVisibility());
  // The table goes with the functions that read it, and keeps its value.
  llvm::GlobalVariable *table = parts[1].module->getNamedGlobal("table");
  ASSERT_TRUE(table);
  EXPECT_TRUE(table->hasInitializer());
  llvm::GlobalVariable *elsewhere = parts[0].module->getNamedGlobal("table");
  EXPECT_TRUE(!elsewhere || !elsewhere->hasInitializer());
  // The entry keeps its visibility.
  EXPECT_FALSE(parts[1].module->getFunction("entry")->hasHiddenVisibility());
}

/// Glue (isGlueFunction) is code without a loop that computes nothing on
/// floats or vectors: it may move them (a library call's float argument,
/// a descriptor stored for the parallel driver).
TEST(ObjectCode, GlueIsLoopFreeCodeThatComputesNothing) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parseIR(R"ll(
    declare void @library(ptr, float)
    declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>,
                                        <4 x float>)
    define void @wrapper(ptr %p, i64 %n) {
      %slot = alloca { ptr, i64, <4 x float> }
      store { ptr, i64, <4 x float> } poison, ptr %slot
      %at = getelementptr float, ptr %p, i64 %n
      %x = load float, ptr %at
      store float 0.0, ptr %p
      call void @library(ptr %slot, float %x)
      ret void
    }
    define void @counts(ptr %p) {
    entry:
      br label %loop
    loop:
      %i = phi i64 [ 0, %entry ], [ %next, %loop ]
      call void @library(ptr %p, float 1.0)
      %next = add i64 %i, 1
      %done = icmp eq i64 %next, 4
      br i1 %done, label %exit, label %loop
    exit:
      ret void
    }
    define void @adds(ptr %p) {
      %x = load float, ptr %p
      %y = fadd float %x, 1.0
      store float %y, ptr %p
      ret void
    }
    define void @fuses(ptr %p) {
      %x = load <4 x float>, ptr %p
      %y = call <4 x float> @llvm.fma.v4f32(<4 x float> %x, <4 x float> %x,
                                            <4 x float> %x)
      store <4 x float> %y, ptr %p
      ret void
    }
  )ll",
                                                 context);
  ASSERT_TRUE(module);
  EXPECT_TRUE(gopt::isGlueFunction(*module->getFunction("wrapper")));
  EXPECT_FALSE(gopt::isGlueFunction(*module->getFunction("counts")));
  EXPECT_FALSE(gopt::isGlueFunction(*module->getFunction("adds")));
  EXPECT_FALSE(gopt::isGlueFunction(*module->getFunction("fuses")));
  EXPECT_FALSE(gopt::isGlueFunction(*module->getFunction("library")));
}

/// With glue parts, glue goes to them and the rest to the other parts;
/// each part says which kind it is, and a table both kinds use goes with
/// the kernel that reads it. A module of glue alone can be split into glue
/// parts only.
TEST(ObjectCode, GlueGoesToPartsOfItsOwn) {
  std::string source = R"ll(
    @table = internal constant <16 x float> splat (float 2.0)
    declare void @library(ptr)
    define void @entry(ptr %p) {
      call void @library(ptr @table)
      call void @kernel(ptr %p)
      call void @wrapper(ptr %p)
      ret void
    }
    define internal void @kernel(ptr %p) {
      %x = load <16 x float>, ptr %p
      %t = load <16 x float>, ptr @table
      %y = fmul <16 x float> %x, %t
      store <16 x float> %y, ptr %p
      ret void
    }
    define internal void @wrapper(ptr %p) {
      call void @library(ptr %p)
      ret void
    }
  )ll";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parseIR(source, context);
  ASSERT_TRUE(module);
  std::vector<gopt::ModulePart> parts =
      gopt::splitModuleBalanced(*module, 1, 1);
  ASSERT_EQ(parts.size(), 2u);
  for (const gopt::ModulePart &part : parts) {
    llvm::GlobalVariable *table = part.module->getNamedGlobal("table");
    ASSERT_TRUE(table);
    if (part.glue) {
      EXPECT_EQ(definedFunctions(*part.module),
                (std::vector<std::string>{"entry", "wrapper"}));
      EXPECT_FALSE(table->hasInitializer());
    } else {
      EXPECT_EQ(definedFunctions(*part.module),
                std::vector<std::string>{"kernel"});
      EXPECT_TRUE(table->hasInitializer());
    }
  }
  EXPECT_NE(parts[0].glue, parts[1].glue);

  // Without glue parts, nothing is glue.
  module = parseIR(source, context);
  ASSERT_TRUE(module);
  parts = gopt::splitModuleBalanced(*module, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_FALSE(parts[0].glue || parts[1].glue);

  module = parseIR(R"ll(
    declare void @library(ptr)
    define void @entry(ptr %p) {
      call void @library(ptr %p)
      ret void
    }
  )ll",
                   context);
  ASSERT_TRUE(module);
  parts = gopt::splitModuleBalanced(*module, 0, 1);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(parts[0].glue);
  EXPECT_EQ(definedFunctions(*parts[0].module),
            std::vector<std::string>{"entry"});
}

/// A module of `glue` wrappers, each making `calls` library calls of 20
/// arguments, and `compute` kernels, each a vector multiply.
std::string glueAndComputeModule(int glue, int calls, int compute) {
  std::string types, args;
  for (int i = 0; i < 20; ++i) {
    types += std::string(i ? ", " : "") + "i64";
    args += std::string(i ? ", " : "") + "i64 " + std::to_string(i);
  }
  std::string source = "declare void @library(" + types + ")\n";
  for (int g = 0; g < glue; ++g) {
    source += "define void @wrapper" + std::to_string(g) + "() {\n";
    for (int c = 0; c < calls; ++c)
      source += "  call void @library(" + args + ")\n";
    source += "  ret void\n}\n";
  }
  for (int k = 0; k < compute; ++k)
    source += "define void @kernel" + std::to_string(k) +
              R"ll((ptr %p) {
      %x = load <64 x float>, ptr %p
      %y = fmul <64 x float> %x, %x
      store <64 x float> %y, ptr %p
      ret void
    }
    )ll";
  return source;
}

/// Glue gets parts of its own on top of the kernels' when compiling it
/// fast saves a part's fixed cost: the kernels keep the parts they would
/// have alone (here one per thread). A little glue stays with the
/// kernels; a module of glue alone is all glue parts.
TEST(ObjectCode, GluePartsComeOnTopOfTheKernelsParts) {
  llvm::LLVMContext context;
  auto plan = [&](int glue, int calls, int compute, unsigned threads) {
    std::unique_ptr<llvm::Module> module =
        parseIR(glueAndComputeModule(glue, calls, compute), context);
    EXPECT_TRUE(module);
    return module ? gopt::planPartitions(*module, threads)
                  : gopt::PartitionPlan{};
  };
  gopt::PartitionPlan much = plan(/*glue=*/20, /*calls=*/10, 8, 2);
  EXPECT_EQ(much.compute, 2u);
  EXPECT_GE(much.glue, 1u);

  gopt::PartitionPlan little = plan(/*glue=*/2, /*calls=*/1, 8, 2);
  EXPECT_EQ(little.compute, 2u);
  EXPECT_EQ(little.glue, 0u);

  gopt::PartitionPlan oneThread = plan(20, 10, 8, 1);
  EXPECT_EQ(oneThread.compute, 1u);
  EXPECT_EQ(oneThread.glue, 1u);

  gopt::PartitionPlan glueOnly = plan(20, 10, 0, 2);
  EXPECT_EQ(glueOnly.compute, 0u);
  EXPECT_GE(glueOnly.glue, 1u);
}

} // namespace

/// Counts the phi nodes of `function` (a loop left rolled keeps its index's).
unsigned countPhis(const llvm::Function &function) {
  unsigned phis = 0;
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &inst : block)
      phis += llvm::isa<llvm::PHINode>(inst);
  return phis;
}

/// A function `name` whose loop doubles four elements of `type` from %a
/// into %b: it carries only its index.
std::string doublingLoop(const std::string &name, const std::string &type) {
  return "define void @" + name + R"ll((ptr %a, ptr %b) {
    entry:
      br label %loop
    loop:
      %i = phi i64 [ 0, %entry ], [ %next, %loop ]
      %src = getelementptr )ll" +
         type + R"ll(, ptr %a, i64 %i
      %dst = getelementptr )ll" +
         type + R"ll(, ptr %b, i64 %i
      %x = load )ll" +
         type + R"ll(, ptr %src
      %y = fadd )ll" +
         type + R"ll( %x, %x
      store )ll" +
         type + R"ll( %y, ptr %dst
      %next = add i64 %i, 1
      %done = icmp eq i64 %next, 4
      br i1 %done, label %exit, label %loop
    exit:
      ret void
    }
  )ll";
}

/// A loop that streams vectors (an elementwise kernel's) stays a loop at
/// O3; one that accumulates (a reduction's) and one that stores scalars are
/// left to LLVM, which unrolls all three when nothing is marked.
TEST(ObjectCode, StreamingLoopsStayRolled) {
  std::string source = doublingLoop("stream", "<16 x float>") +
                       doublingLoop("scalar", "float") + R"ll(
    define void @reduce(ptr %a, ptr %b) {
    entry:
      br label %loop
    loop:
      %i = phi i64 [ 0, %entry ], [ %next, %loop ]
      %sum = phi <16 x float> [ zeroinitializer, %entry ], [ %add, %loop ]
      %src = getelementptr <16 x float>, ptr %a, i64 %i
      %x = load <16 x float>, ptr %src
      %add = fadd <16 x float> %sum, %x
      store <16 x float> %add, ptr %b
      %next = add i64 %i, 1
      %done = icmp eq i64 %next, 4
      br i1 %done, label %exit, label %loop
    exit:
      ret void
    }
  )ll";
  for (bool mark : {false, true}) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = parseIR(source, context);
    ASSERT_TRUE(module);
    if (mark)
      EXPECT_EQ(gopt::keepStreamingLoopsRolled(*module), 1u);
    ASSERT_FALSE(bool(makeOptimizingTransformer(3, 0, nullptr)(module.get())));
    EXPECT_EQ(countPhis(*module->getFunction("stream")), mark ? 1u : 0u);
    EXPECT_EQ(countPhis(*module->getFunction("reduce")), 0u) << mark;
    EXPECT_EQ(countPhis(*module->getFunction("scalar")), 0u) << mark;
  }
}
