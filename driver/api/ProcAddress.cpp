//===- ProcAddress.cpp - cuGetProcAddress ---------------------------------===//
//
// CUDA 11.3 added cuGetProcAddress and CUDA 12.0 cuGetProcAddress_v2 (the
// one cuda.h maps the plain name to): given a base name such as "cuMemAlloc",
// the CUDA version a program was written for and a stream mode, they return
// the entry point with the ABI of that version. The CUDA runtime fetches all
// of its driver entry points this way, before calling cuInit.
//
// Two tables drive it, both X-macro lists: Exports.def gives the address of
// every exported symbol and ProcVersions.def the (base, version, symbol) rows.
//
//===----------------------------------------------------------------------===//
#include "core/EntryPoint.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

using namespace cucpu;

namespace cucpu::exports {
// One declaration per exported symbol under an internal C++ name, bound to
// the real symbol by an asm label, so the parameterless declarations do not
// clash with cuda.h's prototypes. Each macro uses its argument only with # and
// ##, which keeps cuda.h's renaming macros (cuMemAlloc -> cuMemAlloc_v2) from
// expanding it; forwarding Name to a helper macro would expand it.
#define CU_IMPL(Name) void Name##_() __asm__(#Name);
#define CU_ALIAS(Name, Target) void Name##_() __asm__(#Name);
#define CU_LEGACY(Name) void Name##_() __asm__(#Name);
#define CU_TODO(Name) void Name##_() __asm__(#Name);
#include "api/Exports.def"
#undef CU_IMPL
#undef CU_ALIAS
#undef CU_LEGACY
#undef CU_TODO
} // namespace cucpu::exports

namespace {

struct ExportedSymbol {
  std::string_view Name;
  void (*Address)();
};

struct ProcRow {
  std::string_view Base;
  int Version;
  std::string_view Symbol;
  int PtVersion; // 0 when there is no per-thread twin.
  std::string_view PtSymbol;
};

#define CU_IMPL(Name) {#Name, &exports::Name##_},
#define CU_ALIAS(Name, Target) {#Name, &exports::Name##_},
#define CU_LEGACY(Name) {#Name, &exports::Name##_},
#define CU_TODO(Name) {#Name, &exports::Name##_},
constexpr ExportedSymbol ExportList[] = {
#include "api/Exports.def"
};
#undef CU_IMPL
#undef CU_ALIAS
#undef CU_LEGACY
#undef CU_TODO

#define CU_PROC(Base, Version, Symbol) {#Base, Version, #Symbol, 0, {}},
#define CU_PROC_PT(Base, Version, Symbol, PtVersion, PtSymbol)                 \
  {#Base, Version, #Symbol, PtVersion, #PtSymbol},
constexpr ProcRow ProcRows[] = {
#include "api/ProcVersions.def"
};
#undef CU_PROC
#undef CU_PROC_PT

// Rows ordered by base name, then version, so that one base's rows are
// adjacent and ascending.
constexpr bool procRowLess(const ProcRow &A, const ProcRow &B) {
  return A.Base != B.Base ? A.Base < B.Base : A.Version < B.Version;
}
static_assert(std::is_sorted(std::begin(ProcRows), std::end(ProcRows),
                             procRowLess),
              "ProcVersions.def must be sorted by base name, then version");

/// The exported symbols sorted by name, built on first use.
const std::array<ExportedSymbol, std::size(ExportList)> &sortedExports() {
  static const auto Sorted = [] {
    std::array<ExportedSymbol, std::size(ExportList)> A;
    std::copy(std::begin(ExportList), std::end(ExportList), A.begin());
    std::sort(A.begin(), A.end(),
              [](const ExportedSymbol &L, const ExportedSymbol &R) {
                return L.Name < R.Name;
              });
    return A;
  }();
  return Sorted;
}

void *addressOf(std::string_view Name) {
  const auto &Exports = sortedExports();
  auto It = std::lower_bound(
      Exports.begin(), Exports.end(), Name,
      [](const ExportedSymbol &E, std::string_view N) { return E.Name < N; });
  if (It == Exports.end() || It->Name != Name)
    return nullptr;
  return reinterpret_cast<void *>(It->Address);
}

/// The CUDA version whose API cucpu implements; cuDriverGetVersion reports
/// the same number.
constexpr int DriverVersion = CUDA_VERSION;

/// The lookup both entry points share. Fills *Pfn and *Status (if given) and
/// returns the error to report. A name that is missing, or too new for
/// \p CudaVersion, is an error (CUDA_ERROR_NOT_FOUND) only in the CUDA 11.3
/// form; the form with a status answers CUDA_SUCCESS with a NULL function
/// and says why in the status, as NVIDIA's driver does, even when the
/// status pointer is NULL.
llvm::Error lookup(const char *Symbol, void **Pfn, int CudaVersion,
                   cuuint64_t Flags, CUdriverProcAddressQueryResult *Status,
                   bool StatusForm) {
  auto Missing = [&](CUdriverProcAddressQueryResult Why,
                     const std::string &Message) -> llvm::Error {
    if (Status)
      *Status = Why;
    if (StatusForm)
      return llvm::Error::success();
    return makeError(CUDA_ERROR_NOT_FOUND, Message);
  };
  CU_INVALID_IF(!Pfn, CUDA_ERROR_INVALID_VALUE,
                "The function pointer output is NULL.");
  *Pfn = nullptr;
  CU_INVALID_IF(!Symbol, CUDA_ERROR_INVALID_VALUE, "The symbol name is NULL.");
  // LEGACY_STREAM and PER_THREAD_DEFAULT_STREAM exclude each other; asking
  // for both has no meaning.
  CU_INVALID_IF(Flags != CU_GET_PROC_ADDRESS_DEFAULT &&
                    Flags != CU_GET_PROC_ADDRESS_LEGACY_STREAM &&
                    Flags != CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                CUDA_ERROR_INVALID_VALUE,
                "The flags {0:x} are not one of CU_GET_PROC_ADDRESS_DEFAULT, "
                "_LEGACY_STREAM or _PER_THREAD_DEFAULT_STREAM.",
                static_cast<unsigned long long>(Flags));
  // CUDA 13.0, cuGetProcAddress: "If the specified CUDA version is greater
  // than the driver version, the API will return CUDA_ERROR_INVALID_VALUE."
  CU_INVALID_IF(CudaVersion > DriverVersion, CUDA_ERROR_INVALID_VALUE,
                "CUDA version {0} is newer than the driver's ({1}).",
                CudaVersion, DriverVersion);

  std::string_view Base(Symbol);
  auto [First, Last] = std::equal_range(
      std::begin(ProcRows), std::end(ProcRows), ProcRow{Base, 0, {}, 0, {}},
      [](const ProcRow &A, const ProcRow &B) { return A.Base < B.Base; });
  if (First == Last)
    return Missing(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND,
                   llvm::formatv("No driver function is named {0}; pass the "
                                 "base name, without _v2/_ptds/_ptsz.",
                                 Base)
                       .str());
  // The newest ABI of the name that the requested version already had.
  const ProcRow *Row = nullptr;
  for (const ProcRow *It = First; It != Last && It->Version <= CudaVersion;
       ++It)
    Row = It;
  if (!Row)
    return Missing(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT,
                   llvm::formatv("{0} was introduced in CUDA version {1}, "
                                 "after the requested version {2}.",
                                 Base, First->Version, CudaVersion)
                       .str());
  // CU_GET_PROC_ADDRESS_DEFAULT means legacy stream here: a program built
  // for per-thread default streams passes PER_THREAD_DEFAULT_STREAM itself
  // (cuda.h's cuGetProcAddress_v2_ptsz wrapper adds it).
  bool PerThread = Flags == CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM &&
                   Row->PtVersion != 0 && CudaVersion >= Row->PtVersion;
  std::string_view Chosen = PerThread ? Row->PtSymbol : Row->Symbol;
  void *Address = addressOf(Chosen);
  CU_INVALID_IF(!Address, CUDA_ERROR_UNKNOWN,
                "{0} is listed in ProcVersions.def but not in Exports.def.",
                Chosen);
  *Pfn = Address;
  if (Status)
    *Status = CU_GET_PROC_ADDRESS_SUCCESS;
  return llvm::Error::success();
}

} // namespace

// Both forms work before cuInit: the CUDA runtime resolves every driver entry
// point, cuInit included, through them.

CUCPU_EXPORT CUresult CUDAAPI cuGetProcAddress_v2(
    const char *Symbol, void **Pfn, int CudaVersion, cuuint64_t Flags,
    CUdriverProcAddressQueryResult *SymbolStatus) {
  return CU_ENTRY(Symbol, Pfn, CudaVersion, Flags, SymbolStatus)
      .runBeforeInit([&]() -> llvm::Error {
        return lookup(Symbol, Pfn, CudaVersion, Flags, SymbolStatus,
                      /*StatusForm=*/true);
      });
}

// cuda.h maps the plain name to the _v2 form; the CUDA 11.3 form keeps the
// plain symbol.
#undef cuGetProcAddress
CUCPU_EXPORT CUresult CUDAAPI cuGetProcAddress(const char *Symbol, void **Pfn,
                                               int CudaVersion,
                                               cuuint64_t Flags);

CUCPU_EXPORT CUresult CUDAAPI cuGetProcAddress(const char *Symbol, void **Pfn,
                                               int CudaVersion,
                                               cuuint64_t Flags) {
  return CU_ENTRY(Symbol, Pfn, CudaVersion, Flags)
      .runBeforeInit([&]() -> llvm::Error {
        return lookup(Symbol, Pfn, CudaVersion, Flags, nullptr,
                      /*StatusForm=*/false);
      });
}
