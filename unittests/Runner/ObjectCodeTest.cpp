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

} // namespace
