//===- KernelRunner.cpp - Runs one data-driven kernel test ----------------===//
//
// Uses only <cuda.h>. Command line (tests/kernels/CMakeLists.txt builds it
// from one registration line):
//
//   kernel_runner CUBIN KERNEL GX,GY,GZ BX,BY,BZ SHARED [ARG...] -- [CHECK...]
//
// ARG, one per kernel parameter, in order:
//   i32:V u32:V i64:V u64:V f32:V f64:V   a scalar (V is an expression)
//   buf:T[N]=EXPR                         a device buffer of N elements of
//                                         type T, element i set to EXPR(i)
//   rec:T=V,T=V,...                       a struct passed by value, its
//                                         fields at natural alignment
// CHECK, compared after the launch and a cuCtxSynchronize:
//   K:EXPR       every element i of buffer argument K equals EXPR(i)
//   K:EXPR~TOL   ... within TOL (absolute, or relative when larger)
//   status:NAME  the launch or synchronization fails with CUresult NAME
//
// EXPR: integers and decimals, i (the element index), + - * / % & | ^ << >>,
// unary minus and parentheses; evaluated in the element's type (integer
// division for integer types).
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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
  size_t Count = 0;    ///< Elements, for buffers.
  CUdeviceptr Dev = 0; ///< For buffers.
  size_t Bytes = 0;    ///< Size of the parameter.
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
  if (cuDeviceGet(&Dev, 0) || cuCtxCreate(&Ctx, 0, Dev))
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
    if (Kind == "buf") {
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
      std::vector<unsigned char> Host(A.Count * Elem);
      for (size_t E = 0; E < A.Count; ++E)
        if (!evalInto(A.Type, Init, static_cast<int64_t>(E), &Host[E * Elem]))
          return fail("bad expression %s", Init);
      if (cuMemAlloc(&A.Dev, Host.size()) ||
          cuMemcpyHtoD(A.Dev, Host.data(), Host.size()))
        return fail("cannot allocate %s", Text);
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
    size_t Offset = 0, Size = 0;
    if (CUresult R = cuFuncGetParamInfo(Fn, K, &Offset, &Size))
      return fail("argument %s: the kernel has no such parameter (%s)",
                  std::to_string(K), resultName(R));
    if (Size != Args[K].Bytes)
      return fail("argument %s does not have the parameter's size (%s bytes)",
                  std::to_string(K), std::to_string(Size));
    Params.push_back(Args[K].data());
  }
  size_t Offset = 0, Size = 0;
  if (cuFuncGetParamInfo(Fn, Args.size(), &Offset, &Size) == CUDA_SUCCESS)
    return fail("the kernel takes more than %s parameters",
                std::to_string(Args.size()));

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
    for (size_t E = 0; E < A.Count; ++E) {
      if (!evalInto(A.Type, Want, static_cast<int64_t>(E), Expect.data()))
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
    if (A.Dev)
      cuMemFree(A.Dev);
  cuModuleUnload(Mod);
  cuCtxDestroy(Ctx);
  std::printf("PASSED\n");
  return 0;
}
