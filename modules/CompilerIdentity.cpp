//===- CompilerIdentity.cpp - Which code compiles the kernels -------------===//
#include "cucpu/modules/CompilerIdentity.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <elf.h>
#include <link.h>

#include <cstring>
#include <vector>

using namespace cucpu::modules;

namespace {

/// A loaded binary: its file name and build id (empty if it has none).
struct LoadedBinary {
  std::string Path;
  std::string BuildId;
};

/// The build id among the PT_NOTE segments of \p Info, in hex.
std::string buildIdIn(const dl_phdr_info &Info) {
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &H = Info.dlpi_phdr[I];
    if (H.p_type != PT_NOTE)
      continue;
    const char *At = reinterpret_cast<const char *>(Info.dlpi_addr + H.p_vaddr);
    const char *End = At + H.p_memsz;
    while (End - At >= long(sizeof(ElfW(Nhdr)))) {
      const auto *N = reinterpret_cast<const ElfW(Nhdr) *>(At);
      const char *Name = At + sizeof(*N);
      const char *Desc = Name + ((N->n_namesz + 3) & ~3u);
      if (Desc + N->n_descsz > End)
        break;
      if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
          std::memcmp(Name, "GNU", 4) == 0)
        return llvm::toHex(
            llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Desc),
                                    N->n_descsz),
            /*LowerCase=*/true);
      At = Desc + ((N->n_descsz + 3) & ~3u);
    }
  }
  return {};
}

/// Whether a loadable segment of \p Info holds \p Address.
bool holds(const dl_phdr_info &Info, uintptr_t Address) {
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &H = Info.dlpi_phdr[I];
    uintptr_t Start = Info.dlpi_addr + H.p_vaddr;
    if (H.p_type == PT_LOAD && Address >= Start && Address - Start < H.p_memsz)
      return true;
  }
  return false;
}

/// The name of a loaded binary ("" for the main program).
llvm::StringRef nameOf(const dl_phdr_info &Info) {
  return Info.dlpi_name ? Info.dlpi_name : "";
}

/// Every loaded binary that \p Match accepts.
std::vector<LoadedBinary>
findBinaries(llvm::function_ref<bool(const dl_phdr_info &)> Match) {
  struct Search {
    llvm::function_ref<bool(const dl_phdr_info &)> Match;
    std::vector<LoadedBinary> Found;
  } S{Match, {}};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) -> int {
        auto *S = static_cast<Search *>(Data);
        if (S->Match(*Info))
          S->Found.push_back({nameOf(*Info).str(), buildIdIn(*Info)});
        return 0;
      },
      &S);
  return S.Found;
}

/// \p Binary's build id, or a hash of its file when it has none.
std::string identify(const LoadedBinary &Binary) {
  if (!Binary.BuildId.empty())
    return Binary.BuildId;
  std::string Path = Binary.Path.empty() ? "/proc/self/exe" : Binary.Path;
  auto File = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!File)
    return "unreadable:" + Path;
  return "xxh3:" + llvm::utohexstr(llvm::xxh3_64bits((*File)->getBuffer()));
}

} // namespace

std::string cucpu::modules::buildIdOf(const void *Address) {
  auto At = reinterpret_cast<uintptr_t>(Address);
  std::vector<LoadedBinary> Found = findBinaries(
      [At](const dl_phdr_info &Info) { return At && holds(Info, At); });
  return Found.empty() ? std::string() : Found.front().BuildId;
}

const std::string &cucpu::modules::compilerIdentity() {
  static const std::string Identity = [] {
    std::string Id = std::string("sources ") + compilerSourceId() +
                     "\nllvm " LLVM_VERSION_STRING "\n";
    for (const LoadedBinary &B : findBinaries([](const dl_phdr_info &Info) {
           return nameOf(Info).contains("libLLVM");
         }))
      Id += "libLLVM " + identify(B) + "\n";
    return Id;
  }();
  return Identity;
}
