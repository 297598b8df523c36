//===- ObjectCode.cpp - LLVM-dialect modules to linked machine code -------===//
//
// Code generation of a large graph is most of its compile time (LLVM's O3
// pipeline and instruction selection over every kernel). The kernels are
// separate functions that are never inlined into each other
// (gopt-no-inline-kernels), so the module splits into partitions that
// compile independently: splitModuleBalanced divides the functions (local
// symbols made external, so the parts link), each part travels as bitcode
// into an LLVMContext of its own (contexts are not shared between threads)
// and is optimized and code generated there with a target machine of its
// own. ORC's linker then resolves the parts against each other.
//
// The parts are balanced by an estimate of their compile cost (machine
// instructions: a vector op counts once per 512 bits it spans). A small
// module has one part per thread; a large one up to four per thread, taken
// from a shared queue, so that a misestimate or a thread slowed by the
// machine is made up by the others.
// llvm::SplitModule, which this used before, gives each part as many
// functions, and a network's kernels come in repeating kinds of very
// different sizes: DenseNet-121's concatenations (up to 25 inputs each)
// fell mostly into one of two parts, which compiled in 1.3 s while the
// other took 0.5 s.
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
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/DeadArgumentElimination.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <thread>

using namespace mlir;
using namespace mlir::gopt;

/// What a function costs to compile beyond its instructions (a function's
/// passes, its frame, its symbol), in instructions.
static constexpr unsigned kFunctionOverheadInstructions = 16;

/// Bits of the widest vector register an x86 CPU has: a wider vector op is
/// split into this many pieces by instruction selection.
static constexpr uint64_t kRegisterBits = 512;

/// What an argument of a call adds to the call's cost: moved into its
/// register or stack slot, its live range across the call spilled. The
/// entry function, a call per kernel with a pointer per tensor, compiled
/// about twice as slowly as its instruction count said.
static constexpr uint64_t kCallArgumentWeight = 2;

/// Parts per compiling thread of a large module: enough for the shared
/// queue to even out the threads.
static constexpr unsigned kPartitionsPerThread = 4;

/// Estimated cost (estimateCompileCost) of a part, at least, when a module
/// is compiled in more parts than threads: each part has a fixed cost (a
/// context, a target machine, a pass pipeline, a few milliseconds), which
/// a small module's extra parts would not earn back (ResNet-50, 7000,
/// compiled in 0.12 s in two parts and in 0.15 s in three).
static constexpr uint64_t kMinCostPerExtraPartition = 4000;

/// What glue (isGlueFunction) costs to compile, in percent of its
/// estimated cost: compiled for compile speed (emitObjects), DenseNet-121's
/// kernel wrappers and entry took 0.21 s where O3 took 0.52 s (`opt` and
/// `llc`, the processes' start left out).
static constexpr uint64_t kGlueCostPercent = 40;

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
  /// Glue only: optimized at O1 at most, code generated at O0.
  bool glue = false;
  std::string object;
  std::string error;
};

/// Optimizes and code generates one partition in a context of its own.
void compilePartition(Partition &part,
                      llvm::orc::JITTargetMachineBuilder machine,
                      unsigned optLevel) {
  if (part.glue) {
    optLevel = std::min(optLevel, 1u);
    machine.setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  }
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

/// Makes `value` linkable from another module: a local symbol becomes a
/// hidden external one, and an unnamed one gets a name (made unique).
static void externalize(llvm::GlobalValue &value) {
  if (value.hasLocalLinkage()) {
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
  if (!value.hasName())
    value.setName("gopt.part.unnamed");
}

/// The function that uses `value` (through constant expressions too) whose
/// part should define it: the first that `prefer` accepts, else the first;
/// null when no function uses it.
static const llvm::Function *
userFunctionFor(const llvm::Value &value,
                llvm::function_ref<bool(const llvm::Function *)> prefer) {
  llvm::SmallVector<const llvm::User *> worklist(value.users());
  llvm::SmallPtrSet<const llvm::User *, 8> seen;
  const llvm::Function *first = nullptr;
  while (!worklist.empty()) {
    const llvm::User *user = worklist.pop_back_val();
    if (!seen.insert(user).second)
      continue;
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(user)) {
      const llvm::Function *function = inst->getFunction();
      if (prefer(function))
        return function;
      if (!first)
        first = function;
    } else if (llvm::isa<llvm::Constant>(user) &&
               !llvm::isa<llvm::GlobalValue>(user)) {
      worklist.append(user->user_begin(), user->user_end());
    }
  }
  return first;
}

/// Bits of the widest value `inst` produces or stores.
static uint64_t widestValueBits(const llvm::Instruction &inst,
                                const llvm::DataLayout &layout) {
  llvm::Type *type = inst.getType();
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    type = store->getValueOperand()->getType();
  if (!type->isSized())
    return 0;
  return layout.getTypeSizeInBits(type).getKnownMinValue();
}

uint64_t mlir::gopt::estimateCompileCost(const llvm::Function &function) {
  const llvm::DataLayout &layout = function.getDataLayout();
  uint64_t cost = kFunctionOverheadInstructions;
  for (const llvm::Instruction &inst : llvm::instructions(function)) {
    uint64_t pieces = 1;
    if (inst.getType()->isVectorTy() || llvm::isa<llvm::StoreInst>(inst))
      pieces = std::max<uint64_t>(
          1, llvm::divideCeil(widestValueBits(inst, layout), kRegisterBits));
    // A call moves each argument into its register or stack slot.
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
      pieces += kCallArgumentWeight * call->arg_size();
    cost += pieces;
  }
  return cost;
}

/// Whether `inst` computes on floating-point numbers or vectors. Moving
/// such values (loads, stores, passing them to a call) is not computing.
static bool computesOnNumbers(const llvm::Instruction &inst) {
  if (llvm::isa<llvm::LoadInst, llvm::StoreInst, llvm::AllocaInst,
                llvm::GetElementPtrInst, llvm::InsertValueInst,
                llvm::ExtractValueInst, llvm::PHINode, llvm::ReturnInst,
                llvm::BranchInst>(inst))
    return false;
  if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
    if (!call->getCalledFunction() || !call->getCalledFunction()->isIntrinsic())
      return false;
  auto numeric = [](const llvm::Type *type) {
    return type->isFPOrFPVectorTy() || type->isVectorTy();
  };
  return numeric(inst.getType()) ||
         llvm::any_of(inst.operands(), [&](const llvm::Use &operand) {
           return numeric(operand->getType());
         });
}

bool mlir::gopt::isGlueFunction(const llvm::Function &function) {
  if (function.isDeclaration())
    return false;
  llvm::SmallVector<
      std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>>
      backEdges;
  llvm::FindFunctionBackedges(function, backEdges);
  return backEdges.empty() &&
         llvm::none_of(llvm::instructions(function), computesOnNumbers);
}

/// What a function of estimated cost `cost` (estimateCompileCost) costs
/// compiled as glue.
static uint64_t glueCost(uint64_t cost) {
  return llvm::divideCeil(cost * kGlueCostPercent, 100);
}

std::vector<mlir::gopt::ModulePart>
mlir::gopt::splitModuleBalanced(llvm::Module &module, unsigned partitions,
                                unsigned gluePartitions) {
  for (llvm::GlobalValue &value : module.global_values())
    externalize(value);

  // Largest first, each to the part of its kind with the least so far
  // (LPT). Parts [0, partitions) take the functions that are not glue,
  // the rest the glue, when there are glue parts.
  llvm::SmallVector<std::tuple<uint64_t, const llvm::Function *, bool>>
      functions;
  bool anyCompute = false;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration()) {
      bool glue = gluePartitions > 0 && isGlueFunction(f);
      anyCompute |= !glue;
      uint64_t cost = estimateCompileCost(f);
      functions.push_back({glue ? glueCost(cost) : cost, &f, glue});
    }
  if (anyCompute || gluePartitions == 0)
    partitions = std::max(1u, partitions);
  unsigned total = partitions + gluePartitions;
  llvm::stable_sort(functions, [](const auto &a, const auto &b) {
    return std::get<0>(a) > std::get<0>(b);
  });
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> partOf;
  std::vector<uint64_t> load(total, 0);
  for (auto [cost, f, glue] : functions) {
    auto first = load.begin() + (glue ? partitions : 0);
    auto last = glue ? load.end() : load.begin() + partitions;
    unsigned least = std::min_element(first, last) - load.begin();
    partOf[f] = least;
    load[least] += cost;
  }
  // A global variable with the function that reads it, so that a kernel's
  // constant tables stay visible to its optimizer (a kernel's rather than
  // the glue's that passes it on); one no function uses with the first
  // part.
  for (const llvm::GlobalVariable &global : module.globals()) {
    const llvm::Function *user =
        userFunctionFor(global, [&](const llvm::Function *f) {
          return partOf.lookup(f) < partitions;
        });
    partOf[&global] = user ? partOf.lookup(user) : 0;
  }
  // Aliases and ifuncs with what they stand for.
  for (const llvm::GlobalAlias &alias : module.aliases())
    if (const llvm::GlobalObject *base = alias.getAliaseeObject())
      partOf[&alias] = partOf.lookup(base);
  for (const llvm::GlobalIFunc &ifunc : module.ifuncs())
    if (const llvm::Function *resolver = ifunc.getResolverFunction())
      partOf[&ifunc] = partOf.lookup(resolver);

  // The parts, the costliest first.
  std::vector<unsigned> order(total);
  std::iota(order.begin(), order.end(), 0u);
  llvm::stable_sort(order,
                    [&](unsigned a, unsigned b) { return load[a] > load[b]; });
  std::vector<ModulePart> parts;
  for (unsigned i : order) {
    llvm::ValueToValueMapTy map;
    parts.push_back({llvm::CloneModule(module, map,
                                       [&](const llvm::GlobalValue *value) {
                                         return partOf.lookup(value) == i;
                                       }),
                     /*glue=*/i >= partitions});
    if (parts.size() > 1)
      parts.back().module->setModuleInlineAsm("");
  }
  return parts;
}

/// How many parts a module of `functions` functions costing `cost` in all
/// is compiled in by `threads` threads: as many for each thread (a part
/// more for one thread than for another would make the others wait), one
/// each unless the module is large, fewer for a module of few functions.
static unsigned partitionCount(uint64_t cost, unsigned functions,
                               unsigned threads) {
  if (threads == 1)
    return 1;
  uint64_t perThread = std::clamp<uint64_t>(
      cost / (threads * kMinCostPerExtraPartition), 1, kPartitionsPerThread);
  return std::max<uint64_t>(
      1, std::min<uint64_t>(threads * perThread,
                            functions / kMinFunctionsPerPartition));
}

PartitionPlan mlir::gopt::planPartitions(const llvm::Module &module,
                                         unsigned threads) {
  uint64_t computeCost = 0, fastGlueCost = 0, glueFullCost = 0;
  unsigned computeFunctions = 0, glueFunctions = 0;
  for (const llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    uint64_t cost = estimateCompileCost(f);
    if (isGlueFunction(f)) {
      fastGlueCost += glueCost(cost);
      glueFullCost += cost;
      ++glueFunctions;
    } else {
      computeCost += cost;
      ++computeFunctions;
    }
  }
  PartitionPlan plan;
  if (glueFunctions == 0 ||
      glueFullCost - fastGlueCost < kMinCostPerExtraPartition) {
    plan.compute = partitionCount(computeCost + glueFullCost,
                                  computeFunctions + glueFunctions, threads);
    return plan;
  }
  plan.compute = computeFunctions
                     ? partitionCount(computeCost, computeFunctions, threads)
                     : 0;
  uint64_t share = plan.compute
                       ? std::max<uint64_t>(1, computeCost / plan.compute)
                       : fastGlueCost;
  unsigned most =
      std::max(1u, std::min(threads * kPartitionsPerThread,
                            glueFunctions / kMinFunctionsPerPartition));
  plan.glue = threads == 1
                  ? 1
                  : std::clamp<unsigned>(llvm::divideCeil(fastGlueCost, share),
                                         1, most);
  return plan;
}

/// Whether `loop` stores vectors and carries nothing from one iteration to
/// the next but integers (its indices).
static bool isStreamingLoop(const llvm::Loop &loop) {
  bool carriesOnlyIndices =
      llvm::all_of(loop.getHeader()->phis(), [](const llvm::PHINode &phi) {
        return phi.getType()->isIntegerTy();
      });
  return carriesOnlyIndices &&
         llvm::any_of(loop.blocks(), [](const llvm::BasicBlock *block) {
           return llvm::any_of(*block, [](const llvm::Instruction &inst) {
             auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
             return store && store->getValueOperand()->getType()->isVectorTy();
           });
         });
}

unsigned mlir::gopt::keepStreamingLoopsRolled(llvm::Module &module) {
  unsigned marked = 0;
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::DominatorTree dominators(function);
    llvm::LoopInfo loops(dominators);
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      if (!isStreamingLoop(*loop))
        continue;
      // A value of 1: without it the option reads as "not disabled".
      llvm::addStringMetadataToLoop(loop, "llvm.loop.unroll.disable", 1);
      ++marked;
    }
  }
  return marked;
}

llvm::Expected<std::vector<std::string>> mlir::gopt::emitObjects(
    ModuleOp module, llvm::orc::JITTargetMachineBuilder machine,
    unsigned optLevel, unsigned threads, llvm::ArrayRef<std::string> exported) {
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
  keepStreamingLoopsRolled(*llvmModule);

  PartitionPlan plan = planPartitions(*llvmModule, std::max(1u, threads));
  std::vector<Partition> parts;
  if (plan.compute + plan.glue == 1) {
    parts.emplace_back();
    parts.back().glue = plan.glue == 1;
    llvm::raw_svector_ostream os(parts.back().bitcode);
    llvm::WriteBitcodeToFile(*llvmModule, os);
  } else {
    for (ModulePart &part :
         splitModuleBalanced(*llvmModule, plan.compute, plan.glue)) {
      parts.emplace_back();
      parts.back().glue = part.glue;
      llvm::raw_svector_ostream os(parts.back().bitcode);
      llvm::WriteBitcodeToFile(*part.module, os);
    }
  }
  llvmModule.reset();

  // Each thread takes the next part until none is left (the parts come
  // largest first).
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < parts.size();)
      compilePartition(parts[i], machine, optLevel);
  };
  std::vector<std::thread> workers;
  for (size_t i = 1; i < std::min<size_t>(threads, parts.size()); ++i)
    workers.emplace_back(work);
  work();
  for (std::thread &worker : workers)
    worker.join();
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
