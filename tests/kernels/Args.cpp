//===- Args.cpp - The ARGs of a kernel test -------------------------------===//
//
// Buffers are copied to the device here, before the launch; module variables
// are not kernel parameters, so they are marked (Param) rather than left out:
// a check numbers the ARGs as written.
//
//===----------------------------------------------------------------------===//

#include "Args.h"

#include "BufferInit.h"
#include "Element.h"
#include "Report.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace kernelrunner {
namespace {

// buf:T[N]=INIT and global:NAME:T[N]=INIT; Rest follows "Kind:".
int parseBuffer(const std::string &Text, const std::string &Kind,
                std::string Rest, CUmodule Mod, Arg &A) {
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
  return 0;
}

// rec:T=V,T=V,...; Rest follows "rec:".
int parseRecord(const std::string &Text, const std::string &Rest, Arg &A) {
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
  return 0;
}

// T:V; Rest follows "T:".
int parseScalar(const std::string &Text, const std::string &Kind,
                const std::string &Rest, Arg &A) {
  A.Type = Kind;
  A.Bytes = typeSize(Kind);
  if (!A.Bytes || !evalInto(Kind, Rest, 0, A.data()))
    return fail("bad scalar %s", Text);
  return 0;
}

} // namespace

int parseArg(const std::string &Text, CUmodule Mod, Arg &A) {
  size_t Colon = Text.find(':');
  if (Colon == std::string::npos)
    return fail("bad argument %s", Text);
  std::string Kind = Text.substr(0, Colon), Rest = Text.substr(Colon + 1);
  if (Kind == "buf" || Kind == "global")
    return parseBuffer(Text, Kind, Rest, Mod, A);
  if (Kind == "rec")
    return parseRecord(Text, Rest, A);
  return parseScalar(Text, Kind, Rest, A);
}

} // namespace kernelrunner
