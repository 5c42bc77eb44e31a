//===- Element.cpp - Element types of buffers and scalars -----------------===//
//
// Integer types go through Expr<int64_t> and are truncated to their width;
// f32 and f64 through Expr<double>.
//
//===----------------------------------------------------------------------===//

#include "Element.h"

#include "Expr.h"

#include <cstdio>
#include <cstring>

namespace kernelrunner {

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

std::string formatElement(const std::string &T, const void *P) {
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

} // namespace kernelrunner
