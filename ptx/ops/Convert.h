//===- Convert.h - Rounding and float formats for PTX -----------*- C++ -*-===//
//
// What cvt and the math instructions share: their rounding modifiers,
// flushing .f32 subnormals (.ftz), the 16-bit formats (f16, bf16) kept as
// bits in registers, and rounding a float or double to a narrower format in
// each IEEE mode, as the GPU's conversions do.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_OPS_CONVERT_H
#define CUCPU_PTX_OPS_CONVERT_H

#include "FunctionTranslator.h"

#include <optional>

namespace cucpu::ptx {

/// An IEEE rounding direction: .rn/.rni, .rz/.rzi, .rm/.rmi, .rp/.rpi.
enum class Rounding { Nearest, Zero, Down, Up };

/// The floating-point rounding modifier (.rn .rz .rm .rp) of \p I, if any.
std::optional<Rounding> floatRounding(const Instruction &I);
/// The integer rounding modifier (.rni .rzi .rmi .rpi) of \p I, if any.
std::optional<Rounding> integerRounding(const Instruction &I);
/// The suffix of the NVVM intrinsics and libdevice functions for \p R:
/// "rn", "rz", "rm", "rp".
llvm::StringRef nvvmSuffix(Rounding R);

/// \p X (float or double) with subnormal values replaced by a zero of the
/// same sign, as .ftz does to .f32 inputs and results (and to .f64 ones of
/// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64).
llvm::Value *flushSubnormal(llvm::IRBuilder<> &B, llvm::Value *X);
/// \p X (a float) with any NaN replaced by the NaN the GPU's .f32
/// arithmetic produces, 0x7fffffff.
llvm::Value *canonicalNaN(llvm::IRBuilder<> &B, llvm::Value *X);

/// A floating-point format narrower than float: f16, bf16, e5m2 or e4m3.
struct HalfFormat {
  unsigned MantBits; ///< 10, 7, 2, 3.
  unsigned Bias;     ///< 15, 127, 15, 7.
  /// The magnitude bits from which values overflow: infinity (0x7c00,
  /// 0x7f80, 0x7c), or for e4m3, which has none, its NaN (0x7f).
  uint32_t Inf;
  unsigned Width; ///< 16 or 8.
};

/// The bits of float \p X rounded to \p Fmt in mode \p R (overflows give
/// Fmt.Inf or the largest finite value as the mode says). NaN becomes the
/// GPU's canonical NaN, all ones but the sign (0x7fff, 0x7f).
llvm::Value *floatBitsToHalf(llvm::IRBuilder<> &B, llvm::Value *X,
                             HalfFormat Fmt, Rounding R);

/// The value of \p Bits (an i16 holding an f16 or bf16) as a float; exact.
llvm::Value *halfToFloat(llvm::IRBuilder<> &B, llvm::Value *Bits, bool BFloat);
/// \p X (float or double) rounded to f16 (or bf16 if \p BFloat) in mode
/// \p R: the i16 bits. NaN becomes the GPU's canonical NaN (0x7fff).
llvm::Value *floatToHalf(FunctionTranslator &F, llvm::Value *X, bool BFloat,
                         Rounding R);
/// \p X (a double) rounded to float in mode \p R.
llvm::Value *doubleToFloat(FunctionTranslator &F, llvm::Value *X, Rounding R);

/// \p X (float or double) rounded to an integral value in mode \p R.
llvm::Value *roundIntegral(llvm::IRBuilder<> &B, llvm::Value *X, Rounding R);

/// cvt to and from .tf32, .e4m3x2 and .e5m2x2 (ops/ConvertNarrow.cpp).
llvm::Error convertNarrowFloat(FunctionTranslator &F, const Instruction &I);

/// The cvt instruction (ops/ConvertCvt.cpp).
llvm::Error convertValue(FunctionTranslator &F, const Instruction &I);

} // namespace cucpu::ptx

#endif // CUCPU_PTX_OPS_CONVERT_H
