//===- PerfMap.cpp - JIT-compiled kernels by name for perf ----------------===//
//
// The map is perf's text format, one "START SIZE NAME" line (hex, no 0x) per
// function. Lines are appended with one write() each to a file opened with
// O_APPEND, so concurrent links never interleave within a line. Unloaded
// code stays in the map: perf reads it after the process ended, and an
// address reused by a later module gets a later line, which perf prefers.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/PerfMap.h"

#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace llvm::orc;
using namespace cucpu::modules;

namespace {

/// The map file, opened once; -1 if it cannot be written.
int mapFile() {
  static const int FD = ::open(perfMapPath().c_str(),
                               O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  return FD;
}

class PerfMapPlugin : public ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(MaterializationResponsibility &, jitlink::LinkGraph &,
                        jitlink::PassConfiguration &Config) override {
    Config.PostFixupPasses.push_back(
        [this](jitlink::LinkGraph &G) { return write(G); });
  }
  Error notifyFailed(MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(JITDylib &, ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(JITDylib &, ResourceKey,
                                   ResourceKey) override {}

private:
  /// Appends a line for each function of \p G, now at its final address.
  Error write(jitlink::LinkGraph &G) {
    int FD = mapFile();
    if (FD < 0)
      return Error::success();
    for (jitlink::Symbol *S : G.defined_symbols()) {
      if (!S->hasName() || S->getSize() == 0 || !S->isCallable())
        continue;
      std::string Line;
      raw_string_ostream OS(Line);
      OS << format_hex_no_prefix(S->getAddress().getValue(), 1) << ' '
         << format_hex_no_prefix(S->getSize(), 1) << ' '
         << perfMapName(S->getName()) << '\n';
      OS.flush();
      (void)!::write(FD, Line.data(), Line.size());
    }
    return Error::success();
  }
};

} // namespace

bool cucpu::modules::perfMapRequested() {
  const char *Env = std::getenv("CUCPU_PERF");
  return Env && std::strcmp(Env, "1") == 0;
}

std::string cucpu::modules::perfMapPath() {
  return "/tmp/perf-" + std::to_string(::getpid()) + ".map";
}

std::string cucpu::modules::perfMapName(StringRef Symbol) {
  static const struct {
    StringRef Prefix;
    StringRef Role;
  } Roles[] = {{BlockPrefix, "block"},
               {ThreadEntryPrefix, "thread"},
               {WorkPrefix, "work"}};
  for (const auto &R : Roles) {
    if (!Symbol.starts_with(R.Prefix))
      continue;
    StringRef Kernel = Symbol.drop_front(R.Prefix.size());
    // A block function specialized for one block shape: "<kernel>.XxYxZ".
    StringRef Shape;
    if (size_t Dot = Kernel.rfind('.'); Dot != StringRef::npos) {
      StringRef Suffix = Kernel.substr(Dot + 1);
      if (Suffix.count('x') == 2 &&
          Suffix.find_first_not_of("0123456789x") == StringRef::npos) {
        Shape = Suffix;
        Kernel = Kernel.take_front(Dot);
      }
    }
    std::string Name = demangle(Kernel) + " [cucpu " + R.Role.str();
    if (!Shape.empty())
      Name += " " + Shape.str();
    return Name + "]";
  }
  return demangle(Symbol);
}

void cucpu::modules::writePerfMap(ObjectLinkingLayer &Layer) {
  Layer.addPlugin(std::make_unique<PerfMapPlugin>());
}
