//===- DebugBuiltinsPass.cpp - threadIdx & co. for debuggers --------------===//
#include "DebugBuiltinsPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/abi/JitAbi.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <cstddef>

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// One built-in variable: its name, type name and where it lies, as DWARF
/// operations applied to the address of the slot holding the thread pointer.
struct Builtin {
  const char *Name;
  const char *TypeName;
  SmallVector<uint64_t, 6> Location;
};

SmallVector<Builtin, 4> builtins() {
  auto InBlock = [](uint64_t Offset) {
    return SmallVector<uint64_t, 6>{
        dwarf::DW_OP_deref,           dwarf::DW_OP_plus_uconst,
        offsetof(CucpuThread, Block), dwarf::DW_OP_deref,
        dwarf::DW_OP_plus_uconst,     Offset};
  };
  return {
      {"threadIdx",
       "uint3",
       {dwarf::DW_OP_deref, dwarf::DW_OP_plus_uconst,
        offsetof(CucpuThread, ThreadIdx)}},
      {"blockIdx", "uint3", InBlock(offsetof(CucpuBlock, BlockIdx))},
      {"blockDim", "dim3", InBlock(offsetof(CucpuBlock, BlockDim))},
      {"gridDim", "dim3", InBlock(offsetof(CucpuBlock, GridDim))},
  };
}

/// A structure of three unsigned ints x, y, z named \p Name.
DICompositeType *vectorType(DIBuilder &DIB, DIScope *Scope, DIFile *File,
                            StringRef Name) {
  DIBasicType *Unsigned =
      DIB.createBasicType("unsigned int", 32, dwarf::DW_ATE_unsigned);
  SmallVector<Metadata *, 3> Members;
  for (unsigned I = 0; I < 3; ++I)
    Members.push_back(DIB.createMemberType(Scope, StringRef("xyz" + I, 1), File,
                                           0, 32, 32, 32 * I, DINode::FlagZero,
                                           Unsigned));
  return DIB.createStructType(Scope, Name, File, 0, 96, 32, DINode::FlagZero,
                              nullptr, DIB.getOrCreateArray(Members));
}

} // namespace

PreservedAnalyses DebugBuiltinsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    DISubprogram *SP = F.getSubprogram();
    Value *Thread = F.isDeclaration() ? nullptr : abi::threadArg(F);
    if (!SP || !Thread || !SP->getUnit())
      continue;
    DIBuilder DIB(M, /*AllowUnresolved=*/false, SP->getUnit());
    DIFile *File = SP->getFile();
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Slot =
        B.CreateAlloca(Thread->getType(), nullptr, "cucpu.dbg.thread");
    // Volatile: SROA and mem2reg leave the slot in memory.
    B.CreateStore(Thread, Slot, /*isVolatile=*/true);
    DILocation *Loc = DILocation::get(M.getContext(), SP->getLine(), 0, SP);
    for (const Builtin &Var : builtins()) {
      // Type nodes are uniqued: both uint3 variables get one node.
      DILocalVariable *V = DIB.createAutoVariable(
          SP, Var.Name, File, SP->getLine(),
          vectorType(DIB, SP->getUnit(), File, Var.TypeName),
          /*AlwaysPreserve=*/true, DINode::FlagArtificial);
      DIB.insertDeclare(Slot, V, DIB.createExpression(Var.Location), Loc,
                        &*B.GetInsertPoint());
    }
    DIB.finalize();
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
