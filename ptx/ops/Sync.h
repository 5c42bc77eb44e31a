//===- Sync.h - What the barrier and warp instructions share ----*- C++ -*-===//
//
// Sync.cpp (barriers, fences) and Warp.cpp (vote, shfl, match, redux) both
// call NVVM intrinsics and accept a fixed set of modifiers.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_OPS_SYNC_H
#define CUCPU_PTX_OPS_SYNC_H

#include "Ops.h"

#include "llvm/ADT/STLExtras.h"

#include <initializer_list>
#include <vector>

namespace cucpu::ptx {

/// vote, activemask, shfl, match, redux (ops/Warp.cpp); addSyncOps adds
/// them to the table.
void addWarpOps(OpTable &T);

/// Calls the NVVM intrinsic \p Name of type \p Ret(types of \p Args).
inline llvm::Value *callNvvm(FunctionTranslator &F, llvm::StringRef Name,
                             llvm::Type *Ret,
                             llvm::ArrayRef<llvm::Value *> Args) {
  std::vector<llvm::Type *> Params;
  for (llvm::Value *A : Args)
    Params.push_back(A->getType());
  auto Callee =
      F.declare(Name, llvm::FunctionType::get(Ret, Params, /*isVarArg=*/false));
  return F.B.CreateCall(Callee, Args);
}

/// Checks that every modifier of \p I is one of \p Allowed.
inline llvm::Error
onlyModifiers(FunctionTranslator &F, const Instruction &I,
              std::initializer_list<llvm::StringRef> Allowed) {
  for (const std::string &M : I.Modifiers)
    if (!llvm::is_contained(Allowed, M))
      return F.error(I, "the modifier ." + M +
                            " is not supported by this driver's PTX JIT");
  return llvm::Error::success();
}

} // namespace cucpu::ptx

#endif // CUCPU_PTX_OPS_SYNC_H
