//===- ReferenceCheck.cpp - Checks K:F(A[,B[,C]])[~BOUND,...] -------------===//
//
// Without a bound a floating-point result must be the reference rounded to
// its type exactly; with bounds the error is measured from that correctly
// rounded result, as CUDA states its bounds (Ulp.h).
//
//===----------------------------------------------------------------------===//

#include "ReferenceCheck.h"

#include "Element.h"
#include "References.h"
#include "Ulp.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace kernelrunner {

namespace {
/// The type a C++ cast to integer type \p To converts to on the GPU: 8-
/// and 16-bit results are the low bits of the 32-bit conversion of the same
/// signedness (nvcc's cvt.rzi.s32/u32, then a truncation).
std::string castType(const std::string &To) {
  if (To == "i8" || To == "i16")
    return "i32";
  if (To == "u8" || To == "u16")
    return "u32";
  return To;
}
} // namespace

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
  const Reference *Ref = findReference(Name);
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
    else if (Op == "rcp" || Op == "sqrt" || Op == "cvt" || Op == "cast")
      Arity = 1;
    else if (Op == "fma")
      Arity = 3;
    else
      Mode = -1;
    if (Op != "cvt" && Op != "cast" && Out.Type != "f32" && Out.Type != "f64")
      Mode = -1;
    if (Op == "cast" && (Out.Type == "f32" || Out.Type == "f64"))
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
        R = toIntegerRef(Num[0], Mode, V[0].Type,
                         Op == "cast" ? castType(Out.Type) : Out.Type);
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

} // namespace kernelrunner
