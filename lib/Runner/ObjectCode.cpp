//===- ObjectCode.cpp - LLVM-dialect modules to linked machine code -------===//
//
// Code generation of a large graph is most of its compile time (LLVM's O3
// pipeline and instruction selection over every kernel). The kernels are
// separate functions that are never inlined into each other
// (gopt-no-inline-kernels), so the module splits into partitions that
// compile independently: llvm::SplitModule divides the functions (local
// symbols made external, so the parts link), each part travels as bitcode
// into an LLVMContext of its own (contexts are not shared between threads)
// and is optimized and code generated there with a target machine of its
// own. ORC's linker then resolves the parts against each other.
//
// Before the split, everything but the entry the runner calls becomes
// internal, and the arguments no function reads are dropped: a kernel
// receives each memref as a descriptor (two pointers, an offset, sizes and
// strides, 11 scalars at rank 4), of which a static shape reads only the
// aligned pointer, and the entry receives every weight so. Passing what is
// never read made the entry's calls most of its instruction selection.
//
//===----------------------------------------------------------------------===//

#include "ObjectCode.h"
#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Support/Error.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/DeadArgumentElimination.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <thread>

using namespace mlir;
using namespace mlir::gopt;

/// Modules with fewer defined functions than this per partition are not
/// split further: a partition's fixed cost (a target machine, bitcode)
/// would outweigh what it saves.
static constexpr unsigned kMinFunctionsPerPartition = 4;

LogicalResult mlir::gopt::addPackedEntry(ModuleOp module,
                                         llvm::StringRef name) {
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!fn || fn.isExternal())
    return failure();
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  Location loc = fn.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(module.getContext()), {ptr});
  auto packed =
      LLVM::LLVMFuncOp::create(builder, loc, ("_mlir_" + name).str(), type);
  Block *body = packed.addEntryBlock(builder);
  builder.setInsertionPointToStart(body);
  SmallVector<Value> args;
  for (auto [i, argType] : llvm::enumerate(fn.getFunctionType().getParams())) {
    Value slot =
        LLVM::GEPOp::create(builder, loc, ptr, ptr, body->getArgument(0),
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value argPtr = LLVM::LoadOp::create(builder, loc, ptr, slot);
    args.push_back(LLVM::LoadOp::create(builder, loc, argType, argPtr));
  }
  LLVM::CallOp::create(builder, loc, fn, args);
  LLVM::ReturnOp::create(builder, loc, ValueRange());
  return success();
}

namespace {

/// One partition: its bitcode in, its object file (or why not) out.
struct Partition {
  llvm::SmallVector<char, 0> bitcode;
  std::string object;
  std::string error;
};

/// Optimizes and code generates one partition in a context of its own.
void compilePartition(Partition &part,
                      llvm::orc::JITTargetMachineBuilder machine,
                      unsigned optLevel) {
  llvm::LLVMContext context;
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(
          llvm::StringRef(part.bitcode.data(), part.bitcode.size()), "part"),
      context);
  if (!module) {
    part.error = llvm::toString(module.takeError());
    return;
  }
  auto tm = machine.createTargetMachine();
  if (!tm) {
    part.error = llvm::toString(tm.takeError());
    return;
  }
  if (llvm::Error error =
          makeOptimizingTransformer(optLevel, 0, tm->get())(module->get())) {
    part.error = llvm::toString(std::move(error));
    return;
  }
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if ((*tm)->addPassesToEmitFile(codegen, os, nullptr,
                                 llvm::CodeGenFileType::ObjectFile)) {
    part.error = "the target cannot emit an object file";
    return;
  }
  codegen.run(**module);
  part.object.assign(object.begin(), object.end());
}

} // namespace

/// `attrs` (an array of dictionaries) without the entries of other
/// dialects than `llvm`, or null when nothing of it is left.
static ArrayAttr keepLLVMAttributes(ArrayAttr attrs) {
  if (!attrs)
    return attrs;
  bool changed = false, any = false;
  SmallVector<Attribute> kept;
  for (Attribute entry : attrs) {
    auto dict = cast<DictionaryAttr>(entry);
    SmallVector<NamedAttribute> llvmOnly;
    for (NamedAttribute attr : dict)
      if (attr.getName().strref().starts_with("llvm."))
        llvmOnly.push_back(attr);
    changed |= llvmOnly.size() != dict.size();
    any |= !llvmOnly.empty();
    kept.push_back(DictionaryAttr::get(attrs.getContext(), llvmOnly));
  }
  if (!changed)
    return attrs;
  return any ? ArrayAttr::get(attrs.getContext(), kept) : ArrayAttr();
}

void mlir::gopt::dropForeignArgumentAttributes(ModuleOp module) {
  // Host functions only: a device module's functions keep theirs.
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    func.setArgAttrsAttr(keepLLVMAttributes(func.getArgAttrsAttr()));
    func.setResAttrsAttr(keepLLVMAttributes(func.getResAttrsAttr()));
  }
}

void mlir::gopt::dropUnusedArguments(llvm::Module &module,
                                     llvm::ArrayRef<std::string> exported) {
  llvm::StringSet<> kept;
  for (const std::string &name : exported)
    kept.insert(name);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes;
  passes.addPass(llvm::InternalizePass([&](const llvm::GlobalValue &value) {
    return kept.contains(value.getName());
  }));
  // A descriptor's fields reach their uses through insertvalue and
  // extractvalue chains; folded, the fields no use reads have no use.
  passes.addPass(
      llvm::createModuleToFunctionPassAdaptor(llvm::InstSimplifyPass()));
  passes.addPass(llvm::DeadArgumentEliminationPass());
  passes.run(module, modules);
}

llvm::Expected<std::vector<std::string>>
mlir::gopt::emitObjects(ModuleOp module,
                        llvm::orc::JITTargetMachineBuilder machine,
                        unsigned optLevel, unsigned partitions,
                        llvm::ArrayRef<std::string> exported) {
  auto layoutMachine = machine.createTargetMachine();
  if (!layoutMachine)
    return layoutMachine.takeError();
  dropForeignArgumentAttributes(module);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return makeError("translating the lowered module to LLVM IR failed");
  llvmModule->setDataLayout((*layoutMachine)->createDataLayout());
  llvmModule->setTargetTriple((*layoutMachine)->getTargetTriple());
  dropUnusedArguments(*llvmModule, exported);

  unsigned functions = 0;
  for (const llvm::Function &f : *llvmModule)
    functions += !f.isDeclaration();
  partitions =
      std::max(1u, std::min(partitions, functions / kMinFunctionsPerPartition));
  std::vector<Partition> parts;
  if (partitions == 1) {
    parts.emplace_back();
    llvm::raw_svector_ostream os(parts.back().bitcode);
    llvm::WriteBitcodeToFile(*llvmModule, os);
  } else {
    llvm::SplitModule(
        *llvmModule, partitions,
        [&](std::unique_ptr<llvm::Module> part) {
          parts.emplace_back();
          llvm::raw_svector_ostream os(parts.back().bitcode);
          llvm::WriteBitcodeToFile(*part, os);
        },
        /*PreserveLocals=*/false, /*RoundRobin=*/true);
  }
  llvmModule.reset();

  std::vector<std::thread> threads;
  for (size_t i = 1; i < parts.size(); ++i)
    threads.emplace_back(compilePartition, std::ref(parts[i]), machine,
                         optLevel);
  compilePartition(parts[0], machine, optLevel);
  for (std::thread &thread : threads)
    thread.join();
  std::vector<std::string> objects;
  for (Partition &part : parts) {
    if (!part.error.empty())
      return makeError("code generation failed: " + part.error);
    objects.push_back(std::move(part.object));
  }
  return objects;
}

llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
mlir::gopt::linkObjects(llvm::orc::JITTargetMachineBuilder machine,
                        const std::vector<std::string> &objects) {
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(machine))
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session) {
                return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                    session, [](const llvm::MemoryBuffer &) {
                      return std::make_unique<llvm::SectionMemoryManager>();
                    });
              })
          .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  llvm::orc::SymbolMap symbols;
  for (auto &[name, address] : runtime::getRuntimeSymbols())
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(symbols)))
    return std::move(error);
  for (const std::string &object : objects)
    if (llvm::Error error = (*jit)->addObjectFile(
            llvm::MemoryBuffer::getMemBufferCopy(object, "gopt-object")))
      return std::move(error);
  if (llvm::Error error = (*jit)->initialize(main))
    return std::move(error);
  return std::move(*jit);
}
