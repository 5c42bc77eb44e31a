//===- Parse.cpp - Pieces of kernel_runner's command line -----------------===//
//
// Items are split at every comma: no item of a call or a list holds one.
//
//===----------------------------------------------------------------------===//

#include "Parse.h"

#include <cstdio>

namespace kernelrunner {

namespace {
/// Replaces \p Out with the comma-separated items of \p Inner.
void splitItems(const std::string &Inner, std::vector<std::string> &Out) {
  Out.clear();
  size_t Start = 0;
  for (;;) {
    size_t Comma = Inner.find(',', Start);
    Out.push_back(Inner.substr(Start, Comma - Start));
    if (Comma == std::string::npos)
      return;
    Start = Comma + 1;
  }
}
} // namespace

bool parseDim(const char *Text, unsigned Dim[3]) {
  Dim[0] = Dim[1] = Dim[2] = 1;
  return std::sscanf(Text, "%u,%u,%u", &Dim[0], &Dim[1], &Dim[2]) >= 1;
}

bool parseCall(const std::string &Text, const std::string &Name,
               std::vector<std::string> &Out) {
  if (Text.size() < Name.size() + 2 ||
      Text.compare(0, Name.size() + 1, Name + "(") != 0 || Text.back() != ')')
    return false;
  splitItems(Text.substr(Name.size() + 1, Text.size() - Name.size() - 2), Out);
  return true;
}

bool parseList(const std::string &Text, std::vector<std::string> &Out) {
  if (Text.size() < 2 || Text.front() != '[' || Text.back() != ']')
    return false;
  splitItems(Text.substr(1, Text.size() - 2), Out);
  return true;
}

} // namespace kernelrunner
