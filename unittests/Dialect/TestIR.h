//===- TestIR.h - Parse gopt IR for unit tests ------------------*- C++ -*-===//

#ifndef GOPT_UNITTESTS_TESTIR_H
#define GOPT_UNITTESTS_TESTIR_H

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

namespace gopt_test {

/// A context with gopt and func loaded, and a parser for inline IR.
struct TestIR {
  TestIR() {
    context.loadDialect<mlir::gopt::GOptDialect, mlir::func::FuncDialect>();
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(llvm::StringRef source) {
    return mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  }

  /// First op of type OpTy in `module`.
  template <typename OpTy>
  static OpTy first(mlir::ModuleOp module) {
    OpTy found;
    module.walk([&](OpTy op) {
      if (!found)
        found = op;
    });
    return found;
  }

  mlir::MLIRContext context;
};

} // namespace gopt_test

#endif // GOPT_UNITTESTS_TESTIR_H
