//===- WorkFunctionPass.cpp - Thread entries with explicit coordinates ----===//
//
// The block function runs the code of one CUDA thread in loops over the
// block's threads. Its raw material is the work function made here: the
// thread entry, cloned, with everything that meets other threads inlined
// (a barrier inside a device function splits the kernel), and with the
// thread's coordinates taken from arguments, which the loops provide.
//
//===----------------------------------------------------------------------===//
#include "WorkFunctionPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// Engine services through which a thread meets other threads.
constexpr JitService SyncServices[] = {
    JitService::__cucpu_barrier,    JitService::__cucpu_barrier_reduce,
    JitService::__cucpu_warp_sync,  JitService::__cucpu_warp_vote,
    JitService::__cucpu_warp_shfl,  JitService::__cucpu_warp_match,
    JitService::__cucpu_activemask, JitService::__cucpu_yield,
    JitService::__cucpu_lockstep};

/// The defined functions that reach a sync service, directly or through
/// calls.
SmallPtrSet<Function *, 16> syncingFunctions(Module &M) {
  SmallSetVector<Function *, 16> Work;
  SmallPtrSet<Function *, 16> Syncing;
  for (JitService S : SyncServices)
    if (Function *F = M.getFunction(jitServiceSymbol(S)))
      Work.insert(F);
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U)) {
        Function *Caller = CB->getFunction();
        if (Syncing.insert(Caller).second)
          Work.insert(Caller);
      }
  }
  return Syncing;
}

/// The defined functions that can call themselves, directly or not.
SmallPtrSet<Function *, 16> recursiveFunctions(Module &M) {
  SmallPtrSet<Function *, 16> Recursive;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<Function *, 16> Work{&F};
    SmallPtrSet<Function *, 16> Seen;
    while (!Work.empty() && !Recursive.count(&F)) {
      Function *G = Work.pop_back_val();
      for (Instruction &I : instructions(*G))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction();
              Callee && !Callee->isDeclaration()) {
            if (Callee == &F)
              Recursive.insert(&F);
            else if (Seen.insert(Callee).second)
              Work.push_back(Callee);
          }
    }
  }
  return Recursive;
}

/// Inlines, into \p W, every call of a defined function that meets other
/// threads, and, within a size budget, every other call of a device
/// function, so that the loops over threads see the coordinates they read
/// (a call left alone still works: it reads them from the thread's
/// CucpuThread). Fails (returns the reason) on recursion through a
/// function that meets other threads.
std::optional<std::string>
inlineDeviceCalls(Function &W, const SmallPtrSet<Function *, 16> &Syncing,
                  const SmallPtrSet<Function *, 16> &Recursive) {
  constexpr unsigned MaxInlines = 4096;
  constexpr size_t MaxInstructions = 20000;
  size_t Size = W.getInstructionCount();
  SmallPtrSet<CallBase *, 16> LeftAlone;
  for (unsigned Inlined = 0;;) {
    CallBase *Next = nullptr;
    for (Instruction &I : instructions(W)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || LeftAlone.count(CB))
        continue;
      Function *Callee = CB->getCalledFunction();
      if (!Callee) {
        if (!CB->isInlineAsm())
          return std::string("it calls through a function pointer");
        continue;
      }
      if (Callee->isDeclaration())
        continue;
      if (Syncing.count(Callee)) {
        if (Recursive.count(Callee))
          return std::string("a recursive function meets other threads");
        Next = CB;
        break;
      }
      if (!Recursive.count(Callee) &&
          Size + Callee->getInstructionCount() <= MaxInstructions) {
        Next = CB;
        break;
      }
      LeftAlone.insert(CB);
    }
    if (!Next)
      return std::nullopt;
    if (++Inlined > MaxInlines)
      return std::string("its calls are too deeply nested");
    Size += Next->getCalledFunction()->getInstructionCount();
    InlineFunctionInfo IFI;
    InlineResult R = InlineFunction(*Next, IFI);
    if (!R.isSuccess()) {
      if (Syncing.count(Next->getCalledFunction()))
        return std::string("a function that meets other threads cannot be "
                           "inlined: ") +
               R.getFailureReason();
      LeftAlone.insert(Next);
    }
  }
}

/// Replaces the reads of T's fields by the work function's arguments.
void readCoordinatesFromArguments(Function &W) {
  const DataLayout &DL = W.getParent()->getDataLayout();
  Value *T = W.getArg(unsigned(WorkArg::Thread));
  auto Arg = [&](WorkArg A) { return W.getArg(unsigned(A)); };
  SmallVector<LoadInst *, 32> Loads;
  for (Instruction &I : instructions(W))
    if (auto *L = dyn_cast<LoadInst>(&I); L && L->isSimple())
      Loads.push_back(L);
  for (LoadInst *L : Loads) {
    APInt Offset(64, 0);
    Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
        DL, Offset, /*AllowNonInbounds=*/true);
    if (Base != T)
      continue;
    uint64_t Off = Offset.getZExtValue();
    Value *V = nullptr;
    IRBuilder<> B(L);
    if (L->getType()->isPointerTy() && Off == abi::blockOffset())
      V = Arg(WorkArg::Block);
    else if (L->getType()->isIntegerTy(32)) {
      if (Off == abi::threadIdxOffset(0))
        V = Arg(WorkArg::TidX);
      else if (Off == abi::threadIdxOffset(1))
        V = Arg(WorkArg::TidY);
      else if (Off == abi::threadIdxOffset(2))
        V = Arg(WorkArg::TidZ);
      else if (Off == abi::laneIdOffset())
        V = B.CreateAnd(Arg(WorkArg::Linear), 31, "laneid");
      else if (Off == abi::warpIdOffset())
        V = B.CreateLShr(Arg(WorkArg::Linear), 5, "warpid");
    }
    if (!V)
      continue;
    L->replaceAllUsesWith(V);
    L->eraseFromParent();
  }
}

/// Creates the work function of the thread entry \p Entry.
Function *createWorkFunction(Function &Entry, StringRef Kernel) {
  LLVMContext &Ctx = Entry.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx),
                               {Ptr, Ptr, I32, I32, I32, I32, Ptr, I32}, false);
  Function *W = Function::Create(Ty, GlobalValue::InternalLinkage,
                                 WorkPrefix + Kernel, Entry.getParent());
  static const char *Names[] = {"thread", "block",  "tid.x", "tid.y",
                                "tid.z",  "linear", "frame", "nthreads"};
  for (unsigned I = 0; I < unsigned(WorkArg::Count); ++I)
    W->getArg(I)->setName(Names[I]);
  ValueToValueMapTy VMap;
  VMap[Entry.getArg(0)] = W->getArg(unsigned(WorkArg::Thread));
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(W, &Entry, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  W->setLinkage(GlobalValue::InternalLinkage);
  return W;
}

} // namespace

PreservedAnalyses WorkFunctionPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Entries;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(ThreadEntryPrefix))
      Entries.push_back(&F);
  if (Entries.empty())
    return PreservedAnalyses::all();
  SmallPtrSet<Function *, 16> Syncing = syncingFunctions(M);
  SmallPtrSet<Function *, 16> Recursive = recursiveFunctions(M);
  for (Function *Entry : Entries) {
    StringRef Kernel =
        Entry->getName().drop_front(StringRef(ThreadEntryPrefix).size());
    Function *W = createWorkFunction(*Entry, Kernel);
    if (std::optional<std::string> Why =
            inlineDeviceCalls(*W, Syncing, Recursive)) {
      recordFallbackReason(M, Kernel, *Why);
      W->eraseFromParent();
      continue;
    }
    readCoordinatesFromArguments(*W);
  }
  return PreservedAnalyses::none();
}

bool cucpu::modules::isBlockInvariantLoad(const LoadInst &L,
                                          const Function &W) {
  const DataLayout &DL = W.getDataLayout();
  const Value *Block = W.getArg(unsigned(WorkArg::Block));
  if (!L.isSimple())
    return false;
  APInt Offset(64, 0);
  const Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, true);
  // A field of the CucpuBlock.
  if (Base == Block)
    return true;
  // A kernel parameter: the buffer Block->Params points to.
  const auto *ParamsLoad = dyn_cast<LoadInst>(Base);
  if (!ParamsLoad)
    return false;
  APInt FieldOff(64, 0);
  const Value *Blk =
      ParamsLoad->getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, FieldOff, true);
  return Blk == Block && FieldOff.getZExtValue() == abi::paramsOffset();
}
