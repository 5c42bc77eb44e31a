//===- Architectures.cpp - The GPU architectures nvcc accepts -------------===//

#include "Architectures.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace cucpu::cucc {

namespace {
/// One architecture number and the variants nvcc accepts for it.
struct KnownArch {
  unsigned Number;
  bool Specific; ///< sm_XXa exists.
  bool Family;   ///< sm_XXf exists.
  bool Listed;   ///< nvcc 13.0 accepts it (and lists it; `all` has it).
  bool Major;    ///< `all-major` has it.
};
} // namespace

// nvcc 13.0's `--list-gpu-code`, in its order, plus the architectures nvcc
// 12.x accepted and 13.0 dropped (sm_50 ... sm_72; sm_101, which 13.0 renamed
// sm_110): programs written for either toolkit pass them, and they all name
// the same IR here. The a/f variants are those nvcc accepts for -arch
// (checked with nvcc 13.0 --dryrun; sm_101a/f from 12.9).
static constexpr KnownArch Known[] = {
    {50, false, false, false, false}, {52, false, false, false, false},
    {53, false, false, false, false}, {60, false, false, false, false},
    {61, false, false, false, false}, {62, false, false, false, false},
    {70, false, false, false, false}, {72, false, false, false, false},
    {75, false, false, true, true},   {80, false, false, true, true},
    {86, false, false, true, false},  {87, false, false, true, false},
    {88, false, false, true, false},  {89, false, false, true, false},
    {90, true, false, true, true},    {100, true, true, true, true},
    {101, true, true, false, false},  {110, true, true, true, true},
    {103, true, true, true, false},   {120, true, true, true, true},
    {121, true, true, true, false},
};

// The CUDA architectures clang 19 accepts for --cuda-gpu-arch (the NVIDIA
// ones since Maxwell; older ones are never needed as a stand-in).
static constexpr unsigned ClangKnown[] = {50, 52, 53, 60, 61, 62, 70,
                                          72, 75, 80, 86, 87, 89, 90};

static Error unsupported(StringRef Name) {
  return createStringError(inconvertibleErrorCode(),
                           formatv("Unsupported gpu architecture '{0}'", Name));
}

Expected<std::string> normalizeArch(StringRef Name) {
  // `native` is the GPU of the machine that compiles; for cucpu that is its
  // CPU device, which reports compute capability 7.5.
  if (Name == "native")
    return DefaultArch.str();
  StringRef Digits = Name;
  // nvcc spells virtual architectures compute_XX and real ones sm_XX; cucc
  // has one target, so both name the IR's sm_XX.
  if (!Digits.consume_front("sm_") && !Digits.consume_front("compute_"))
    return unsupported(Name);
  char Suffix = 0;
  if (Digits.ends_with("a") || Digits.ends_with("f")) {
    Suffix = Digits.back();
    Digits = Digits.drop_back();
  }
  unsigned Number = 0;
  if (Digits.empty() || Digits.getAsInteger(10, Number))
    return unsupported(Name);
  const KnownArch *Arch =
      find_if(Known, [&](const KnownArch &A) { return A.Number == Number; });
  if (Arch == std::end(Known) || (Suffix == 'a' && !Arch->Specific) ||
      (Suffix == 'f' && !Arch->Family))
    return unsupported(Name);
  std::string Result = ("sm_" + Twine(Number)).str();
  if (Suffix)
    Result += Suffix;
  return Result;
}

Expected<std::vector<std::string>> expandArch(StringRef Name) {
  if (Name == "all" || Name == "all-major") {
    std::vector<std::string> Archs;
    for (const KnownArch &A : Known)
      if (A.Listed && (Name == "all" || A.Major))
        Archs.push_back(("sm_" + Twine(A.Number)).str());
    return Archs;
  }
  Expected<std::string> Arch = normalizeArch(Name);
  if (!Arch)
    return Arch.takeError();
  return std::vector<std::string>{*Arch};
}

std::vector<std::string> listedArchs(bool Virtual) {
  std::vector<std::string> Names;
  for (const KnownArch &A : Known)
    if (A.Listed)
      Names.push_back(((Virtual ? "compute_" : "sm_") + Twine(A.Number)).str());
  return Names;
}

/// The number of sm_XX[a|f].
static unsigned archNumber(StringRef Arch) {
  unsigned Number = 0;
  Arch.drop_front(3).rtrim("af").getAsInteger(10, Number);
  return Number;
}

unsigned cudaArchValue(StringRef Arch) { return archNumber(Arch) * 10; }

std::string clangArch(StringRef Arch) {
  unsigned Number = archNumber(Arch);
  // sm_90a is the only variant clang 19 has; its extra builtins (wgmma, ...)
  // are what sm_90a code may use.
  if (Number == 90 && Arch.ends_with("a"))
    return "sm_90a";
  unsigned Best = ClangKnown[0];
  for (unsigned Known : ClangKnown)
    if (Known <= Number)
      Best = Known;
  return ("sm_" + Twine(Best)).str();
}

std::vector<std::string> archMacros(StringRef Arch,
                                    ArrayRef<std::string> AllArchs) {
  unsigned Value = cudaArchValue(Arch);
  std::vector<std::string> Flags = {
      // clang defines __CUDA_ARCH__ for the architecture it is run with,
      // which is older than Arch when clang does not know Arch.
      "-U__CUDA_ARCH__",
      "-D__CUDA_ARCH__=" + std::to_string(Value),
  };
  // As nvcc defines it (seen with --dryrun): the __CUDA_ARCH__ values of all
  // the compilation's architectures, ascending, separated by commas.
  SmallVector<unsigned, 8> Values;
  for (const std::string &A : AllArchs)
    Values.push_back(cudaArchValue(A));
  llvm::sort(Values);
  Values.erase(std::unique(Values.begin(), Values.end()), Values.end());
  std::string List;
  for (unsigned V : Values)
    List += (List.empty() ? "" : ",") + std::to_string(V);
  Flags.push_back("-D__CUDA_ARCH_LIST__=" + List);
  if (Arch.ends_with("a")) {
    Flags.push_back("-D__CUDA_ARCH_SPECIFIC__=" + std::to_string(Value));
    Flags.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + std::to_string(Value));
    Flags.push_back("-D__CUDA_ARCH_FEAT_SM" + std::to_string(Value / 10) +
                    "_ALL");
  } else if (Arch.ends_with("f")) {
    Flags.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + std::to_string(Value));
  }
  return Flags;
}

} // namespace cucpu::cucc
