//===- AbiAccess.h - Reading JitAbi.h structures from IR --------*- C++ -*-===//
//
// The lowering passes read CucpuThread / CucpuBlock fields from generated IR;
// the offsets come from JitAbi.h itself (offsetof), so the IR cannot drift
// from the C layout.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_ABIACCESS_H
#define CUCPU_MODULES_PASSES_ABIACCESS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <cstdint>

namespace llvm {
class Function;
class LoadInst;
class Value;
} // namespace llvm

namespace cucpu::modules::abi {

/// The hidden CucpuThread* of \p F (its first argument), or null if \p F
/// was not given one.
llvm::Value *threadArg(llvm::Function &F);

/// Loads the i32 at byte \p Offset of the structure \p Base points to. The
/// load is marked invariant: the fields never change while a thread runs.
llvm::Value *loadField32(llvm::IRBuilder<> &B, llvm::Value *Base,
                         uint64_t Offset, const llvm::Twine &Name = "");
/// Loads the pointer at byte \p Offset of \p Base (invariant).
llvm::Value *loadFieldPtr(llvm::IRBuilder<> &B, llvm::Value *Base,
                          uint64_t Offset, const llvm::Twine &Name = "");

/// Marks \p L as reading memory that does not change while a block runs.
llvm::LoadInst *markInvariant(llvm::LoadInst *L);

/// Thread->Block.
llvm::Value *loadBlock(llvm::IRBuilder<> &B, llvm::Value *Thread);

/// The calls (not other uses) of \p Callee, collected before rewriting.
llvm::SmallVector<llvm::CallBase *, 8> callsOf(llvm::Function &Callee);

/// Replaces \p Call by \p Value (may be null for a void call) and erases it.
void replaceCall(llvm::CallBase *Call, llvm::Value *Value);

/// Offsets of the fields the passes read (from JitAbi.h).
uint64_t threadIdxOffset(unsigned Dim);
uint64_t laneIdOffset();
uint64_t warpIdOffset();
uint64_t blockOffset();
uint64_t blockIdxOffset(unsigned Dim);
uint64_t blockDimOffset(unsigned Dim);
uint64_t gridDimOffset(unsigned Dim);
uint64_t dynamicSharedOffsetOffset();
uint64_t dynamicSharedBytesOffset();
uint64_t sharedOffset();
uint64_t paramsOffset();
uint64_t texRefsOffset();

} // namespace cucpu::modules::abi

#endif // CUCPU_MODULES_PASSES_ABIACCESS_H
