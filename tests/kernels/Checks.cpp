//===- Checks.cpp - The CHECKs of a kernel test ---------------------------===//
//
// The mismatches of all the checks share one count: an expression check
// prints a mismatch only while that count is at most ten, so a broken kernel
// does not flood the log (a reference check prints its own first ten).
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include "Element.h"
#include "Parse.h"
#include "ReferenceCheck.h"
#include "Report.h"

#include <cuda.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kernelrunner {
namespace {

// A reference check: a name of two or more letters and a call.
bool isReferenceCheck(const std::string &Want) {
  size_t Paren = Want.find('(');
  return Paren != std::string::npos && Paren >= 2 &&
         std::all_of(Want.begin(), Want.begin() + static_cast<long>(Paren),
                     [](char Ch) {
                       return std::isalnum(static_cast<unsigned char>(Ch)) ||
                              Ch == '_';
                     });
}

// K:EXPR[~TOL] or K:[E0,...] (Want, without ~TOL) on the Count elements of A
// read back into Got; Failures counts the mismatches of all the checks, and
// only the first ten are printed.
int expressionCheck(const std::string &C, size_t Index, const Arg &A,
                    const std::string &Want, double Tol,
                    const unsigned char *Got, int &Failures) {
  size_t Elem = typeSize(A.Type);
  std::vector<unsigned char> Expect(Elem);
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
      double G =
          std::strtod(formatElement(A.Type, Got + E * Elem).c_str(), nullptr);
      double X =
          std::strtod(formatElement(A.Type, Expect.data()).c_str(), nullptr);
      Same = std::fabs(G - X) <= Tol * std::max(1.0, std::fabs(X));
    } else {
      Same = std::memcmp(Got + E * Elem, Expect.data(), Elem) == 0;
    }
    if (!Same && ++Failures <= 10)
      std::fprintf(stderr, "argument %zu element %zu: got %s, expected %s\n",
                   Index, E, formatElement(A.Type, Got + E * Elem).c_str(),
                   formatElement(A.Type, Expect.data()).c_str());
  }
  return 0;
}

} // namespace

int runChecks(const std::vector<std::string> &Checks,
              const std::vector<Arg> &Args) {
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
    std::vector<unsigned char> Got(A.Count * Elem);
    if (cuMemcpyDtoH(Got.data(), A.Dev, Got.size()))
      return fail("cannot read back argument %s", std::to_string(Index));
    if (isReferenceCheck(Want)) {
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
    if (int Status =
            expressionCheck(C, Index, A, Want, Tol, Got.data(), Failures))
      return Status;
  }
  if (Failures)
    return fail("%s mismatches", std::to_string(Failures));
  return 0;
}

} // namespace kernelrunner
