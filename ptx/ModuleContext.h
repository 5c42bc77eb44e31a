//===- ModuleContext.h - Module-wide state of a PTX translation -*- C++ -*-===//
//
// What every function's translation shares: the LLVM module being built, the
// module-scope symbols (variables and functions) with their state spaces, and
// the shared-memory window that PTX's 32-bit .shared addresses index.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_MODULECONTEXT_H
#define CUCPU_PTX_MODULECONTEXT_H

#include "Ast.h"
#include "Translator.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"

namespace cucpu::ptx {

/// NVVM address spaces, as clang's NVPTX back end numbers them.
enum AddressSpace : unsigned {
  GenericAS = 0,
  GlobalAS = 1,
  SharedAS = 3,
  ConstAS = 4,
  LocalAS = 5,
};

/// A module-scope symbol.
struct ModuleSymbol {
  llvm::GlobalValue *Value = nullptr; ///< The variable or function.
  Space StateSpace = Space::Global;   ///< Of a variable; None for functions.
  const Function *Func = nullptr;     ///< The PTX function, if one.
  const Variable *Var = nullptr;      ///< The PTX variable, if one.
};

/// Module-wide state of a translation.
struct ModuleContext {
  llvm::Module &IR;
  const Module &Ptx;
  llvm::StringMap<ModuleSymbol> Symbols;
  /// The shared-memory window, created when first used.
  llvm::GlobalVariable *SharedWindow = nullptr;

  ModuleContext(llvm::Module &IR, const Module &Ptx) : IR(IR), Ptx(Ptx) {}
  /// The shared-memory window (see SharedWindowName).
  llvm::GlobalVariable *sharedWindow();
};

} // namespace cucpu::ptx

#endif // CUCPU_PTX_MODULECONTEXT_H
