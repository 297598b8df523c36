//===- EvaluatorReference.h - A graph's outputs without lowering -*- C++ -*-===//
//
// The differential tester's independent reference: a graph evaluated op by
// op by the constant evaluator (GOpt/Dialect/GOpt/IR/ConstantEvaluator.h),
// in double with each op's result rounded to its element type. It shares no
// code with the lowering, so a lowering bug that every configuration shares
// still shows against it.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_TESTING_EVALUATORREFERENCE_H
#define GOPT_TESTING_EVALUATORREFERENCE_H

#include "GOpt/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace mlir {
namespace gopt {

/// The results of function `entry` of `module` on `inputs`, computed by the
/// constant evaluator alone; a `gopt.fusion` is computed through the ops it
/// groups. An error names the first op it cannot compute (an op it has no
/// kernel for, a call) or an input that does not match the signature.
llvm::Expected<std::vector<HostTensor>>
evaluateWithConstantEvaluator(ModuleOp module, llvm::StringRef entry,
                              llvm::ArrayRef<HostTensor> inputs);

} // namespace gopt
} // namespace mlir

#endif // GOPT_TESTING_EVALUATORREFERENCE_H
