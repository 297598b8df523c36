//===- ObjectCodeTest.cpp - LLVM-dialect modules before translation -------===//
//
// lib/Runner/ObjectCode.h is private to the runner; what it does to a module
// before translating it is checked here on the IR.
//
//===----------------------------------------------------------------------===//

#include "ObjectCode.h"

#include "GOpt/InitAllDialects.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

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
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(source, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
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

} // namespace
