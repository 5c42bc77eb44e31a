//===- SpecialRegistersPass.cpp - PTX special registers from the thread ---===//
#include "SpecialRegistersPass.h"

#include "AbiAccess.h"
#include "Translator.h"
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

/// The dimension a ".x" / ".y" / ".z" suffix names, or -1.
static int dimension(StringRef Suffix) {
  return StringSwitch<int>(Suffix)
      .Case("x", 0)
      .Case("y", 1)
      .Case("z", 2)
      .Default(-1);
}

/// Adds !range [Lo, Hi) to the load \p V (lets the optimizer know threadIdx
/// and blockDim are small, as clang's range attributes did).
static Value *withRange(Value *V, uint64_t Lo, uint64_t Hi) {
  auto *L = cast<LoadInst>(V);
  MDBuilder MDB(L->getContext());
  L->setMetadata(LLVMContext::MD_range,
                 MDB.createRange(APInt(32, Lo), APInt(32, Hi)));
  return V;
}

/// The value of special register \p Reg for the thread \p T, or null if
/// cucpu does not know it.
static Value *readRegister(IRBuilder<> &B, Module &M, Value *T, StringRef Reg,
                           Type *Ty) {
  auto [Base, Suffix] = Reg.rsplit('.');
  int Dim = dimension(Suffix);
  if (Dim >= 0) {
    if (Base == "tid")
      return withRange(abi::loadField32(B, T, abi::threadIdxOffset(Dim), Reg),
                       0, 1024);
    Value *Block = abi::loadBlock(B, T);
    if (Base == "ntid")
      return withRange(
          abi::loadField32(B, Block, abi::blockDimOffset(Dim), Reg), 1, 1025);
    if (Base == "ctaid")
      return abi::loadField32(B, Block, abi::blockIdxOffset(Dim), Reg);
    if (Base == "nctaid")
      return abi::loadField32(B, Block, abi::gridDimOffset(Dim), Reg);
    return nullptr;
  }
  if (Reg == "laneid")
    return withRange(abi::loadField32(B, T, abi::laneIdOffset(), Reg), 0, 32);
  if (Reg == "warpid")
    return abi::loadField32(B, T, abi::warpIdOffset(), Reg);
  if (Reg == "warpsize")
    return B.getInt32(32);
  if (Reg == "nwarpid")
    return B.getInt32(32); // Warps per multiprocessor, as on sm_75.
  if (Reg == "smid" || Reg == "gridid")
    return ConstantInt::get(Ty, 0);
  if (Reg.starts_with("envreg")) {
    // The driver's environment: %envreg1 (high) and %envreg2 (low half) hold
    // the grid workspace of a cooperative launch, whose barrier word
    // cooperative groups' grid sync counts on (0 in other launches); the
    // others are 0.
    if (Reg != "envreg1" && Reg != "envreg2")
      return ConstantInt::get(Ty, 0);
    Value *Workspace =
        B.CreateCall(declareJitService(M, JitService::__cucpu_grid_workspace));
    if (Reg == "envreg1")
      Workspace = B.CreateLShr(Workspace, 32);
    return B.CreateTrunc(Workspace, Ty, Reg);
  }
  if (Reg == "nsmid")
    return B.getInt32(1);
  if (Reg == "dynamic_smem_size")
    return abi::loadField32(B, abi::loadBlock(B, T),
                            abi::dynamicSharedBytesOffset(), Reg);
  if (Reg == "total_smem_size") {
    // The block's static and dynamic shared bytes in the GPU's allocation
    // units of 128 bytes (measured on an H200: 1 static and 1000 dynamic
    // bytes are 1024, 129 and 0 are 256).
    Value *Block = abi::loadBlock(B, T);
    Value *Bytes =
        B.CreateAdd(abi::loadField32(B, Block, abi::dynamicSharedOffsetOffset(),
                                     "static.shared"),
                    abi::loadField32(B, Block, abi::dynamicSharedBytesOffset(),
                                     "dynamic.shared"));
    return B.CreateAnd(B.CreateAdd(Bytes, B.getInt32(127)), B.getInt32(~127u),
                       Reg);
  }
  if (Reg == "cucpu.shared_size") { // cucpu::ptx::SharedSizeName
    Value *Block = abi::loadBlock(B, T);
    return B.CreateAdd(
        abi::loadField32(B, Block, abi::dynamicSharedOffsetOffset(),
                         "static.shared"),
        abi::loadField32(B, Block, abi::dynamicSharedBytesOffset(),
                         "dynamic.shared"),
        Reg);
  }
  if (Reg.starts_with("lanemask_")) {
    // Computed in 64 bits so that lane 31's "le" mask does not overflow.
    Value *Lane = B.CreateZExt(
        abi::loadField32(B, T, abi::laneIdOffset(), "laneid"), B.getInt64Ty());
    Value *Eq = B.CreateShl(B.getInt64(1), Lane);
    Value *Lt = B.CreateSub(Eq, B.getInt64(1));
    Value *Le = B.CreateOr(Lt, Eq);
    Value *M64 = StringSwitch<Value *>(Reg.drop_front(9))
                     .Case("eq", Eq)
                     .Case("lt", Lt)
                     .Case("le", Le)
                     .Case("gt", B.CreateNot(Le))
                     .Case("ge", B.CreateNot(Lt))
                     .Default(nullptr);
    return M64 ? B.CreateTrunc(M64, B.getInt32Ty(), Reg) : nullptr;
  }
  if (Reg == "clock" || Reg == "clock64" || Reg == "clock.hi") {
    Value *Cycles = B.CreateIntrinsic(Intrinsic::readcyclecounter, {}, {});
    if (Reg == "clock.hi")
      Cycles = B.CreateLShr(Cycles, 32);
    return B.CreateZExtOrTrunc(Cycles, Ty, Reg);
  }
  if (Reg == "globaltimer" || Reg == "globaltimer_lo" ||
      Reg == "globaltimer_hi") {
    FunctionCallee Timer =
        M.getOrInsertFunction("__cucpu_rt_globaltimer", B.getInt64Ty());
    Value *Ns = B.CreateCall(Timer);
    if (Reg == "globaltimer_hi")
      Ns = B.CreateLShr(Ns, 32);
    return B.CreateZExtOrTrunc(Ns, Ty, Reg);
  }
  return nullptr;
}

PreservedAnalyses SpecialRegistersPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : make_early_inc_range(M)) {
    StringRef Name = F.getName();
    if (!F.isDeclaration())
      continue;
    if (Name == cucpu::ptx::SharedSizeName)
      Name = "cucpu.shared_size";
    else if (!Name.consume_front("llvm.nvvm.read.ptx.sreg."))
      continue;
    for (CallBase *CB : abi::callsOf(F)) {
      Value *T = abi::threadArg(*CB->getFunction());
      IRBuilder<> B(CB);
      Value *V = T ? readRegister(B, M, T, Name, CB->getType()) : nullptr;
      if (!V) {
        reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                            "Special register %" + Name + " (" + F.getName() +
                                ") is not supported on the CPU.");
        break;
      }
      abi::replaceCall(CB, V);
      Changed = true;
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
