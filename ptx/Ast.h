//===- Ast.h - A parsed PTX module ------------------------------*- C++ -*-===//
//
// What the parser builds and the translator reads: module-scope directives,
// variables and functions, and function bodies as a tree of statements.
// Instructions stay generic (opcode, modifiers, operands): the translator
// gives each opcode its meaning, so the parser needs no table of them.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_AST_H
#define CUCPU_PTX_AST_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cucpu::ptx {

/// A PTX state space.
enum class Space { None, Reg, Sreg, Const, Global, Local, Param, Shared, Tex };

/// An operand of an instruction.
struct Operand {
  enum class Kind {
    Register, ///< %r1, a special register (%tid.x), or a symbol (Name).
    Integer,  ///< An integer literal (Value holds its two's complement).
    Float,    ///< 0fXXXXXXXX: Value holds the 32 bits.
    Double,   ///< 0dXXXXXXXXXXXXXXXX or a decimal literal: Value holds
              ///< the 64 bits of the double.
    Address,  ///< [base+offset]: Elements[0] is the base (a name or an
              ///< integer) or Elements is empty for [offset]; or [a, b,
              ///< ...] (texture operands) with several elements.
    Vector,   ///< {a, b, c, d}.
    List,     ///< (a, b): the argument lists of call.
    Pair,     ///< a|b: the two destinations of setp and shfl.
    Sink,     ///< _: a result that is not kept.
  };
  Kind K = Kind::Register;
  std::string Name;     ///< Register or symbol name, with its .x/.y/... suffix.
  bool Negated = false; ///< !%p: the complement of a predicate.
  uint64_t Value = 0;   ///< Literal bits; for Address, the offset.
  std::vector<Operand> Elements; ///< Of Address, Vector, List and Pair.
};

/// One instruction: [@[!]guard] opcode.mod.mod operands;
struct Instruction {
  std::string Opcode;                 ///< "ld", "add", "setp", ...
  std::vector<std::string> Modifiers; ///< Without dots: {"global", "f32"}.
  std::vector<Operand> Operands;
  std::string Guard;         ///< Predicate register, empty if unguarded.
  bool GuardNegated = false; ///< @!%p.
  unsigned Line = 0;         ///< 1-based line of the opcode.

  /// Whether \p Mod is one of the modifiers.
  bool has(llvm::StringRef Mod) const {
    for (const std::string &M : Modifiers)
      if (M == Mod)
        return true;
    return false;
  }
};

/// A variable declaration: a register set, a variable of a state space, or
/// a parameter.
struct Variable {
  Space StateSpace = Space::None;
  std::string Type;         ///< Fundamental type without the dot: "b32".
  unsigned VectorWidth = 0; ///< 2 or 4 for .v2/.v4, else 0.
  unsigned Align = 0;       ///< .align N, 0 if absent.
  std::string Name;
  /// Array dimensions; a 0 is an unsized dimension ([]).
  std::vector<uint64_t> Dims;
  /// %r<100>: the number of registers named Name0..Name(N-1); 0 if one.
  unsigned RangeCount = 0;
  bool IsArray = false; ///< Declared with at least one [].
  bool Visible = false, Extern = false, Weak = false;
  /// .param .u64 .ptr .global: the space a pointer parameter points to.
  Space PointsTo = Space::None;
  /// The initializer, flattened: one operand per element (Integer, Float,
  /// Double, or Register naming a symbol whose address is stored, with
  /// Value as an added byte offset); empty if none.
  std::vector<Operand> Init;
  unsigned Line = 0;
};

struct Statement;

/// A { ... } block of statements.
struct Block {
  std::vector<Statement> Statements;
};

/// One statement of a function body.
struct Statement {
  enum class Kind { Instruction, Label, Declaration, Block, Pragma, Prototype };
  Kind K = Kind::Instruction;
  Instruction Instr;           ///< Kind::Instruction.
  std::string Label;           ///< Kind::Label, Kind::Prototype.
  Variable Decl;               ///< Kind::Declaration.
  std::shared_ptr<Block> Body; ///< Kind::Block.
  std::string Pragma;          ///< Kind::Pragma: the string.
  /// Kind::Prototype: its return and parameter declarations.
  std::vector<Variable> Returns, Params;
  unsigned Line = 0;
};

/// An .entry or .func.
struct Function {
  bool IsEntry = false;
  bool Visible = false, Extern = false, Weak = false;
  std::string Name;
  std::vector<Variable> Returns; ///< .func only: (.param .b32 retval).
  std::vector<Variable> Params;
  /// .maxntid/.reqntid x, y, z (0 if absent); .minnctapersm; .maxnreg.
  unsigned MaxNTid[3] = {0, 0, 0}, ReqNTid[3] = {0, 0, 0};
  unsigned MinNCtaPerSm = 0, MaxNReg = 0;
  bool NoReturn = false;
  std::shared_ptr<Block> Body; ///< Null for a declaration.
  unsigned Line = 0;
};

/// A whole PTX module.
struct Module {
  unsigned VersionMajor = 0, VersionMinor = 0; ///< .version
  std::string Target;                          ///< "sm_75"
  std::vector<std::string> TargetOptions;      ///< texmode_independent, ...
  unsigned AddressSize = 64;
  std::vector<Variable> Globals; ///< .global/.const/.shared, textures.
  std::vector<Function> Functions;
  /// Module-scope items in source order: for each, whether it is a
  /// function (true) and its index in Functions or Globals.
  std::vector<std::pair<bool, size_t>> Order;
};

} // namespace cucpu::ptx

#endif // CUCPU_PTX_AST_H
