//===- KernelRunner.cpp - Runs one data-driven kernel test ----------------===//
//
// Uses only <cuda.h> and the C++ standard library (it also builds against
// NVIDIA's driver). Command line (tests/kernels/CMakeLists.txt builds it from
// one registration line):
//
//   kernel_runner CUBIN KERNEL GX,GY,GZ BX,BY,BZ SHARED [ARG...] -- [CHECK...]
//
// ARG, one per kernel parameter, in order:
//   i32:V u32:V i64:V u64:V f32:V f64:V   a scalar (V is an expression)
//   buf:T[N]=INIT                         a device buffer of N elements of
//                                         type T (i8 u8 i16 u16 i32 u32 i64
//                                         u64 f32 f64), element i set by INIT
//   rec:T=V,T=V,...                       a struct passed by value, its
//                                         fields at natural alignment
// and, not a kernel parameter (but counted when CHECKs number the ARGs):
//   global:NAME:T[N]=INIT                 before the launch, the module
//                                         variable NAME (cuModuleGetGlobal;
//                                         its size must be N elements of T)
//                                         is set by INIT
// INIT is one of
//   EXPR                     element i is EXPR(i)
//   [E0,E1,...]              element i is Ei (one per element)
//   sweep(LO,HI[,N[,DIV]])   (f32, f64) the inputs of a math sweep: element i
//                            is point (i/DIV)%N (N: the buffer's length, DIV:
//                            1 by default) of an N-point sweep of [LO,HI]:
//                            first the special values 0 -0 inf -inf nan,
//                            then those of the smallest and largest
//                            denormals, the smallest normal, the largest
//                            finite value (all of both signs), +-1 +-0.5 +-2,
//                            LO, HI and their neighbours inside that lie in
//                            [LO,HI] (LO, HI may be -inf, inf); then, in
//                            turn, over the finite part of [LO,HI], points
//                            evenly spaced in value, points evenly spaced in
//                            the representation (so every binade and the
//                            denormals inside [LO,HI] get their share) and
//                            multiples of 0.5 and their two neighbours.
//                            Two-argument functions use N=256 and DIV=1 for
//                            x and DIV=256 for y: 2^16 pairs.
//   range(LO,HI[,N[,DIV]])   the same without the specials outside [LO,HI]
//                            (for functions bounded only inside a domain)
//   bits(SEED)               pseudo-random bit patterns (any type), the first
//                            elements 0, 1, all ones, the sign bit alone,
//                            all but the sign bit, 2, 0x80 and 0xff
// CHECK, compared after the launch and a cuCtxSynchronize:
//   K:EXPR       every element i of buffer argument K equals EXPR(i)
//   K:[E0,E1,...]  element i equals Ei (one per element)
//   K:EXPR~TOL   ... within TOL (absolute, or relative when larger)
//   K:F(A[,B[,C]])[~BOUND,...]
//                every element i of buffer K against the host reference F
//                applied to element i of buffer arguments A, B, C (table
//                `References` below). Without BOUND the bits must be the
//                reference rounded to K's type exactly (any NaN matches any
//                NaN); each BOUND is `<n>ulp` (at most n steps between
//                values of K's type separate the result from the reference
//                rounded to K's type: the ulp error measured from the
//                correctly rounded result, as CUDA states its bounds) or
//                `<x>abs` (absolute error at most x), and an element passes
//                if it meets one of them. Floating-point references
//                are computed in long double (64-bit significand): far
//                inside any bound for float and double results.
//                F(...) names the reference in its generic form: sin checks
//                sinf on an f32 buffer and sin on an f64 buffer. Reference
//                names ending in _rn _rz _ru _rd (add sub mul div rcp sqrt
//                fma cvt) are computed in K's type in that rounding mode;
//                cvt_* to an integer type saturates as PTX cvt does (NaN:
//                see toIntegerRef). Integer references (popc, clz32, ...,
//                bits) take the inputs' bits and give the result's bits.
//   status:NAME  the launch or synchronization fails with CUresult NAME
//
// EXPR: integers and decimals, i (the element index), + - * / % & | ^ << >>,
// unary minus and parentheses; evaluated in the element's type (integer
// division for integer types).
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <algorithm>
#include <cctype>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
/// A tiny recursive-descent evaluator over T.
template <typename T> class Expr {
public:
  Expr(const std::string &Text, T I) : S(Text), I(I) {}
  bool eval(T &Out) {
    Pos = 0;
    Ok = true;
    Out = parseOr();
    skip();
    return Ok && Pos == S.size();
  }

private:
  void skip() {
    while (Pos < S.size() && S[Pos] == ' ')
      ++Pos;
  }
  bool eat(const char *Op) {
    skip();
    size_t N = std::strlen(Op);
    if (S.compare(Pos, N, Op) != 0)
      return false;
    // "<" must not swallow "<<" and so on.
    if (N == 1 && Pos + 1 < S.size() && S[Pos + 1] == Op[0] &&
        (Op[0] == '<' || Op[0] == '>'))
      return false;
    Pos += N;
    return true;
  }
  T parseOr() {
    T V = parseXor();
    while (eat("|"))
      V = bitop(V, parseXor(), '|');
    return V;
  }
  T parseXor() {
    T V = parseAnd();
    while (eat("^"))
      V = bitop(V, parseAnd(), '^');
    return V;
  }
  T parseAnd() {
    T V = parseShift();
    while (eat("&"))
      V = bitop(V, parseShift(), '&');
    return V;
  }
  T parseShift() {
    T V = parseSum();
    for (;;) {
      if (eat("<<"))
        V = bitop(V, parseSum(), '<');
      else if (eat(">>"))
        V = bitop(V, parseSum(), '>');
      else
        return V;
    }
  }
  T parseSum() {
    T V = parseProduct();
    for (;;) {
      if (eat("+"))
        V = V + parseProduct();
      else if (eat("-"))
        V = V - parseProduct();
      else
        return V;
    }
  }
  T parseProduct() {
    T V = parseUnary();
    for (;;) {
      if (eat("*")) {
        V = V * parseUnary();
      } else if (eat("/")) {
        T R = parseUnary();
        if (R == T(0)) {
          Ok = false;
          return V;
        }
        V = V / R;
      } else if (eat("%")) {
        T R = parseUnary();
        if (R == T(0)) {
          Ok = false;
          return V;
        }
        if constexpr (std::is_integral_v<T>)
          V = V % R;
        else
          V = std::fmod(V, R);
      } else {
        return V;
      }
    }
  }
  T parseUnary() {
    if (eat("-"))
      return -parseUnary();
    if (eat("(")) {
      T V = parseOr();
      if (!eat(")"))
        Ok = false;
      return V;
    }
    skip();
    if (Pos < S.size() && S[Pos] == 'i') {
      ++Pos;
      return I;
    }
    const char *Start = S.c_str() + Pos;
    char *End = nullptr;
    T V;
    if constexpr (std::is_integral_v<T>)
      V = static_cast<T>(std::strtoll(Start, &End, 0));
    else
      V = static_cast<T>(std::strtod(Start, &End));
    if (End == Start)
      Ok = false;
    Pos += static_cast<size_t>(End - Start);
    return V;
  }
  T bitop(T A, T B, char Op) {
    if constexpr (std::is_integral_v<T>) {
      switch (Op) {
      case '|':
        return A | B;
      case '^':
        return A ^ B;
      case '&':
        return A & B;
      case '<':
        return A << B;
      default:
        return A >> B;
      }
    } else {
      Ok = false;
      return A;
    }
  }

  const std::string &S;
  T I;
  size_t Pos = 0;
  bool Ok = true;
};

/// A kernel argument: its bytes in the parameter list, and for buffers the
/// device allocation.
struct Arg {
  std::string Type;
  size_t Count = 0;                ///< Elements, for buffers.
  CUdeviceptr Dev = 0;             ///< For buffers.
  size_t Bytes = 0;                ///< Size of the parameter.
  bool Param = true;               ///< False for module variables (global:).
  std::vector<unsigned char> Host; ///< A buffer's initial contents.
  std::vector<uint64_t> Storage = std::vector<uint64_t>(1, 0); ///< Its value.
  unsigned char *data() {
    return reinterpret_cast<unsigned char *>(Storage.data());
  }
};

size_t typeSize(const std::string &T) {
  if (T == "i32" || T == "u32" || T == "f32")
    return 4;
  if (T == "i64" || T == "u64" || T == "f64")
    return 8;
  if (T == "i8" || T == "u8")
    return 1;
  if (T == "i16" || T == "u16")
    return 2;
  return 0;
}

/// Evaluates \p Text at index \p I as type \p T into \p Out.
bool evalInto(const std::string &T, const std::string &Text, int64_t I,
              void *Out) {
  auto Int = [&](auto Tag) {
    using V = decltype(Tag);
    int64_t R;
    if (!Expr<int64_t>(Text, I).eval(R))
      return false;
    V Value = static_cast<V>(R);
    std::memcpy(Out, &Value, sizeof(V));
    return true;
  };
  if (T == "i32")
    return Int(int32_t());
  if (T == "u32")
    return Int(uint32_t());
  if (T == "i64")
    return Int(int64_t());
  if (T == "u64")
    return Int(uint64_t());
  if (T == "i16")
    return Int(int16_t());
  if (T == "u16")
    return Int(uint16_t());
  if (T == "i8")
    return Int(int8_t());
  if (T == "u8")
    return Int(uint8_t());
  double R;
  if (!Expr<double>(Text, static_cast<double>(I)).eval(R))
    return false;
  if (T == "f32") {
    float F = static_cast<float>(R);
    std::memcpy(Out, &F, 4);
    return true;
  }
  if (T == "f64") {
    std::memcpy(Out, &R, 8);
    return true;
  }
  return false;
}

std::string format(const std::string &T, const void *P) {
  char Buf[64];
  if (T == "f32") {
    float F;
    std::memcpy(&F, P, 4);
    std::snprintf(Buf, sizeof(Buf), "%.9g", F);
  } else if (T == "f64") {
    double D;
    std::memcpy(&D, P, 8);
    std::snprintf(Buf, sizeof(Buf), "%.17g", D);
  } else {
    int64_t V = 0;
    size_t N = typeSize(T);
    std::memcpy(&V, P, N);
    if (T[0] == 'i' && N < 8) // Sign-extend.
      V = (V << (64 - 8 * N)) >> (64 - 8 * N);
    std::snprintf(Buf, sizeof(Buf), "%lld", static_cast<long long>(V));
  }
  return Buf;
}

bool parseDim(const char *Text, unsigned Dim[3]) {
  Dim[0] = Dim[1] = Dim[2] = 1;
  return std::sscanf(Text, "%u,%u,%u", &Dim[0], &Dim[1], &Dim[2]) >= 1;
}

const char *resultName(CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  return Name ? Name : "?";
}

int fail(const char *Format, const std::string &A = "",
         const std::string &B = "") {
  std::fprintf(stderr, Format, A.c_str(), B.c_str());
  std::fprintf(stderr, "\n");
  return 1;
}
// ---------------------------------------------------------------------------
// Math sweeps: input generators and host references.

uint64_t splitmix(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

/// Maps a float or double to an integer that orders like the value.
template <typename F, typename U> int64_t toOrdered(F V) {
  U Bits;
  std::memcpy(&Bits, &V, sizeof(V));
  const U Sign = U(1) << (8 * sizeof(U) - 1);
  return (Bits & Sign) ? -static_cast<int64_t>(Bits & ~Sign)
                       : static_cast<int64_t>(Bits);
}
template <typename F, typename U> F fromOrdered(int64_t O) {
  const U Sign = U(1) << (8 * sizeof(U) - 1);
  U Bits = O < 0 ? (static_cast<U>(-O) | Sign) : static_cast<U>(O);
  F V;
  std::memcpy(&V, &Bits, sizeof(V));
  return V;
}

/// The special values of a sweep of [Lo, Hi]: 0 -0 inf -inf nan always;
/// the others (see the header) when they lie inside [Lo, Hi].
/// range() leaves out the five that are not inside.
template <typename F> std::vector<F> sweepSpecials(F Lo, F Hi, bool Always) {
  using L = std::numeric_limits<F>;
  std::vector<F> Out;
  if (Always)
    Out = {F(0), -F(0), L::infinity(), -L::infinity(), L::quiet_NaN()};
  const F Inside[] = {F(0),
                      -F(0),
                      L::infinity(),
                      -L::infinity(),
                      L::denorm_min(),
                      -L::denorm_min(),
                      std::nextafter(L::min(), F(0)),
                      -std::nextafter(L::min(), F(0)),
                      L::min(),
                      -L::min(),
                      L::max(),
                      -L::max(),
                      F(1),
                      F(-1),
                      F(0.5),
                      F(-0.5),
                      F(2),
                      F(-2),
                      Lo,
                      Hi,
                      std::nextafter(Lo, Hi),
                      std::nextafter(Hi, Lo)};
  for (size_t K = Always ? 4 : 0; K < sizeof(Inside) / sizeof(F); ++K)
    if (Inside[K] >= Lo && Inside[K] <= Hi)
      Out.push_back(Inside[K]);
  return Out;
}

/// Point P of an N-point sweep of [Lo, Hi] (see the header).
template <typename F, typename U>
F sweepPoint(F Lo, F Hi, const std::vector<F> &Special, uint64_t P,
             uint64_t N) {
  using L = std::numeric_limits<F>;
  const uint64_t S = Special.size();
  if (P < S)
    return Special[P];
  // The other families use the finite part of [Lo, Hi].
  Lo = std::max(Lo, L::lowest());
  Hi = std::min(Hi, L::max());
  uint64_t Q = P - S, M = N > S ? N - S : 1;
  uint64_t K = Q / 3, Count = (M + 2) / 3; // Points of each family.
  long double T = Count > 1 ? static_cast<long double>(K) / (Count - 1) : 0;
  long double Linear = Lo + (static_cast<long double>(Hi) - Lo) * T;
  switch (Q % 3) {
  case 0:
    return std::clamp(static_cast<F>(Linear), Lo, Hi);
  case 1: {
    int64_t OLo = toOrdered<F, U>(Lo), OHi = toOrdered<F, U>(Hi);
    long double O = OLo + (static_cast<long double>(OHi) - OLo) * T;
    return fromOrdered<F, U>(static_cast<int64_t>(std::llround(O)));
  }
  default: {
    F Half = static_cast<F>(std::round(Linear * 2) / 2);
    if (K % 3 == 1)
      Half = std::nextafter(Half, L::infinity());
    else if (K % 3 == 2)
      Half = std::nextafter(Half, -L::infinity());
    return std::clamp(Half, Lo, Hi);
  }
  }
}

/// Parses "name(a,b,...)" into its arguments; false if Text is not a call of
/// Name.
bool parseCall(const std::string &Text, const std::string &Name,
               std::vector<std::string> &Out) {
  if (Text.size() < Name.size() + 2 ||
      Text.compare(0, Name.size() + 1, Name + "(") != 0 || Text.back() != ')')
    return false;
  Out.clear();
  std::string Inner =
      Text.substr(Name.size() + 1, Text.size() - Name.size() - 2);
  size_t Start = 0;
  for (;;) {
    size_t Comma = Inner.find(',', Start);
    Out.push_back(Inner.substr(Start, Comma - Start));
    if (Comma == std::string::npos)
      return true;
    Start = Comma + 1;
  }
}

/// "[a,b,...]": the list's items, or false.
bool parseList(const std::string &Text, std::vector<std::string> &Out) {
  if (Text.size() < 2 || Text.front() != '[' || Text.back() != ']')
    return false;
  Out.clear();
  std::string Inner = Text.substr(1, Text.size() - 2);
  size_t Start = 0;
  for (;;) {
    size_t Comma = Inner.find(',', Start);
    Out.push_back(Inner.substr(Start, Comma - Start));
    if (Comma == std::string::npos)
      return true;
    Start = Comma + 1;
  }
}

/// Fills Host (Count elements of Type) from INIT; false on a bad INIT.
bool initBuffer(const std::string &Type, const std::string &Init, size_t Count,
                unsigned char *Host) {
  size_t Elem = typeSize(Type);
  std::vector<std::string> A;
  if (parseList(Init, A)) {
    if (A.size() != Count)
      return false;
    for (size_t E = 0; E < Count; ++E)
      if (!evalInto(Type, A[E], 0, Host + E * Elem))
        return false;
    return true;
  }
  bool Sweep = parseCall(Init, "sweep", A);
  if (Sweep || parseCall(Init, "range", A)) {
    if (A.size() < 2 || A.size() > 4 || (Type != "f32" && Type != "f64"))
      return false;
    double Lo = std::strtod(A[0].c_str(), nullptr);
    double Hi = std::strtod(A[1].c_str(), nullptr);
    uint64_t N = A.size() > 2 ? std::strtoull(A[2].c_str(), nullptr, 0) : Count;
    uint64_t Div = A.size() > 3 ? std::strtoull(A[3].c_str(), nullptr, 0) : 1;
    if (!(Lo <= Hi) || !N || !Div)
      return false;
    std::vector<float> SpecialF =
        sweepSpecials<float>(float(Lo), float(Hi), Sweep);
    std::vector<double> SpecialD = sweepSpecials<double>(Lo, Hi, Sweep);
    for (size_t E = 0; E < Count; ++E) {
      uint64_t P = (E / Div) % N;
      if (Type == "f32") {
        float V =
            sweepPoint<float, uint32_t>(float(Lo), float(Hi), SpecialF, P, N);
        std::memcpy(Host + E * 4, &V, 4);
      } else {
        double V = sweepPoint<double, uint64_t>(Lo, Hi, SpecialD, P, N);
        std::memcpy(Host + E * 8, &V, 8);
      }
    }
    return true;
  }
  if (parseCall(Init, "bits", A)) {
    if (A.size() != 1)
      return false;
    uint64_t Seed = std::strtoull(A[0].c_str(), nullptr, 0);
    unsigned Bits = 8 * static_cast<unsigned>(Elem);
    uint64_t Ones = Bits == 64 ? ~0ull : (1ull << Bits) - 1;
    uint64_t SignBit = 1ull << (Bits - 1);
    const uint64_t Special[] = {0, 1,    Ones, SignBit, Ones ^ SignBit,
                                2, 0x80, 0xff};
    for (size_t E = 0; E < Count; ++E) {
      uint64_t V = E < 8 ? Special[E] : splitmix((Seed << 32) + E);
      std::memcpy(Host + E * Elem, &V, Elem); // Little-endian: the low bytes.
    }
    return true;
  }
  for (size_t E = 0; E < Count; ++E)
    if (!evalInto(Type, Init, static_cast<int64_t>(E), Host + E * Elem))
      return false;
  return true;
}

/// One element of a buffer, seen by a reference function: as a number and
/// as its bits (zero-extended).
struct Value {
  long double Num = 0;
  uint64_t Bits = 0;
  std::string Type;
};

Value readValue(const std::string &Type, const unsigned char *P) {
  Value V;
  V.Type = Type;
  size_t N = typeSize(Type);
  std::memcpy(&V.Bits, P, N);
  if (Type == "f32") {
    float F;
    std::memcpy(&F, P, 4);
    V.Num = F;
  } else if (Type == "f64") {
    double D;
    std::memcpy(&D, P, 8);
    V.Num = D;
  } else if (Type[0] == 'i') {
    unsigned Shift = 64 - 8 * static_cast<unsigned>(N);
    V.Num = static_cast<long double>(static_cast<int64_t>(V.Bits << Shift) >>
                                     Shift);
  } else {
    V.Num = static_cast<long double>(V.Bits);
  }
  return V;
}

constexpr long double Pi = 3.141592653589793238462643383279502884L;

/// sin(pi x) and cos(pi x), reduced exactly first.
long double sinpiRef(long double X) {
  if (std::isinf(X))
    return std::numeric_limits<long double>::quiet_NaN();
  long double R = std::fmod(X, 2.0L); // Exact; in (-2, 2).
  if (R > 1)
    R -= 2;
  else if (R < -1)
    R += 2; // Now in [-1, 1]; sin(pi r).
  if (R > 0.5L)
    R = 1 - R;
  else if (R < -0.5L)
    R = -1 - R;
  if (R == 0)
    return X * 0; // Keeps the sign of zero: sinpi(-n) = -0.
  return std::sin(Pi * R);
}
long double cospiRef(long double X) {
  if (std::isinf(X))
    return std::numeric_limits<long double>::quiet_NaN();
  long double R = std::fabs(std::fmod(X, 2.0L)); // [0, 2)
  if (R > 1)
    R = 2 - R; // cos(pi r) = cos(pi (2 - r)); r in [0, 1].
  if (R == 0.5L)
    return 0;
  return sinpiRef(0.5L - R); // Exact: 0.5 - r in [-0.5, 0.5].
}

/// erfcinv: Newton's method on log(erfc(x)) = log(c), for c in (0, 1]
/// (erfc(x) for x up to 27 is a normal long double); erfcinv(2 - c) =
/// -erfcinv(c), and erfinv(y) = erfcinv(1 - y) (exact subtractions for
/// float and double inputs).
long double erfcinvRef(long double C) {
  if (std::isnan(C) || C < 0 || C > 2)
    return std::numeric_limits<long double>::quiet_NaN();
  if (C == 0)
    return std::numeric_limits<long double>::infinity();
  if (C == 2)
    return -std::numeric_limits<long double>::infinity();
  if (C > 1)
    return -erfcinvRef(2 - C);
  const long double TwoOverSqrtPi = 1.128379167095512573896158903121545172L;
  long double LogC = std::log(C);
  long double X = C > 0.5L ? (1 - C) / TwoOverSqrtPi : std::sqrt(-LogC);
  for (int Step = 0; Step < 200; ++Step) {
    long double E = std::erfc(X);
    // d/dx log erfc(x) = -2/sqrt(pi) exp(-x^2) / erfc(x).
    long double D = -TwoOverSqrtPi * std::exp(-X * X) / E;
    long double Next = X - (std::log(E) - LogC) / D;
    if (Next == X || std::fabs(Next - X) <= 1e-21L * std::fabs(X)) {
      X = Next;
      break;
    }
    X = Next;
  }
  return X;
}

long double erfinvRef(long double Y) {
  if (std::isnan(Y) || std::fabs(Y) > 1)
    return std::numeric_limits<long double>::quiet_NaN();
  if (Y == 0)
    return Y;
  if (std::fabs(Y) < 0.5L) { // Newton on erf itself: 1 - y loses digits.
    const long double TwoOverSqrtPi = 1.128379167095512573896158903121545172L;
    long double X = Y / TwoOverSqrtPi;
    for (int Step = 0; Step < 100; ++Step) {
      long double Next =
          X - (std::erf(X) - Y) / (TwoOverSqrtPi * std::exp(-X * X));
      if (Next == X)
        break;
      X = Next;
    }
    return X;
  }
  return Y > 0 ? erfcinvRef(1 - Y) : -erfcinvRef(1 + Y);
}

long double normcdfRef(long double X) {
  const long double Sqrt1_2 = 0.707106781186547524400844362104849039L;
  return 0.5L * std::erfc(-X * Sqrt1_2);
}

using FpRef = long double (*)(const long double *);
using IntRef = uint64_t (*)(const uint64_t *);
struct Reference {
  const char *Name;
  int Arity;
  FpRef Fp;   ///< On numbers, in long double; or
  IntRef Int; ///< on bits (zero-extended), giving the result's bits.
};

#define FP1(N, E)                                                              \
  {                                                                            \
#N, 1, [](const long double *A) -> long double { return E; }, nullptr      \
  }
#define FP2(N, E)                                                              \
  {                                                                            \
#N, 2, [](const long double *A) -> long double { return E; }, nullptr      \
  }
#define INT(N, K, E)                                                           \
  {                                                                            \
#N, K, nullptr, [](const uint64_t *A) -> uint64_t { return E; }            \
  }

uint32_t lo32(uint64_t V) { return static_cast<uint32_t>(V); }
int32_t s32(uint64_t V) {
  return static_cast<int32_t>(static_cast<uint32_t>(V));
}
int32_t s24(uint64_t V) { // The low 24 bits as a signed number.
  uint32_t L = lo32(V) & 0xffffff;
  return static_cast<int32_t>(L ^ 0x800000) - 0x800000;
}
uint64_t brev64(uint64_t V) {
  uint64_t R = 0;
  for (int B = 0; B < 64; ++B)
    R |= ((V >> B) & 1) << (63 - B);
  return R;
}
uint64_t clz64(uint64_t V, int Bits) {
  int N = 0;
  for (int B = Bits - 1; B >= 0 && !((V >> B) & 1); --B)
    ++N;
  return static_cast<uint64_t>(N);
}
uint64_t ffs64(uint64_t V) {
  for (int B = 0; B < 64; ++B)
    if ((V >> B) & 1)
      return static_cast<uint64_t>(B + 1);
  return 0;
}
uint64_t popc64(uint64_t V) {
  uint64_t N = 0;
  for (; V; V &= V - 1)
    ++N;
  return N;
}
uint64_t bytePerm(uint32_t X, uint32_t Y, uint32_t S) {
  uint64_t Bytes = (static_cast<uint64_t>(Y) << 32) | X;
  uint32_t R = 0;
  for (int K = 0; K < 4; ++K) {
    uint32_t Sel = (S >> (4 * K)) & 7;
    R |= static_cast<uint32_t>((Bytes >> (8 * Sel)) & 0xff) << (8 * K);
  }
  return R;
}
uint64_t umul64hi(uint64_t A, uint64_t B) {
  uint64_t AL = A & 0xffffffff, AH = A >> 32, BL = B & 0xffffffff, BH = B >> 32;
  uint64_t LL = AL * BL, LH = AL * BH, HL = AH * BL, HH = AH * BH;
  uint64_t Mid = (LL >> 32) + (LH & 0xffffffff) + (HL & 0xffffffff);
  return HH + (LH >> 32) + (HL >> 32) + (Mid >> 32);
}
uint64_t mul64hi(uint64_t A, uint64_t B) {
  uint64_t H = umul64hi(A, B);
  if (A >> 63)
    H -= B;
  if (B >> 63)
    H -= A;
  return H;
}
uint64_t funnel(uint64_t Lo, uint64_t Hi, uint64_t Shift, bool Left,
                bool Clamp) {
  uint64_t Wide = (static_cast<uint64_t>(lo32(Hi)) << 32) | lo32(Lo);
  uint32_t N = Clamp ? std::min<uint32_t>(lo32(Shift), 32) : lo32(Shift) & 31;
  return Left ? lo32((Wide << N) >> 32) : lo32(Wide >> N);
}

const Reference References[] = {
    FP1(sin, std::sin(A[0])),
    FP1(cos, std::cos(A[0])),
    FP1(tan, std::tan(A[0])),
    FP1(asin, std::asin(A[0])),
    FP1(acos, std::acos(A[0])),
    FP1(atan, std::atan(A[0])),
    FP2(atan2, std::atan2(A[0], A[1])),
    FP1(sinh, std::sinh(A[0])),
    FP1(cosh, std::cosh(A[0])),
    FP1(tanh, std::tanh(A[0])),
    FP1(asinh, std::asinh(A[0])),
    FP1(acosh, std::acosh(A[0])),
    FP1(atanh, std::atanh(A[0])),
    FP1(exp, std::exp(A[0])),
    FP1(exp2, std::exp2(A[0])),
    FP1(exp10, std::pow(10.0L, A[0])),
    FP1(expm1, std::expm1(A[0])),
    FP1(log, std::log(A[0])),
    FP1(log2, std::log2(A[0])),
    FP1(log10, std::log10(A[0])),
    FP1(log1p, std::log1p(A[0])),
    FP2(pow, std::pow(A[0], A[1])),
    FP1(sqrt, std::sqrt(A[0])),
    FP1(rsqrt, 1 / std::sqrt(A[0])),
    FP1(cbrt, std::cbrt(A[0])),
    FP1(rcbrt, 1 / std::cbrt(A[0])),
    FP2(hypot, std::hypot(A[0], A[1])),
    FP1(erf, std::erf(A[0])),
    FP1(erfc, std::erfc(A[0])),
    FP1(erfinv, erfinvRef(A[0])),
    FP1(erfcinv, erfcinvRef(A[0])),
    FP1(lgamma, std::lgamma(A[0])),
    FP1(tgamma, std::tgamma(A[0])),
    FP2(fmod, std::fmod(A[0], A[1])),
    FP2(remainder, std::remainder(A[0], A[1])),
    FP1(sinpi, sinpiRef(A[0])),
    FP1(cospi, cospiRef(A[0])),
    FP1(normcdf, normcdfRef(A[0])),
    FP2(div, A[0] / A[1]),
    FP1(id, A[0]),
    INT(popc, 1, popc64(A[0])),
    INT(clz32, 1, clz64(A[0], 32)),
    INT(clz64, 1, clz64(A[0], 64)),
    INT(ffs32, 1, ffs64(lo32(A[0]))),
    INT(ffs64, 1, ffs64(A[0])),
    INT(brev32, 1, brev64(A[0]) >> 32),
    INT(brev64, 1, brev64(A[0])),
    INT(byte_perm, 3, bytePerm(lo32(A[0]), lo32(A[1]), lo32(A[2]))),
    INT(mul24, 2, lo32(static_cast<uint64_t>(int64_t(s24(A[0])) * s24(A[1])))),
    INT(umul24, 2, lo32((A[0] & 0xffffff) * (A[1] & 0xffffff))),
    INT(mulhi, 2,
        lo32(static_cast<uint64_t>(int64_t(s32(A[0])) * s32(A[1])) >> 32)),
    INT(umulhi, 2, (uint64_t(lo32(A[0])) * lo32(A[1])) >> 32),
    INT(mul64hi, 2, mul64hi(A[0], A[1])),
    INT(umul64hi, 2, umul64hi(A[0], A[1])),
    INT(sad, 3,
        lo32(static_cast<uint64_t>(std::llabs(int64_t(s32(A[0])) - s32(A[1]))) +
             lo32(A[2]))),
    INT(usad, 3,
        lo32((lo32(A[0]) > lo32(A[1]) ? lo32(A[0]) - lo32(A[1])
                                      : lo32(A[1]) - lo32(A[0])) +
             uint64_t(lo32(A[2])))),
    INT(hadd, 2,
        lo32(static_cast<uint64_t>((int64_t(s32(A[0])) + s32(A[1])) >> 1))),
    INT(rhadd, 2,
        lo32(static_cast<uint64_t>((int64_t(s32(A[0])) + s32(A[1]) + 1) >> 1))),
    INT(uhadd, 2, (uint64_t(lo32(A[0])) + lo32(A[1])) >> 1),
    INT(urhadd, 2, (uint64_t(lo32(A[0])) + lo32(A[1]) + 1) >> 1),
    INT(funnelshift_l, 3, funnel(A[0], A[1], A[2], true, false)),
    INT(funnelshift_lc, 3, funnel(A[0], A[1], A[2], true, true)),
    INT(funnelshift_r, 3, funnel(A[0], A[1], A[2], false, false)),
    INT(funnelshift_rc, 3, funnel(A[0], A[1], A[2], false, true)),
    INT(bits, 1, A[0]),
};
#undef FP1
#undef FP2
#undef INT

/// OP_MODE references: the IEEE operation in type T, in a rounding mode.
/// The operands pass through volatile objects so that the operation happens
/// between the two fesetround calls.
template <typename T>
T roundedOp(const std::string &Op, int Mode, const Value *V) {
  auto Get = [&](int K) -> T {
    if (V[K].Type == "f32") {
      float F;
      std::memcpy(&F, &V[K].Bits, 4);
      return static_cast<T>(F);
    }
    double D;
    std::memcpy(&D, &V[K].Bits, 8);
    return static_cast<T>(D);
  };
  int Old = std::fegetround();
  std::fesetround(Mode);
  volatile T R;
  if (Op == "cvt") {
    // From an integer or a wider floating-point type, rounded once.
    if (V[0].Type == "f64") {
      volatile double D = static_cast<double>(V[0].Num);
      R = static_cast<T>(D);
    } else if (V[0].Type[0] == 'i') {
      volatile int64_t I = static_cast<int64_t>(V[0].Num);
      R = static_cast<T>(I);
    } else {
      volatile uint64_t U = V[0].Bits;
      R = static_cast<T>(U);
    }
  } else {
    volatile T A = Get(0);
    if (Op == "sqrt") {
      R = std::sqrt(A);
    } else if (Op == "rcp") {
      R = T(1) / A;
    } else {
      volatile T B = Get(1);
      if (Op == "add")
        R = A + B;
      else if (Op == "sub")
        R = A - B;
      else if (Op == "mul")
        R = A * B;
      else if (Op == "div")
        R = A / B;
      else {
        volatile T C = Get(2);
        R = std::fma(A, B, C);
      }
    }
  }
  T Out = R;
  std::fesetround(Old);
  return Out;
}

/// CUDA's float-to-integer conversion (PTX cvt.rni/rzi/rpi/rmi with
/// saturation) as the exact result. NaN converts as on an H200: to 0 from
/// f32 to a 32-bit integer, otherwise to the sign bit alone (0x80000000,
/// 0x8000000000000000), unsigned destinations included.
long double toIntegerRef(long double X, int Mode, const std::string &From,
                         const std::string &To) {
  unsigned Bits = 8 * static_cast<unsigned>(typeSize(To));
  if (std::isnan(X))
    return From == "f32" && Bits == 32 ? 0 : std::ldexp(1.0L, Bits - 1);
  switch (Mode) {
  case FE_TONEAREST:
    X = std::nearbyint(X);
    break;
  case FE_TOWARDZERO:
    X = std::trunc(X);
    break;
  case FE_UPWARD:
    X = std::ceil(X);
    break;
  default:
    X = std::floor(X);
    break;
  }
  long double Lo = To[0] == 'u' ? 0 : -std::ldexp(1.0L, Bits - 1);
  long double Hi = std::ldexp(1.0L, To[0] == 'u' ? Bits : Bits - 1) - 1;
  return std::clamp(X, Lo, Hi);
}

/// The error of Got against Ref in units in the last place of F at Ref
/// (for messages).
template <typename F> long double ulpError(F Got, long double Ref) {
  using L = std::numeric_limits<F>;
  if (std::isnan(Ref) || std::isnan(Got))
    return std::isnan(Ref) && std::isnan(Got) ? 0 : INFINITY;
  if (std::isinf(Ref))
    return Got == Ref ? 0 : INFINITY;
  // Overflow: infinity counts as the next power of two after the largest
  // finite value.
  const long double Big = std::ldexp(1.0L, L::max_exponent);
  long double G =
      std::isinf(Got) ? std::copysign(Big, static_cast<long double>(Got)) : Got;
  Ref = std::clamp(Ref, -Big, Big);
  int Exp = Ref == 0 ? L::min_exponent
                     : std::max(std::ilogb(Ref) + 1, L::min_exponent);
  long double Ulp = std::ldexp(1.0L, Exp - L::digits);
  return std::fabs(G - Ref) / Ulp;
}

/// How many steps between values of F separate Got from Ref rounded to F
/// (the correctly rounded result): CUDA's (and glibc's) measure of a
/// function's ulp error. Infinity is one step past the largest finite
/// value; 0 and -0 are one value.
template <typename F, typename U>
long double ulpsFromRounded(F Got, long double Ref) {
  if (std::isnan(Ref) || std::isnan(Got))
    return std::isnan(Ref) && std::isnan(Got) ? 0 : INFINITY;
  if (std::isinf(Ref))
    return Got == Ref ? 0 : INFINITY;
  F Rounded = static_cast<F>(Ref);
  int64_t D = toOrdered<F, U>(Got) - toOrdered<F, U>(Rounded);
  return static_cast<long double>(D < 0 ? -D : D);
}

/// Runs a reference check "F(A,B,...)[~BOUND,...]" on buffer Out (its
/// contents Got); returns the number of mismatching elements, or -1 if the
/// check is malformed.
struct Buffer {
  std::string Type;
  size_t Count;
  const unsigned char *Data;
};
long referenceCheck(const std::string &Check, const Buffer &Out,
                    const std::vector<Buffer> &Args, std::string &Error) {
  size_t Open = Check.find('('), Close = Check.find(')');
  if (Open == std::string::npos || Close == std::string::npos || Close < Open) {
    Error = "bad reference check " + Check;
    return -1;
  }
  std::string Name = Check.substr(0, Open);
  std::vector<size_t> In;
  for (size_t P = Open + 1; P < Close;) {
    char *End = nullptr;
    size_t K = std::strtoull(Check.c_str() + P, &End, 10);
    if (End == Check.c_str() + P || K >= Args.size() || !Args[K].Data ||
        Args[K].Count != Out.Count) {
      Error = "bad input buffer in " + Check;
      return -1;
    }
    In.push_back(K);
    P = static_cast<size_t>(End - Check.c_str());
    if (Check[P] == ',')
      ++P;
  }
  // Bounds.
  std::vector<long double> Ulps, Abs;
  if (Close + 1 < Check.size()) {
    if (Check[Close + 1] != '~') {
      Error = "bad bound in " + Check;
      return -1;
    }
    std::string Rest = Check.substr(Close + 2);
    size_t Start = 0;
    for (;;) {
      size_t Comma = Rest.find(',', Start);
      std::string B = Rest.substr(Start, Comma - Start);
      char *End = nullptr;
      long double V = std::strtold(B.c_str(), &End);
      std::string Unit = End;
      if (Unit == "ulp")
        Ulps.push_back(V);
      else if (Unit == "abs")
        Abs.push_back(V);
      else {
        Error = "bad bound " + B + " (<n>ulp or <x>abs)";
        return -1;
      }
      if (Comma == std::string::npos)
        break;
      Start = Comma + 1;
    }
  }
  // The reference.
  const Reference *Ref = nullptr;
  for (const Reference &R : References)
    if (Name == R.Name)
      Ref = &R;
  std::string Op;
  int Mode = -1;
  size_t Arity = Ref ? static_cast<size_t>(Ref->Arity) : 0;
  if (!Ref && Name.size() > 3 && Name[Name.size() - 3] == '_') {
    static const std::pair<const char *, int> Modes[] = {{"rn", FE_TONEAREST},
                                                         {"rz", FE_TOWARDZERO},
                                                         {"ru", FE_UPWARD},
                                                         {"rd", FE_DOWNWARD}};
    for (const auto &M : Modes)
      if (Name.compare(Name.size() - 2, 2, M.first) == 0)
        Mode = M.second;
    Op = Name.substr(0, Name.size() - 3);
    if (Op == "add" || Op == "sub" || Op == "mul" || Op == "div")
      Arity = 2;
    else if (Op == "rcp" || Op == "sqrt" || Op == "cvt")
      Arity = 1;
    else if (Op == "fma")
      Arity = 3;
    else
      Mode = -1;
    if (Op != "cvt" && Out.Type != "f32" && Out.Type != "f64")
      Mode = -1;
  }
  if ((!Ref && Mode < 0) || Arity != In.size()) {
    Error = "no reference " + Name + " with " + std::to_string(In.size()) +
            " inputs for " + Out.Type;
    return -1;
  }
  bool IsFloat = Out.Type == "f32" || Out.Type == "f64";
  size_t Elem = typeSize(Out.Type);
  long Failures = 0;
  for (size_t E = 0; E < Out.Count; ++E) {
    Value V[3];
    long double Num[3];
    uint64_t Bits[3];
    for (size_t K = 0; K < In.size(); ++K) {
      const Buffer &B = Args[In[K]];
      V[K] = readValue(B.Type, B.Data + E * typeSize(B.Type));
      Num[K] = V[K].Num;
      Bits[K] = V[K].Bits;
    }
    const unsigned char *GotP = Out.Data + E * Elem;
    Value Got = readValue(Out.Type, GotP);
    bool Same;
    std::string Want;
    if (Ref && Ref->Int) {
      uint64_t R = Ref->Int(Bits);
      Same = std::memcmp(GotP, &R, Elem) == 0;
      char Buf[40];
      std::snprintf(Buf, sizeof(Buf), "0x%llx",
                    static_cast<unsigned long long>(R));
      Want = Buf;
    } else {
      long double R;
      if (Ref)
        R = Ref->Fp(Num);
      else if (!IsFloat)
        R = toIntegerRef(Num[0], Mode, V[0].Type, Out.Type);
      else if (Out.Type == "f32")
        R = roundedOp<float>(Op, Mode, V);
      else
        R = roundedOp<double>(Op, Mode, V);
      char Buf[64];
      std::snprintf(Buf, sizeof(Buf), "%La", R);
      Want = Buf;
      if (!IsFloat) {
        // An integer value (at most 2^64 - 1); its low bytes.
        uint64_t I = R < 0 ? static_cast<uint64_t>(static_cast<int64_t>(R))
                           : static_cast<uint64_t>(R);
        Same = std::memcmp(GotP, &I, Elem) == 0;
        Want =
            R < 0 ? std::to_string(static_cast<int64_t>(R)) : std::to_string(I);
      } else if (Ulps.empty() && Abs.empty()) {
        if (Out.Type == "f32") {
          float W = static_cast<float>(R), G = static_cast<float>(Got.Num);
          Same =
              (std::isnan(W) && std::isnan(G)) || std::memcmp(&W, &G, 4) == 0;
        } else {
          double W = static_cast<double>(R), G = static_cast<double>(Got.Num);
          Same =
              (std::isnan(W) && std::isnan(G)) || std::memcmp(&W, &G, 8) == 0;
        }
      } else {
        bool F32 = Out.Type == "f32";
        float GotF = static_cast<float>(Got.Num);
        double GotD = static_cast<double>(Got.Num);
        long double Err = F32 ? ulpsFromRounded<float, uint32_t>(GotF, R)
                              : ulpsFromRounded<double, uint64_t>(GotD, R);
        long double Exact =
            F32 ? ulpError<float>(GotF, R) : ulpError<double>(GotD, R);
        Same = Err == 0; // Also NaN for NaN.
        for (long double U : Ulps)
          Same = Same || Err <= U;
        for (long double A : Abs)
          Same = Same || std::fabs(Got.Num - R) <= A;
        std::snprintf(Buf, sizeof(Buf), " (%.0Lf ulp, %.2Lf from exact)", Err,
                      Exact);
        Want += Buf;
      }
    }
    if (!Same && ++Failures <= 10) {
      std::string Inputs;
      for (size_t K = 0; K < In.size(); ++K) {
        char Buf[64];
        if (V[K].Type == "f32" || V[K].Type == "f64")
          std::snprintf(Buf, sizeof(Buf), "%La", V[K].Num);
        else
          std::snprintf(Buf, sizeof(Buf), "0x%llx",
                        static_cast<unsigned long long>(V[K].Bits));
        Inputs += (K ? ", " : "") + std::string(Buf);
      }
      char GotText[64];
      if (IsFloat)
        std::snprintf(GotText, sizeof(GotText), "%La", Got.Num);
      else
        std::snprintf(GotText, sizeof(GotText), "0x%llx",
                      static_cast<unsigned long long>(Got.Bits));
      std::fprintf(stderr, "element %zu: %s(%s) = %s, expected %s\n", E,
                   Name.c_str(), Inputs.c_str(), GotText, Want.c_str());
    }
  }
  return Failures;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 6)
    return fail("usage: kernel_runner CUBIN KERNEL GRID BLOCK SHARED [ARG...] "
                "-- [CHECK...]");
  unsigned Grid[3], Block[3];
  if (!parseDim(Argv[3], Grid) || !parseDim(Argv[4], Block))
    return fail("bad grid or block: %s %s", Argv[3], Argv[4]);
  unsigned Shared = static_cast<unsigned>(std::strtoul(Argv[5], nullptr, 0));

  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CUfunction Fn;
  if (CUresult R = cuInit(0))
    return fail("cuInit: %s", resultName(R));
  if (cuDeviceGet(&Dev, 0) || cuCtxCreate(&Ctx, nullptr, 0, Dev))
    return fail("no context");
  if (CUresult R = cuModuleLoad(&Mod, Argv[1]))
    return fail("cuModuleLoad(%s): %s", Argv[1], resultName(R));
  if (CUresult R = cuModuleGetFunction(&Fn, Mod, Argv[2]))
    return fail("cuModuleGetFunction(%s): %s", Argv[2], resultName(R));

  std::vector<Arg> Args;
  int I = 6;
  for (; I < Argc && std::strcmp(Argv[I], "--") != 0; ++I) {
    std::string Text = Argv[I];
    Arg A;
    size_t Colon = Text.find(':');
    if (Colon == std::string::npos)
      return fail("bad argument %s", Text);
    std::string Kind = Text.substr(0, Colon), Rest = Text.substr(Colon + 1);
    if (Kind == "buf" || Kind == "global") {
      std::string Name;
      if (Kind == "global") {
        size_t NameEnd = Rest.find(':');
        if (NameEnd == std::string::npos)
          return fail("bad module variable %s", Text);
        Name = Rest.substr(0, NameEnd);
        Rest = Rest.substr(NameEnd + 1);
      }
      size_t Open = Rest.find('['), Close = Rest.find(']'), Eq = Rest.find('=');
      if (Open == std::string::npos || Close == std::string::npos ||
          Eq == std::string::npos)
        return fail("bad buffer %s", Text);
      A.Type = Rest.substr(0, Open);
      A.Count = std::strtoull(Rest.c_str() + Open + 1, nullptr, 0);
      size_t Elem = typeSize(A.Type);
      if (!Elem || !A.Count)
        return fail("bad buffer %s", Text);
      std::string Init = Rest.substr(Eq + 1);
      A.Host.resize(A.Count * Elem);
      if (!initBuffer(A.Type, Init, A.Count, A.Host.data()))
        return fail("bad initializer %s", Init);
      if (Kind == "global") {
        size_t Size = 0;
        if (CUresult R = cuModuleGetGlobal(&A.Dev, &Size, Mod, Name.c_str()))
          return fail("cuModuleGetGlobal(%s): %s", Name, resultName(R));
        if (Size != A.Host.size())
          return fail("module variable %s has %s bytes", Name,
                      std::to_string(Size));
        A.Param = false;
      } else if (cuMemAlloc(&A.Dev, A.Host.size())) {
        return fail("cannot allocate %s", Text);
      }
      if (cuMemcpyHtoD(A.Dev, A.Host.data(), A.Host.size()))
        return fail("cannot initialize %s", Text);
      std::memcpy(A.data(), &A.Dev, sizeof(A.Dev));
      A.Bytes = sizeof(A.Dev);
    } else if (Kind == "rec") {
      // Fields T=V separated by commas, each at its natural alignment; the
      // struct's size is a multiple of its largest alignment.
      A.Type = "rec";
      A.Storage.assign(64, 0);
      size_t Offset = 0, MaxAlign = 1;
      size_t Start = 0;
      while (Start <= Rest.size()) {
        size_t Comma = Rest.find(',', Start);
        std::string Field = Rest.substr(Start, Comma - Start);
        size_t Eq = Field.find('=');
        std::string T = Field.substr(0, Eq);
        size_t Size = typeSize(T);
        if (Eq == std::string::npos || !Size)
          return fail("bad field %s in %s", Field, Text);
        Offset = (Offset + Size - 1) / Size * Size;
        MaxAlign = std::max(MaxAlign, Size);
        if (Offset + Size > 512 ||
            !evalInto(T, Field.substr(Eq + 1), 0, A.data() + Offset))
          return fail("bad field %s in %s", Field, Text);
        Offset += Size;
        if (Comma == std::string::npos)
          break;
        Start = Comma + 1;
      }
      A.Bytes = (Offset + MaxAlign - 1) / MaxAlign * MaxAlign;
    } else {
      A.Type = Kind;
      A.Bytes = typeSize(Kind);
      if (!A.Bytes || !evalInto(Kind, Rest, 0, A.data()))
        return fail("bad scalar %s", Text);
    }
    Args.push_back(A);
  }
  // The arguments must match the kernel's parameters one for one.
  std::vector<void *> Params;
  for (size_t K = 0; K < Args.size(); ++K) {
    if (!Args[K].Param)
      continue;
    size_t Offset = 0, Size = 0, Index = Params.size();
    if (CUresult R = cuFuncGetParamInfo(Fn, Index, &Offset, &Size))
      return fail("argument %s: the kernel has no such parameter (%s)",
                  std::to_string(K), resultName(R));
    if (Size != Args[K].Bytes)
      return fail("argument %s does not have the parameter's size (%s bytes)",
                  std::to_string(K), std::to_string(Size));
    Params.push_back(Args[K].data());
  }
  size_t Offset = 0, Size = 0;
  if (cuFuncGetParamInfo(Fn, Params.size(), &Offset, &Size) == CUDA_SUCCESS)
    return fail("the kernel takes more than %s parameters",
                std::to_string(Params.size()));

  std::string WantStatus = "CUDA_SUCCESS";
  std::vector<std::string> Checks;
  for (++I; I < Argc; ++I) {
    std::string C = Argv[I];
    if (C.rfind("status:", 0) == 0)
      WantStatus = C.substr(7);
    else
      Checks.push_back(C);
  }

  CUresult R = cuLaunchKernel(
      Fn, Grid[0], Grid[1], Grid[2], Block[0], Block[1], Block[2], Shared,
      nullptr, Params.empty() ? nullptr : Params.data(), nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  if (WantStatus != resultName(R))
    return fail("the launch gave %s, expected %s", resultName(R), WantStatus);
  if (R != CUDA_SUCCESS) {
    std::printf("PASSED\n");
    return 0;
  }

  int Failures = 0;
  for (const std::string &C : Checks) {
    size_t Colon = C.find(':');
    size_t Index = std::strtoull(C.c_str(), nullptr, 10);
    if (Colon == std::string::npos || Index >= Args.size() || !Args[Index].Dev)
      return fail("bad check %s", C);
    const Arg &A = Args[Index];
    std::string Want = C.substr(Colon + 1);
    double Tol = 0;
    size_t Tilde = Want.find('~');
    if (Tilde != std::string::npos) {
      Tol = std::strtod(Want.c_str() + Tilde + 1, nullptr);
      Want = Want.substr(0, Tilde);
    }
    size_t Elem = typeSize(A.Type);
    std::vector<unsigned char> Got(A.Count * Elem), Expect(Elem);
    if (cuMemcpyDtoH(Got.data(), A.Dev, Got.size()))
      return fail("cannot read back argument %s", std::to_string(Index));
    // A reference check: a name of two or more letters and a call.
    size_t Paren = Want.find('(');
    if (Paren != std::string::npos && Paren >= 2 &&
        std::all_of(
            Want.begin(), Want.begin() + static_cast<long>(Paren), [](char Ch) {
              return std::isalnum(static_cast<unsigned char>(Ch)) || Ch == '_';
            })) {
      std::vector<Buffer> Inputs;
      for (const Arg &B : Args)
        Inputs.push_back(
            {B.Type, B.Count, B.Host.empty() ? nullptr : B.Host.data()});
      std::string Error;
      long N = referenceCheck(C.substr(Colon + 1),
                              {A.Type, A.Count, Got.data()}, Inputs, Error);
      if (N < 0)
        return fail("%s", Error);
      Failures += static_cast<int>(N);
      continue;
    }
    std::vector<std::string> Items;
    bool IsList = parseList(Want, Items);
    if (IsList && Items.size() != A.Count)
      return fail("check %s does not list %s elements", C,
                  std::to_string(A.Count));
    for (size_t E = 0; E < A.Count; ++E) {
      if (!evalInto(A.Type, IsList ? Items[E] : Want, static_cast<int64_t>(E),
                    Expect.data()))
        return fail("bad expression %s", Want);
      bool Same;
      if (Tol > 0 && (A.Type == "f32" || A.Type == "f64")) {
        double G = std::strtod(format(A.Type, &Got[E * Elem]).c_str(), nullptr);
        double X = std::strtod(format(A.Type, Expect.data()).c_str(), nullptr);
        Same = std::fabs(G - X) <= Tol * std::max(1.0, std::fabs(X));
      } else {
        Same = std::memcmp(&Got[E * Elem], Expect.data(), Elem) == 0;
      }
      if (!Same && ++Failures <= 10)
        std::fprintf(stderr, "argument %zu element %zu: got %s, expected %s\n",
                     Index, E, format(A.Type, &Got[E * Elem]).c_str(),
                     format(A.Type, Expect.data()).c_str());
    }
  }
  if (Failures)
    return fail("%s mismatches", std::to_string(Failures));
  for (Arg &A : Args)
    if (A.Dev && A.Param)
      cuMemFree(A.Dev);
  cuModuleUnload(Mod);
  cuCtxDestroy(Ctx);
  std::printf("PASSED\n");
  return 0;
}
