//===- LibdeviceInteger.cpp - libdevice's integer and SIMD intrinsics -----===//
//
// Integer intrinsics (CUDA Math API, "Integer Intrinsics" and "SIMD
// Intrinsics"), double bit access, and classification of doubles.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

/// Applies \p Op to each of the 32 / Bits lanes of \p A and \p B; Op gets
/// the lanes as unsigned and as signed values and returns the new lane
/// (truncated to Bits).
template <unsigned Bits, typename OpT>
uint32_t lanes(uint32_t A, uint32_t B, OpT Op) {
  constexpr uint32_t Mask = (1u << Bits) - 1;
  uint32_t R = 0;
  for (unsigned Shift = 0; Shift < 32; Shift += Bits) {
    uint32_t UA = (A >> Shift) & Mask, UB = (B >> Shift) & Mask;
    int32_t SA = int32_t(UA << (32 - Bits)) >> (32 - Bits);
    int32_t SB = int32_t(UB << (32 - Bits)) >> (32 - Bits);
    R |= (uint32_t(Op(int64_t(UA), int64_t(UB), int64_t(SA), int64_t(SB))) &
          Mask)
         << Shift;
  }
  return R;
}

/// Sums \p Op over the lanes (for the sum-of-absolute-differences forms).
template <unsigned Bits, typename OpT>
uint32_t laneSum(uint32_t A, uint32_t B, OpT Op) {
  constexpr uint32_t Mask = (1u << Bits) - 1;
  uint32_t Sum = 0;
  for (unsigned Shift = 0; Shift < 32; Shift += Bits) {
    uint32_t UA = (A >> Shift) & Mask, UB = (B >> Shift) & Mask;
    int32_t SA = int32_t(UA << (32 - Bits)) >> (32 - Bits);
    int32_t SB = int32_t(UB << (32 - Bits)) >> (32 - Bits);
    Sum += uint32_t(Op(int64_t(UA), int64_t(UB), int64_t(SA), int64_t(SB)));
  }
  return Sum;
}

template <unsigned Bits> int64_t satS(int64_t V) {
  constexpr int64_t Max = (int64_t(1) << (Bits - 1)) - 1, Min = -Max - 1;
  return V > Max ? Max : (V < Min ? Min : V);
}
template <unsigned Bits> int64_t satU(int64_t V) {
  constexpr int64_t Max = (int64_t(1) << Bits) - 1;
  return V > Max ? Max : (V < 0 ? 0 : V);
}
/// Signed rounded average: rounds half away from zero, as __vavgs2 does.
int64_t avgS(int64_t A, int64_t B) {
  int64_t S = A + B;
  return S < 0 ? (S >> 1) : ((S + 1) >> 1);
}

} // namespace

extern "C" {

int __nv_abs(int A) { return A < 0 ? int(0u - unsigned(A)) : A; }
long long __nv_llabs(long long A) {
  return A < 0 ? (long long)(0ull - (unsigned long long)A) : A;
}
int __nv_brev(int A) {
  uint32_t X = uint32_t(A), R = 0;
  for (int I = 0; I < 32; ++I)
    R |= ((X >> I) & 1u) << (31 - I);
  return int(R);
}
long long __nv_brevll(long long A) {
  uint64_t X = uint64_t(A), R = 0;
  for (int I = 0; I < 64; ++I)
    R |= ((X >> I) & 1u) << (63 - I);
  return (long long)R;
}
/// __byte_perm(x, y, s): byte n of the result is byte (s >> 4n) & 7 of the
/// 8-byte value y:x.
int __nv_byte_perm(int X, int Y, int S) {
  uint64_t V = (uint64_t(uint32_t(Y)) << 32) | uint32_t(X);
  uint32_t R = 0;
  for (int N = 0; N < 4; ++N) {
    unsigned Sel = (uint32_t(S) >> (4 * N)) & 7u;
    R |= uint32_t((V >> (8 * Sel)) & 0xffu) << (8 * N);
  }
  return int(R);
}
int __nv_clz(int A) { return A ? __builtin_clz(uint32_t(A)) : 32; }
int __nv_clzll(long long A) { return A ? __builtin_clzll(uint64_t(A)) : 64; }
int __nv_ffs(int A) { return __builtin_ffs(A); }
int __nv_ffsll(long long A) { return __builtin_ffsll(A); }
int __nv_popc(unsigned A) { return __builtin_popcount(A); }
int __nv_popcll(unsigned long long A) { return __builtin_popcountll(A); }
int __nv_hadd(int A, int B) { return int((int64_t(A) + B) >> 1); }
int __nv_rhadd(int A, int B) { return int((int64_t(A) + B + 1) >> 1); }
int __nv_uhadd(unsigned A, unsigned B) { return int((uint64_t(A) + B) >> 1); }
unsigned __nv_urhadd(unsigned A, unsigned B) {
  return unsigned((uint64_t(A) + B + 1) >> 1);
}
int __nv_max(int A, int B) { return A > B ? A : B; }
int __nv_min(int A, int B) { return A < B ? A : B; }
unsigned __nv_umax(unsigned A, unsigned B) { return A > B ? A : B; }
unsigned __nv_umin(unsigned A, unsigned B) { return A < B ? A : B; }
long long __nv_llmax(long long A, long long B) { return A > B ? A : B; }
long long __nv_llmin(long long A, long long B) { return A < B ? A : B; }
unsigned long long __nv_ullmax(unsigned long long A, unsigned long long B) {
  return A > B ? A : B;
}
unsigned long long __nv_ullmin(unsigned long long A, unsigned long long B) {
  return A < B ? A : B;
}
/// __mul24: the low 24 bits of each operand, as signed 24-bit values.
int __nv_mul24(int A, int B) {
  int64_t X = int32_t(uint32_t(A) << 8) >> 8;
  int64_t Y = int32_t(uint32_t(B) << 8) >> 8;
  return int(uint32_t(uint64_t(X * Y)));
}
unsigned __nv_umul24(unsigned A, unsigned B) {
  return unsigned(uint64_t(A & 0xffffffu) * (B & 0xffffffu));
}
int __nv_mulhi(int A, int B) { return int((int64_t(A) * B) >> 32); }
unsigned __nv_umulhi(unsigned A, unsigned B) {
  return unsigned((uint64_t(A) * B) >> 32);
}
long long __nv_mul64hi(long long A, long long B) {
  return (long long)(Int128(A) * B >> 64);
}
unsigned long long __nv_umul64hi(unsigned long long A, unsigned long long B) {
  return (unsigned long long)(UInt128(A) * B >> 64);
}
/// __sad(x, y, z): |x - y| + z.
int __nv_sad(int A, int B, int C) {
  int64_t D = int64_t(A) - B;
  return int(uint32_t(D < 0 ? -D : D) + uint32_t(C));
}
unsigned __nv_usad(unsigned A, unsigned B, unsigned C) {
  return (A > B ? A - B : B - A) + C;
}

// Doubles as bits.
int __nv_double2hiint(double D) {
  uint64_t B;
  std::memcpy(&B, &D, 8);
  return int(uint32_t(B >> 32));
}
int __nv_double2loint(double D) {
  uint64_t B;
  std::memcpy(&B, &D, 8);
  return int(uint32_t(B));
}
double __nv_hiloint2double(int Hi, int Lo) {
  uint64_t B = (uint64_t(uint32_t(Hi)) << 32) | uint32_t(Lo);
  double D;
  std::memcpy(&D, &B, 8);
  return D;
}
unsigned long long __nv_double_as_longlong(double D) {
  unsigned long long B;
  std::memcpy(&B, &D, 8);
  return B;
}
double __nv_longlong_as_double(long long B) {
  double D;
  std::memcpy(&D, &B, 8);
  return D;
}
int __nv_isfinited(double X) { return std::isfinite(X); }
int __nv_isinfd(double X) { return std::isinf(X); }
int __nv_isnand(double X) { return std::isnan(X); }
int __nv_signbitd(double X) { return std::signbit(X); }
int __nv_ilogb(double X) { return std::ilogb(X); }
long long __nv_llrint(double X) { return std::llrint(X); }
long long __nv_llrintf(float X) { return std::llrint(X); }
long long __nv_llround(double X) { return std::llround(X); }
long long __nv_llroundf(float X) { return std::llround(X); }

// SIMD: two 16-bit or four 8-bit lanes per 32-bit word.
#define NV_SIMD(Name, Expr)                                                    \
  int __nv_##Name##2(int A, int B) {                                           \
    return int(lanes<16>(uint32_t(A), uint32_t(B),                             \
                         [](int64_t UA, int64_t UB, int64_t SA, int64_t SB) {  \
                           [[maybe_unused]] constexpr unsigned Bits = 16;      \
                           (void)UA, (void)UB, (void)SA, (void)SB;             \
                           return int64_t(Expr);                               \
                         }));                                                  \
  }                                                                            \
  int __nv_##Name##4(int A, int B) {                                           \
    return int(lanes<8>(uint32_t(A), uint32_t(B),                              \
                        [](int64_t UA, int64_t UB, int64_t SA, int64_t SB) {   \
                          [[maybe_unused]] constexpr unsigned Bits = 8;        \
                          (void)UA, (void)UB, (void)SA, (void)SB;              \
                          return int64_t(Expr);                                \
                        }));                                                   \
  }
#define NV_SIMD1(Name, Expr)                                                   \
  int __nv_##Name##2(int A) {                                                  \
    return int(lanes<16>(uint32_t(A), 0,                                       \
                         [](int64_t UA, int64_t, int64_t SA, int64_t) {        \
                           [[maybe_unused]] constexpr unsigned Bits = 16;      \
                           (void)UA, (void)SA;                                 \
                           return int64_t(Expr);                               \
                         }));                                                  \
  }                                                                            \
  int __nv_##Name##4(int A) {                                                  \
    return int(lanes<8>(uint32_t(A), 0,                                        \
                        [](int64_t UA, int64_t, int64_t SA, int64_t) {         \
                          [[maybe_unused]] constexpr unsigned Bits = 8;        \
                          (void)UA, (void)SA;                                  \
                          return int64_t(Expr);                                \
                        }));                                                   \
  }
#define NV_SIMD_SUM(Name, Expr)                                                \
  int __nv_##Name##2(int A, int B) {                                           \
    return int(                                                                \
        laneSum<16>(uint32_t(A), uint32_t(B),                                  \
                    [](int64_t UA, int64_t UB, int64_t SA, int64_t SB) {       \
                      (void)UA, (void)UB, (void)SA, (void)SB;                  \
                      return int64_t(Expr);                                    \
                    }));                                                       \
  }                                                                            \
  int __nv_##Name##4(int A, int B) {                                           \
    return int(laneSum<8>(uint32_t(A), uint32_t(B),                            \
                          [](int64_t UA, int64_t UB, int64_t SA, int64_t SB) { \
                            (void)UA, (void)UB, (void)SA, (void)SB;            \
                            return int64_t(Expr);                              \
                          }));                                                 \
  }

NV_SIMD1(vabs, SA < 0 ? -SA : SA)
NV_SIMD1(vabsss, satS<Bits>(SA < 0 ? -SA : SA))
NV_SIMD1(vneg, -SA)
NV_SIMD1(vnegss, satS<Bits>(-SA))
NV_SIMD(vabsdiffs, SA > SB ? SA - SB : SB - SA)
NV_SIMD(vabsdiffu, UA > UB ? UA - UB : UB - UA)
NV_SIMD(vadd, UA + UB)
NV_SIMD(vaddss, satS<Bits>(SA + SB))
NV_SIMD(vaddus, satU<Bits>(UA + UB))
NV_SIMD(vavgs, avgS(SA, SB))
NV_SIMD(vavgu, (UA + UB + 1) >> 1)
NV_SIMD(vhaddu, (UA + UB) >> 1)
NV_SIMD(vcmpeq, UA == UB ? -1 : 0)
NV_SIMD(vcmpne, UA != UB ? -1 : 0)
NV_SIMD(vcmpges, SA >= SB ? -1 : 0)
NV_SIMD(vcmpgeu, UA >= UB ? -1 : 0)
NV_SIMD(vcmpgts, SA > SB ? -1 : 0)
NV_SIMD(vcmpgtu, UA > UB ? -1 : 0)
NV_SIMD(vcmples, SA <= SB ? -1 : 0)
NV_SIMD(vcmpleu, UA <= UB ? -1 : 0)
NV_SIMD(vcmplts, SA < SB ? -1 : 0)
NV_SIMD(vcmpltu, UA < UB ? -1 : 0)
NV_SIMD(vseteq, UA == UB)
NV_SIMD(vsetne, UA != UB)
NV_SIMD(vsetges, SA >= SB)
NV_SIMD(vsetgeu, UA >= UB)
NV_SIMD(vsetgts, SA > SB)
NV_SIMD(vsetgtu, UA > UB)
NV_SIMD(vsetles, SA <= SB)
NV_SIMD(vsetleu, UA <= UB)
NV_SIMD(vsetlts, SA < SB)
NV_SIMD(vsetltu, UA < UB)
NV_SIMD(vmaxs, SA > SB ? SA : SB)
NV_SIMD(vmaxu, UA > UB ? UA : UB)
NV_SIMD(vmins, SA < SB ? SA : SB)
NV_SIMD(vminu, UA < UB ? UA : UB)
NV_SIMD(vsub, UA - UB)
NV_SIMD(vsubss, satS<Bits>(SA - SB))
NV_SIMD(vsubus, satU<Bits>(UA - UB))
NV_SIMD_SUM(vsads, SA > SB ? SA - SB : SB - SA)
NV_SIMD_SUM(vsadu, UA > UB ? UA - UB : UB - UA)

} // extern "C"

void cucpu::modules::addLibdeviceInteger(llvm::StringMap<void *> &M) {
#define X(Fn) CUCPU_RT_ADD(M, __nv_##Fn);
#define X2(Fn) X(Fn##2) X(Fn##4)
  // clang-format off
  X(abs) X(llabs) X(brev) X(brevll) X(byte_perm) X(clz) X(clzll) X(ffs)
  X(ffsll) X(popc) X(popcll) X(hadd) X(rhadd) X(uhadd) X(urhadd) X(max) X(min)
  X(umax) X(umin) X(llmax) X(llmin) X(ullmax) X(ullmin) X(mul24) X(umul24)
  X(mulhi) X(umulhi) X(mul64hi) X(umul64hi) X(sad) X(usad) X(double2hiint)
  X(double2loint) X(hiloint2double) X(double_as_longlong) X(longlong_as_double)
  X(isfinited) X(isinfd) X(isnand) X(signbitd) X(ilogb) X(llrint) X(llrintf)
  X(llround) X(llroundf) X2(vabs) X2(vabsss) X2(vneg) X2(vnegss) X2(vabsdiffs)
  X2(vabsdiffu) X2(vadd) X2(vaddss) X2(vaddus) X2(vavgs) X2(vavgu) X2(vhaddu)
  X2(vcmpeq) X2(vcmpne) X2(vcmpges) X2(vcmpgeu) X2(vcmpgts) X2(vcmpgtu)
  X2(vcmples) X2(vcmpleu) X2(vcmplts) X2(vcmpltu) X2(vseteq) X2(vsetne)
  X2(vsetges) X2(vsetgeu) X2(vsetgts) X2(vsetgtu) X2(vsetles) X2(vsetleu)
  X2(vsetlts) X2(vsetltu) X2(vmaxs) X2(vmaxu) X2(vmins) X2(vminu) X2(vsub)
  X2(vsubss) X2(vsubus) X2(vsads) X2(vsadu)
  // clang-format on
#undef X2
#undef X
}
