//===- Element.h - Element types of buffers and scalars ---------*- C++ -*-===//
//
// The element types of kernel_runner's arguments, named as on the command
// line (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64): their sizes, expressions
// evaluated into them, and their values printed and read back.
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_ELEMENT_H
#define CUCPU_TESTS_KERNELS_ELEMENT_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace kernelrunner {

/// The size in bytes of element type T, or 0 if T names none.
size_t typeSize(const std::string &T);

/// Evaluates the expression Text at index I in type T into Out (typeSize(T)
/// bytes); false if Text is malformed or T names no type.
bool evalInto(const std::string &T, const std::string &Text, int64_t I,
              void *Out);

/// The element of type T at P as text for messages: %.9g for f32, %.17g for
/// f64, decimal for integers.
std::string formatElement(const std::string &T, const void *P);

/// One element of a buffer, seen by a reference function: as a number and
/// as its bits (zero-extended).
struct Value {
  long double Num = 0; ///< The value (integers sign- or zero-extended).
  uint64_t Bits = 0;   ///< The element's bytes, zero-extended.
  std::string Type;    ///< Its element type.
};

/// Reads the element of type Type at P.
Value readValue(const std::string &Type, const unsigned char *P);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_ELEMENT_H
