//===- LibdeviceRounding.cpp - Arithmetic and conversions, rounded --------===//
//
// "rn", "rz", "ru", "rd": round to nearest even, towards zero, up, down
// (CUDA C Programming Guide, Intrinsic Functions). The host's SSE unit does
// each operation in every IEEE mode, so the operation runs with MXCSR set to
// the mode. This file is compiled with -frounding-math, and the operands are
// read through volatile after the mode is set and the result written before
// it is restored, so the compiler can neither fold nor move the operation.
//
// Conversions to integers follow PTX cvt: round in the mode, then saturate
// to the destination's range. NaN converts as on an H200: to 0 from float to
// 32-bit integers, else to the sign bit alone (see toInt).
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace {

/// Runs \p Fn with the rounding mode \p Mode and restores the old one.
template <typename Fn> auto rounded(int Mode, Fn &&F) {
  int Old = std::fegetround();
  std::fesetround(Mode);
  auto R = F();
  std::fesetround(Old);
  return R;
}

template <typename T> T add(T A, T B) {
  volatile T X = A, Y = B;
  volatile T R = X + Y;
  return R;
}
template <typename T> T sub(T A, T B) {
  volatile T X = A, Y = B;
  volatile T R = X - Y;
  return R;
}
template <typename T> T mul(T A, T B) {
  volatile T X = A, Y = B;
  volatile T R = X * Y;
  return R;
}
template <typename T> T div(T A, T B) {
  volatile T X = A, Y = B;
  volatile T R = X / Y;
  return R;
}
template <typename T> T sqrtOf(T A) {
  volatile T X = A;
  volatile T R = std::sqrt(X);
  return R;
}
template <typename T> T fmaOf(T A, T B, T C) {
  volatile T X = A, Y = B, Z = C;
  volatile T R = std::fma(X, Y, Z);
  return R;
}
template <typename To, typename From> To convert(From A) {
  volatile From X = A;
  volatile To R = static_cast<To>(X);
  return R;
}

/// Rounds \p X to an integral value in \p Mode, then saturates to Int.
template <typename Int, typename F> Int toInt(F X, int Mode) {
  if (std::isnan(X)) {
    // As an H200 converts NaN (tests/kernels, convert_*): to 0 from float to
    // a 32-bit integer; to the sign bit alone (0x80000000,
    // 0x8000000000000000) from double, and from float to 64 bits, unsigned
    // destinations included.
    if (sizeof(F) == 4 && sizeof(Int) == 4)
      return 0;
    using U = std::make_unsigned_t<Int>;
    return static_cast<Int>(U(1) << (8 * sizeof(Int) - 1));
  }
  F R = Mode == FE_TONEAREST    ? std::nearbyint(X)
        : Mode == FE_TOWARDZERO ? std::trunc(X)
        : Mode == FE_UPWARD     ? std::ceil(X)
                                : std::floor(X);
  // Bounds as exact powers of two: Int's max + 1 and min.
  constexpr int Bits = std::numeric_limits<Int>::digits;
  const double Limit = std::ldexp(1.0, Bits);
  if (double(R) >= Limit)
    return std::numeric_limits<Int>::max();
  if (double(R) < double(std::numeric_limits<Int>::min()))
    return std::numeric_limits<Int>::min();
  return static_cast<Int>(R);
}

} // namespace

extern "C" {

#define NV_MODES(Macro)                                                        \
  Macro(rn, FE_TONEAREST) Macro(rz, FE_TOWARDZERO) Macro(ru, FE_UPWARD)        \
      Macro(rd, FE_DOWNWARD)

#define NV_ARITH(Suffix, Mode)                                                 \
  float __nv_fadd_##Suffix(float A, float B) {                                 \
    return rounded(Mode, [&] { return add(A, B); });                           \
  }                                                                            \
  float __nv_fsub_##Suffix(float A, float B) {                                 \
    return rounded(Mode, [&] { return sub(A, B); });                           \
  }                                                                            \
  float __nv_fmul_##Suffix(float A, float B) {                                 \
    return rounded(Mode, [&] { return mul(A, B); });                           \
  }                                                                            \
  float __nv_fdiv_##Suffix(float A, float B) {                                 \
    return rounded(Mode, [&] { return div(A, B); });                           \
  }                                                                            \
  float __nv_frcp_##Suffix(float A) {                                          \
    return rounded(Mode, [&] { return div(1.0f, A); });                        \
  }                                                                            \
  float __nv_fsqrt_##Suffix(float A) {                                         \
    return rounded(Mode, [&] { return sqrtOf(A); });                           \
  }                                                                            \
  float __nv_fmaf_##Suffix(float A, float B, float C) {                        \
    return rounded(Mode, [&] { return fmaOf(A, B, C); });                      \
  }                                                                            \
  float __nv_fmaf_ieee_##Suffix(float A, float B, float C) {                   \
    return rounded(Mode, [&] { return fmaOf(A, B, C); });                      \
  }                                                                            \
  double __nv_dadd_##Suffix(double A, double B) {                              \
    return rounded(Mode, [&] { return add(A, B); });                           \
  }                                                                            \
  double __nv_dsub_##Suffix(double A, double B) {                              \
    return rounded(Mode, [&] { return sub(A, B); });                           \
  }                                                                            \
  double __nv_dmul_##Suffix(double A, double B) {                              \
    return rounded(Mode, [&] { return mul(A, B); });                           \
  }                                                                            \
  double __nv_ddiv_##Suffix(double A, double B) {                              \
    return rounded(Mode, [&] { return div(A, B); });                           \
  }                                                                            \
  double __nv_drcp_##Suffix(double A) {                                        \
    return rounded(Mode, [&] { return div(1.0, A); });                         \
  }                                                                            \
  double __nv_dsqrt_##Suffix(double A) {                                       \
    return rounded(Mode, [&] { return sqrtOf(A); });                           \
  }                                                                            \
  double __nv_fma_##Suffix(double A, double B, double C) {                     \
    return rounded(Mode, [&] { return fmaOf(A, B, C); });                      \
  }                                                                            \
  float __nv_double2float_##Suffix(double A) {                                 \
    return rounded(Mode, [&] { return convert<float>(A); });                   \
  }                                                                            \
  float __nv_int2float_##Suffix(int A) {                                       \
    return rounded(Mode, [&] { return convert<float>(A); });                   \
  }                                                                            \
  float __nv_uint2float_##Suffix(unsigned A) {                                 \
    return rounded(Mode, [&] { return convert<float>(A); });                   \
  }                                                                            \
  float __nv_ll2float_##Suffix(long long A) {                                  \
    return rounded(Mode, [&] { return convert<float>(A); });                   \
  }                                                                            \
  float __nv_ull2float_##Suffix(unsigned long long A) {                        \
    return rounded(Mode, [&] { return convert<float>(A); });                   \
  }                                                                            \
  double __nv_ll2double_##Suffix(long long A) {                                \
    return rounded(Mode, [&] { return convert<double>(A); });                  \
  }                                                                            \
  double __nv_ull2double_##Suffix(unsigned long long A) {                      \
    return rounded(Mode, [&] { return convert<double>(A); });                  \
  }                                                                            \
  int __nv_float2int_##Suffix(float A) { return toInt<int>(A, Mode); }         \
  unsigned __nv_float2uint_##Suffix(float A) {                                 \
    return toInt<unsigned>(A, Mode);                                           \
  }                                                                            \
  long long __nv_float2ll_##Suffix(float A) {                                  \
    return toInt<long long>(A, Mode);                                          \
  }                                                                            \
  unsigned long long __nv_float2ull_##Suffix(float A) {                        \
    return toInt<unsigned long long>(A, Mode);                                 \
  }                                                                            \
  int __nv_double2int_##Suffix(double A) { return toInt<int>(A, Mode); }       \
  unsigned __nv_double2uint_##Suffix(double A) {                               \
    return toInt<unsigned>(A, Mode);                                           \
  }                                                                            \
  long long __nv_double2ll_##Suffix(double A) {                                \
    return toInt<long long>(A, Mode);                                          \
  }                                                                            \
  unsigned long long __nv_double2ull_##Suffix(double A) {                      \
    return toInt<unsigned long long>(A, Mode);                                 \
  }

NV_MODES(NV_ARITH)

/// 1/sqrt(x), rounded to nearest: computed in double (53 bits, 29 more than
/// float) and rounded once more to float.
float __nv_frsqrt_rn(float A) { return float(1.0 / std::sqrt(double(A))); }

// Exact conversions: every int and unsigned is a double.
double __nv_int2double_rn(int A) { return A; }
double __nv_uint2double_rn(unsigned A) { return A; }

/// float -> IEEE binary16 bits, round to nearest even, as __float2half_rn.
unsigned short __nv_float2half_rn(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000u;
  uint32_t Abs = X & 0x7fffffffu;
  if (Abs > 0x7f800000u) // NaN: keep it quiet.
    return static_cast<unsigned short>(Sign | 0x7e00u | ((Abs >> 13) & 0x3ffu));
  if (Abs >= 0x477ff000u) // Rounds to >= 65520: infinity.
    return static_cast<unsigned short>(Sign | 0x7c00u);
  if (Abs < 0x38800000u) { // Below 2^-14: a subnormal half (or zero).
    // Value = Abs as float; half subnormal unit is 2^-24.
    float A;
    std::memcpy(&A, &Abs, 4);
    float Scaled = A * 16777216.0f; // exact: A * 2^24
    // Round to nearest even integer (the host's default mode).
    float R = std::nearbyint(Scaled);
    return static_cast<unsigned short>(Sign | static_cast<uint32_t>(R));
  }
  uint32_t Mant = Abs & 0x7fffffu;
  uint32_t Exp = (Abs >> 23) - 127 + 15;
  uint32_t H = (Exp << 10) | (Mant >> 13);
  uint32_t Rest = Mant & 0x1fffu;
  if (Rest > 0x1000u || (Rest == 0x1000u && (H & 1u)))
    ++H; // May carry into the exponent, which is still right.
  return static_cast<unsigned short>(Sign | H);
}

/// IEEE binary16 bits -> float (exact).
float __nv_half2float(unsigned short H) {
  uint32_t Sign = uint32_t(H & 0x8000u) << 16;
  uint32_t Exp = (H >> 10) & 0x1fu;
  uint32_t Mant = H & 0x3ffu;
  float R;
  if (Exp == 0) {
    R = std::ldexp(float(Mant), -24);
    uint32_t Bits;
    std::memcpy(&Bits, &R, 4);
    Bits |= Sign;
    std::memcpy(&R, &Bits, 4);
    return R;
  }
  uint32_t Bits = Exp == 31 ? (Sign | 0x7f800000u | (Mant << 13))
                            : (Sign | ((Exp - 15 + 127) << 23) | (Mant << 13));
  std::memcpy(&R, &Bits, 4);
  return R;
}

} // extern "C"

void cucpu::modules::addLibdeviceRounding(llvm::StringMap<void *> &M) {
#define X(Suffix, Mode)                                                        \
  CUCPU_RT_ADD(M, __nv_fadd_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_fsub_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_fmul_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_fdiv_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_frcp_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_fsqrt_##Suffix);                                        \
  CUCPU_RT_ADD(M, __nv_fmaf_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_fmaf_ieee_##Suffix);                                    \
  CUCPU_RT_ADD(M, __nv_dadd_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_dsub_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_dmul_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_ddiv_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_drcp_##Suffix);                                         \
  CUCPU_RT_ADD(M, __nv_dsqrt_##Suffix);                                        \
  CUCPU_RT_ADD(M, __nv_fma_##Suffix);                                          \
  CUCPU_RT_ADD(M, __nv_double2float_##Suffix);                                 \
  CUCPU_RT_ADD(M, __nv_int2float_##Suffix);                                    \
  CUCPU_RT_ADD(M, __nv_uint2float_##Suffix);                                   \
  CUCPU_RT_ADD(M, __nv_ll2float_##Suffix);                                     \
  CUCPU_RT_ADD(M, __nv_ull2float_##Suffix);                                    \
  CUCPU_RT_ADD(M, __nv_ll2double_##Suffix);                                    \
  CUCPU_RT_ADD(M, __nv_ull2double_##Suffix);                                   \
  CUCPU_RT_ADD(M, __nv_float2int_##Suffix);                                    \
  CUCPU_RT_ADD(M, __nv_float2uint_##Suffix);                                   \
  CUCPU_RT_ADD(M, __nv_float2ll_##Suffix);                                     \
  CUCPU_RT_ADD(M, __nv_float2ull_##Suffix);                                    \
  CUCPU_RT_ADD(M, __nv_double2int_##Suffix);                                   \
  CUCPU_RT_ADD(M, __nv_double2uint_##Suffix);                                  \
  CUCPU_RT_ADD(M, __nv_double2ll_##Suffix);                                    \
  CUCPU_RT_ADD(M, __nv_double2ull_##Suffix);
  NV_MODES(X)
#undef X
  CUCPU_RT_ADD(M, __nv_frsqrt_rn);
  CUCPU_RT_ADD(M, __nv_int2double_rn);
  CUCPU_RT_ADD(M, __nv_uint2double_rn);
  CUCPU_RT_ADD(M, __nv_float2half_rn);
  CUCPU_RT_ADD(M, __nv_half2float);
}
