//===- PtxType.h - PTX fundamental types ------------------------*- C++ -*-===//
#ifndef CUCPU_PTX_PTXTYPE_H
#define CUCPU_PTX_PTXTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

#include <optional>

namespace llvm {
class LLVMContext;
class Type;
} // namespace llvm

namespace cucpu::ptx {

/// A PTX fundamental type (.s32, .f64, .pred, ...).
struct PtxType {
  enum class Kind { Signed, Unsigned, Bits, Float, BFloat, Pred };
  Kind K = Kind::Bits;
  unsigned Bits = 32; ///< Width of one element.
  unsigned Lanes = 1; ///< 2 for .f16x2 and .bf16x2.

  /// Parses "s32", "f16x2", "pred", ...; nullopt for anything else.
  static std::optional<PtxType> parse(llvm::StringRef Name);
  /// The LLVM type of a value of this type: iN for integers, bits and the
  /// 16-bit and packed floating-point types (PTX keeps those in .b16/.b32
  /// registers), float or double for .f32/.f64, i1 for .pred.
  llvm::Type *irType(llvm::LLVMContext &C) const;
  /// The LLVM floating-point type for arithmetic on this type (half,
  /// bfloat, float, double), or null if it is not a floating-point type.
  llvm::Type *floatType(llvm::LLVMContext &C) const;
  bool isFloat() const { return K == Kind::Float || K == Kind::BFloat; }
  bool isSigned() const { return K == Kind::Signed; }
  bool isInteger() const {
    return K == Kind::Signed || K == Kind::Unsigned || K == Kind::Bits;
  }
  /// Total width in bits.
  unsigned width() const { return Bits * Lanes; }
};

/// The last modifier of \p Modifiers that names a type, if any.
std::optional<PtxType> lastType(llvm::ArrayRef<std::string> Modifiers);

} // namespace cucpu::ptx

#endif // CUCPU_PTX_PTXTYPE_H
