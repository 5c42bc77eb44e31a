//===- Parse.h - Pieces of kernel_runner's command line ---------*- C++ -*-===//
//
// The small shapes that arguments and checks are made of: launch dimensions,
// calls name(a,b,...) and lists [a,b,...].
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_PARSE_H
#define CUCPU_TESTS_KERNELS_PARSE_H

#include <string>
#include <vector>

namespace kernelrunner {

/// Parses "X[,Y[,Z]]" into Dim (missing ones are 1); false if X is missing.
bool parseDim(const char *Text, unsigned Dim[3]);

/// Parses "name(a,b,...)" into its arguments; false if Text is not a call of
/// Name.
bool parseCall(const std::string &Text, const std::string &Name,
               std::vector<std::string> &Out);

/// "[a,b,...]": the list's items, or false.
bool parseList(const std::string &Text, std::vector<std::string> &Out);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_PARSE_H
