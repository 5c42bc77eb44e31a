//===- FunctionTranslator.h - One PTX function to LLVM IR -------*- C++ -*-===//
//
// Translates the body of one .entry or .func. Registers become allocas of
// their declared type (SROA turns them into SSA values afterwards), labels
// become basic blocks, and a guarded instruction runs in a block of its own.
// Instruction handlers (ops/*.cpp) use the operand helpers below, which apply
// PTX's operand rules: a register of another type of the same width is
// reinterpreted, a wider one truncated, a narrower one extended.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_FUNCTIONTRANSLATOR_H
#define CUCPU_PTX_FUNCTIONTRANSLATOR_H

#include "Ast.h"
#include "ModuleContext.h"
#include "PtxError.h"
#include "PtxType.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"

#include <vector>

namespace cucpu::ptx {

/// A register, a .local/.param/.shared variable of a function body, or a
/// parameter.
struct LocalSymbol {
  Space StateSpace = Space::Reg;
  /// Registers and .local/.param variables: their alloca (or, for a .func
  /// parameter, the pointer argument to the caller's parameter memory).
  llvm::Value *Storage = nullptr;
  llvm::Type *Type = nullptr; ///< Register: its IR type.
  PtxType Ptx;                ///< Register: its PTX type.
  const Variable *Decl = nullptr;
};

/// Translates one function body.
class FunctionTranslator {
public:
  FunctionTranslator(ModuleContext &Module, const Function &Ptx,
                     llvm::Function &IR);

  /// Translates the body into the IR function.
  llvm::Error run();

  // --- For instruction handlers -------------------------------------------

  llvm::IRBuilder<> B;
  ModuleContext &Module;
  const Function &Ptx;
  llvm::Function &IR;
  llvm::LLVMContext &Ctx;

  /// An error at \p I's line naming its opcode.
  llvm::Error error(const Instruction &I, const llvm::Twine &Message) const;
  /// The instruction's type: its last type modifier; an error if none.
  llvm::Expected<PtxType> type(const Instruction &I) const;
  /// Checks that \p I has \p N operands.
  llvm::Error expectOperands(const Instruction &I, size_t N) const;

  /// The value of \p Op as \p T (PTX operand rules; a symbol is its address,
  /// a .shared symbol its window offset).
  llvm::Expected<llvm::Value *> read(const Instruction &I, const Operand &Op,
                                     PtxType T);
  /// The value of \p Op as the LLVM type \p Ty, reinterpreting the bits of
  /// a register of the same width (extending as \p Signed says).
  llvm::Expected<llvm::Value *> readAs(const Instruction &I, const Operand &Op,
                                       llvm::Type *Ty, bool Signed);
  /// Stores \p V (of PTX type \p T) into the register \p Dst; a sink (_)
  /// drops it. A narrower value is extended as \p T's signedness says.
  llvm::Error write(const Instruction &I, const Operand &Dst, llvm::Value *V,
                    PtxType T);
  /// The generic pointer an address operand [..] of state space \p S
  /// designates.
  llvm::Expected<llvm::Value *> pointer(const Instruction &I,
                                        const Operand &Addr, Space S);
  /// The state space named by \p I's modifiers (Space::None: generic).
  static Space spaceOf(const Instruction &I);
  /// The shared window's generic address (see SharedWindowName).
  llvm::Value *genericWindow();
  /// The shared window's generic address as an i64: a .shared address
  /// plus it is the generic address.
  llvm::Value *windowAddress();
  /// Whether \p Name is a register, parameter or variable of this function.
  const LocalSymbol *lookup(llvm::StringRef Name);

  /// Converts \p V to \p Ty by PTX's rules for register operands.
  llvm::Value *convertBits(llvm::Value *V, llvm::Type *Ty, bool Signed);
  /// A new block in this function, for handlers that branch.
  llvm::BasicBlock *newBlock(const llvm::Twine &Name);
  /// The block a branch to \p Label goes to; an error if there is none.
  llvm::Expected<llvm::BasicBlock *> labelBlock(const Instruction &I,
                                                llvm::StringRef Label);
  /// Ends the current block with a return from the function.
  void emitReturn();
  /// The intrinsic or runtime function \p Name of type \p Ty, declared in
  /// the module if it is not yet.
  llvm::FunctionCallee declare(llvm::StringRef Name, llvm::FunctionType *Ty);
  /// An alloca of \p Ty in the entry block (0: the type's alignment).
  llvm::Value *entryAlloca(llvm::Type *Ty, unsigned Align,
                           const llvm::Twine &Name);

private:
  llvm::Error declareParams();
  llvm::Error collectLabels(const Block &Body);
  llvm::Error block(const Block &Body);
  llvm::Error declaration(const Variable &V);
  llvm::Error sharedDeclaration(const Variable &V);
  llvm::Error instruction(const Instruction &I);
  llvm::Value *specialRegister(llvm::StringRef Name);
  llvm::Expected<llvm::Value *> symbolAddress(const Instruction &I,
                                              llvm::StringRef Name,
                                              uint64_t Offset,
                                              Space &SymbolSpace);

  std::vector<llvm::StringMap<LocalSymbol>> Scopes;
  /// %r<N> declarations: prefix -> (count, symbol template), per scope.
  std::vector<llvm::StringMap<std::pair<unsigned, LocalSymbol>>> Ranges;
  llvm::StringMap<llvm::BasicBlock *> Labels;
  llvm::BasicBlock *Entry = nullptr;
};

/// An instruction handler.
using OpHandler = llvm::Error (*)(FunctionTranslator &, const Instruction &);

} // namespace cucpu::ptx

#endif // CUCPU_PTX_FUNCTIONTRANSLATOR_H
