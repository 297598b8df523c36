//===- ObjectCode.h - LLVM-dialect modules to linked machine code -*- C++
//-*-===//
//
// Private to lib/Runner: how a lowered module becomes code the process can
// call. The CPU graph is translated to LLVM IR, split into partitions
// compiled (optimized, then code generated) on several threads, and the
// resulting object files are linked by an ORC JIT; the compile cache keeps
// the object files and links them again the same way.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNNER_OBJECTCODE_H
#define GOPT_LIB_RUNNER_OBJECTCODE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

/// Adds `_mlir_<name>(ptr args)`, which calls `name` with its i-th argument
/// loaded from the pointer args[i] points to (the packed interface GOpt's
/// runners call). Fails when `name` is not a function defined in `module`.
LogicalResult addPackedEntry(ModuleOp module, llvm::StringRef name);

/// Drops the argument and result attributes of other dialects than `llvm`
/// from the functions of the LLVM-dialect `module` (the `gopt.weight`
/// marks the C interface copies, say): they mean nothing to LLVM, and
/// translating each costs milliseconds (MLIR 22 looks for a dialect
/// translation interface per attribute: 1.8 s for MaxViT-T's 216).
void dropForeignArgumentAttributes(ModuleOp module);

/// Makes every global of `module` but those named in `exported` internal,
/// and drops the arguments no function reads from the internal functions
/// and their calls (LLVM's internalize, instsimplify and deadargelim). What
/// stays exported keeps its signature.
void dropUnusedArguments(llvm::Module &module,
                         llvm::ArrayRef<std::string> exported);

/// Marks the loops of `module` that stream vectors not to be unrolled
/// (`llvm.loop.unroll.disable`) and returns how many it marked. Such a loop
/// stores vectors and carries only its indices from one iteration to the
/// next: an elementwise kernel's, whose vectors the lowering already made
/// as wide as a row allows. Unrolling it saves a compare and a branch per
/// 16 to 240 floats, which the memory traffic hides, and multiplies the
/// code LLVM's backend selects and schedules: LLVM at O3 fully unrolls such
/// loops up to about 300 instructions. Loops that carry floats or vectors
/// (reductions and contractions, whose accumulator chains unrolling
/// breaks) stay as LLVM's heuristics leave them.
unsigned keepStreamingLoopsRolled(llvm::Module &module);

/// An estimate of what `function` costs to optimize and code generate, in
/// machine instructions: one per instruction, one per 512 bits a vector
/// value spans (instruction selection splits a `<240 x float>` op into 15),
/// and a fixed cost per function.
uint64_t estimateCompileCost(const llvm::Function &function);

/// Whether `function` is glue: defined, without a loop, and computing
/// nothing on floating-point numbers or vectors (it may load, store and
/// pass them): the entry, which calls the kernels in turn, and a kernel
/// that only calls a library or hands its loop to the parallel driver.
/// What it does at run time is the calls, so it is compiled for compile
/// speed (emitObjects).
bool isGlueFunction(const llvm::Function &function);

/// One part of a split module.
struct ModulePart {
  std::unique_ptr<llvm::Module> module;
  /// Defines glue only (isGlueFunction).
  bool glue = false;
};

/// Splits `module` into `partitions` modules that link with each other into
/// the whole, plus `gluePartitions` that define only the glue functions
/// (none: glue goes with the rest): each function and global variable
/// defined in one of them, declared in the others that use it; local
/// symbols become hidden external ones so that the parts link. Functions go
/// largest first (estimateCompileCost; glue at kGlueCostPercent of it) to
/// the part of their kind with the least cost so far, so that the parts take
/// about as long to compile; a global variable goes with the first function
/// that uses it, one that is not glue if any is. There is one part at least (a
/// module of glue only split into glue parts may have no other), and the parts
/// come costliest first. `module` is left with its local symbols externalized.
std::vector<ModulePart> splitModuleBalanced(llvm::Module &module,
                                            unsigned partitions,
                                            unsigned gluePartitions = 0);

/// How many parts of each kind a module is compiled in.
struct PartitionPlan {
  unsigned compute = 1;
  unsigned glue = 0;
};

/// The parts `module` is compiled in by `threads` threads: the functions
/// that compute in as many as they alone would be split into (one per
/// thread, up to four per thread for a large module, fewer for one of few
/// functions), and the glue in parts of its own, about as costly each as
/// one of theirs (the threads take the parts from one queue), when
/// compiling it fast saves more than a part's fixed cost; else glue is
/// compiled with the rest, at their level (`glue` 0).
PartitionPlan planPartitions(const llvm::Module &module, unsigned threads);

/// Relocatable object files of the LLVM-dialect `module`: translated to
/// LLVM IR, trimmed to the symbols in `exported` (dropUnusedArguments),
/// its streaming loops marked to stay rolled (keepStreamingLoopsRolled),
/// split into parts (splitModuleBalanced: one per thread, up to four per
/// thread for a large module, fewer for one of few functions, one when
/// `threads` is 1; glue in parts of its own when there is enough of it to
/// pay for a part), each optimized at `optLevel` (0-3; glue parts at 1 at
/// most, code generated at 0: FastISel and the fast register allocator)
/// and code generated for `machine` by the next of `threads` threads that
/// is free. The parts link with each other into the whole program
/// (linkObjects), which defines only `exported`.
llvm::Expected<std::vector<std::string>>
emitObjects(ModuleOp module, llvm::orc::JITTargetMachineBuilder machine,
            unsigned optLevel, unsigned threads,
            llvm::ArrayRef<std::string> exported);

/// A JIT holding `objects` linked together, with the runtime's entry points
/// (runtime::getRuntimeSymbols) and the process's symbols (libm, libc)
/// resolvable, its initializers run.
llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
linkObjects(llvm::orc::JITTargetMachineBuilder machine,
            const std::vector<std::string> &objects);

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_RUNNER_OBJECTCODE_H
