//===- References.h - Host references of the reference checks ---*- C++ -*-===//
//
// What a check K:F(A[,B[,C]]) compares buffer K with: the math functions in
// long double, the integer intrinsics on bits, and the IEEE operations and
// conversions in one rounding mode (the OP_MODE names).
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_REFERENCES_H
#define CUCPU_TESTS_KERNELS_REFERENCES_H

#include "Element.h"

#include <cstdint>
#include <string>

namespace kernelrunner {

/// A reference on numbers: the exact result of A[0..Arity) in long double.
using FpRef = long double (*)(const long double *);
/// A reference on bits: the inputs' bits (zero-extended) to the result's.
using IntRef = uint64_t (*)(const uint64_t *);

/// A named host reference of Arity inputs; exactly one of Fp and Int is set.
struct Reference {
  const char *Name; ///< Its generic name: sin checks sinf and sin.
  int Arity;        ///< How many input buffers it takes.
  FpRef Fp;         ///< On numbers, in long double; or
  IntRef Int;       ///< on bits (zero-extended), giving the result's bits.
};

/// The reference of the table named Name, or null (the OP_MODE names are
/// not in the table: roundedOp and toIntegerRef compute them).
const Reference *findReference(const std::string &Name);

/// OP_MODE references: the IEEE operation Op (add sub mul div rcp sqrt fma
/// cvt) in type T (float or double) on the inputs V, in the rounding mode
/// Mode (FE_TONEAREST, ...).
template <typename T>
T roundedOp(const std::string &Op, int Mode, const Value *V);

/// CUDA's float-to-integer conversion (PTX cvt.rni/rzi/rpi/rmi with
/// saturation) of X (of type From) to the integer type To, in rounding mode
/// Mode, as the exact result.
long double toIntegerRef(long double X, int Mode, const std::string &From,
                         const std::string &To);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_REFERENCES_H
