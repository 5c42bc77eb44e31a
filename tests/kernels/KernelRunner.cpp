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
//                `References` in References.cpp). Without BOUND the bits must
//                be the reference rounded to K's type exactly (any NaN matches
//                any NaN); each BOUND is `<n>ulp` (at most n steps between
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
//                see toIntegerRef in References.cpp); cast_rz is a C++
//                cast as the GPU makes it (8- and 16-bit results are the
//                low bits of the saturated 32-bit conversion). Integer
//                references (popc, clz32, ..., bits) take the inputs' bits and
//                give the result's bits.
//   status:NAME  the launch or synchronization fails with CUresult NAME
//
// EXPR: integers and decimals, i (the element index), + - * / % & | ^ << >>,
// unary minus and parentheses; evaluated in the element's type (integer
// division for integer types).
//
// The parts: Expr.h (EXPR), Element (element types), Parse (pieces of the
// command line), BufferInit (INIT), Args (ARGs), Launch (the driver API),
// Checks (CHECKs), ReferenceCheck, References and Ulp.h (reference checks),
// Report (messages); this file only runs them in order.
//
//===----------------------------------------------------------------------===//
#include "Args.h"
#include "Checks.h"
#include "Launch.h"
#include "Parse.h"
#include "Report.h"

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace kernelrunner;

int main(int Argc, char **Argv) {
  if (Argc < 6)
    return fail("usage: kernel_runner CUBIN KERNEL GRID BLOCK SHARED [ARG...] "
                "-- [CHECK...]");
  unsigned Grid[3], Block[3];
  if (!parseDim(Argv[3], Grid) || !parseDim(Argv[4], Block))
    return fail("bad grid or block: %s %s", Argv[3], Argv[4]);
  unsigned Shared = static_cast<unsigned>(std::strtoul(Argv[5], nullptr, 0));

  Kernel K;
  if (int Status = loadKernel(Argv[1], Argv[2], K))
    return Status;

  std::vector<Arg> Args;
  int I = 6;
  for (; I < Argc && std::strcmp(Argv[I], "--") != 0; ++I) {
    Arg A;
    if (int Status = parseArg(Argv[I], K.Mod, A))
      return Status;
    Args.push_back(A);
  }
  std::vector<void *> Params;
  if (int Status = kernelParams(K.Fn, Args, Params))
    return Status;

  std::string WantStatus = "CUDA_SUCCESS";
  std::vector<std::string> Checks;
  for (++I; I < Argc; ++I) {
    std::string C = Argv[I];
    if (C.rfind("status:", 0) == 0)
      WantStatus = C.substr(7);
    else
      Checks.push_back(C);
  }

  CUresult R = launch(K, Grid, Block, Shared, Params);
  if (WantStatus != resultName(R))
    return fail("the launch gave %s, expected %s", resultName(R), WantStatus);
  if (R != CUDA_SUCCESS) {
    std::printf("PASSED\n");
    return 0;
  }

  if (int Status = runChecks(Checks, Args))
    return Status;
  release(K, Args);
  std::printf("PASSED\n");
  return 0;
}
