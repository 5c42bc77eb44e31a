//===- Registry.cpp - Fat binaries, kernels and variables of the program --===//
#include "Registry.h"
#include "Errors.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace cucpu;
using namespace cucpu::rt;

namespace {

/// What a compiler's host code passes to __cudaRegisterFatBinary: nvcc's
/// and clang's __fatBinC_Wrapper_t.
struct FatBinaryWrapper {
  int Magic;   ///< 0x466243b1.
  int Version; ///< 1 (2 for nvcc's relocatable device code).
  const void *Data;
  void *FileNameOrFatBinaries;
};
constexpr int FatBinaryWrapperMagic = 0x466243b1;

/// One registered fat binary, or, for relocatable device code
/// (-rdc=true), the fat binaries of every translation unit of one linked
/// program or library (Parts), linked into one image when first loaded.
/// It is loaded as a context-independent library, as CUDA 12's runtime
/// loads it: cudaGetKernel's kernels are the library's, and each context's
/// module (by context id) is the library's module there, so a kernel handle
/// and the kernel's host stub reach the same variables.
struct FatBinary {
  const FatBinaryWrapper *Wrapper = nullptr;
  std::vector<const FatBinaryWrapper *> Parts;
  CUlibrary Library = nullptr;
  std::map<uint64_t, CUmodule> Modules;
};

/// The size of the fat binary a wrapper points at, from its header
/// (magic 0xBA55ED50, version, header size, then the size of what follows).
size_t fatBinarySize(const FatBinaryWrapper &W) {
  struct Header {
    uint32_t Magic;
    uint16_t Version;
    uint16_t HeaderSize;
    uint64_t FatSize;
  } H;
  std::memcpy(&H, W.Data, sizeof(H));
  return H.Magic == 0xBA55ED50u ? H.HeaderSize + H.FatSize : 0;
}

struct KernelEntry {
  FatBinary *Binary;
  std::string Name;
};

struct VariableEntry {
  FatBinary *Binary;
  std::string Name;
  size_t Size;
};

/// A texture<> variable: its module's texture reference, and whether the
/// variable reads integer texels as normalized floats.
struct TextureEntry {
  FatBinary *Binary;
  std::string Name;
  bool NormalizedFloat;
};

/// A __managed__ variable: host code reaches it through *Slot (cucc's
/// host pass, tools/cucc/ManagedVariables.h), which points at the host
/// shadow until the variable's module is loaded, then at the module's
/// variable in the context that loaded it last (BoundTo, a context id).
struct ManagedEntry {
  FatBinary *Binary;
  std::string Name;
  size_t Size;
  void **Slot;
  void *Shadow;
  uint64_t BoundTo = 0;
  /// Whether *Slot holds the variable's value. Until the first binding it
  /// does not: host code has not reached the variable yet (its first
  /// access binds it), and the shadow lacks the variable's initializer,
  /// which only the module has.
  bool SlotHasValue = false;
};

/// The process's registrations. Registration runs before main (and from
/// dlopen'd libraries later); lookups run on every launch, so they share a
/// reader lock and a cache of functions per (context id, host stub).
class Registry {
public:
  static Registry &get() {
    // Never destroyed: registrations of other libraries' static
    // destructors may still arrive while the process exits.
    static Registry *R = new Registry;
    return *R;
  }

  FatBinary *addBinary(const FatBinaryWrapper *Wrapper) {
    std::unique_lock Lock(Mutex);
    auto B = std::make_unique<FatBinary>();
    B->Wrapper = Wrapper;
    Binaries.push_back(std::move(B));
    return Binaries.back().get();
  }

  /// The linked program \p Unit (one per program or shared library that
  /// cucc linked with -rdc=true) gains \p Wrapper's relocatable code.
  FatBinary *addRelocatable(const void *Unit, const FatBinaryWrapper *Wrapper) {
    std::unique_lock Lock(Mutex);
    FatBinary *&Group = LinkedPrograms[Unit];
    if (!Group) {
      Binaries.push_back(std::make_unique<FatBinary>());
      Group = Binaries.back().get();
    }
    Group->Parts.push_back(Wrapper);
    return Group;
  }

  void removeBinary(FatBinary *B) {
    std::unique_lock Lock(Mutex);
    Generations.fetch_add(1, std::memory_order_release);
    for (auto It = Kernels.begin(); It != Kernels.end();)
      It = It->second.Binary == B ? Kernels.erase(It) : std::next(It);
    for (auto It = Variables.begin(); It != Variables.end();)
      It = It->second.Binary == B ? Variables.erase(It) : std::next(It);
    Managed.remove_if([B](const ManagedEntry &V) { return V.Binary == B; });
    for (auto It = Textures.begin(); It != Textures.end();)
      It = It->second.Binary == B ? Textures.erase(It) : std::next(It);
    for (auto It = Functions.begin(); It != Functions.end();)
      It = It->second.Binary == B ? Functions.erase(It) : std::next(It);
    // The modules stay loaded: contexts may already be gone while the
    // process exits, and unloading then would touch freed driver state.
    Binaries.remove_if([B](const auto &P) { return P.get() == B; });
  }

  void addKernel(FatBinary *B, const void *Stub, const char *Name) {
    std::unique_lock Lock(Mutex);
    Kernels[Stub] = KernelEntry{B, Name};
    Generations.fetch_add(1, std::memory_order_release);
  }

  void addVariable(FatBinary *B, const void *Shadow, const char *Name,
                   size_t Size) {
    std::unique_lock Lock(Mutex);
    Variables[Shadow] = VariableEntry{B, Name, Size};
  }

  void addTexture(FatBinary *B, const void *HostRef, const char *Name,
                  bool NormalizedFloat) {
    std::unique_lock Lock(Mutex);
    Textures[HostRef] = TextureEntry{B, Name, NormalizedFloat};
  }

  bool isTexture(const void *HostRef) {
    std::shared_lock Lock(Mutex);
    return Textures.count(HostRef) != 0;
  }

  cudaError_t texture(const char *Caller, const void *HostRef,
                      const CurrentContext &Ctx, CUtexref &Out,
                      bool &NormalizedFloat) {
    std::unique_lock Lock(Mutex);
    auto It = Textures.find(HostRef);
    if (It == Textures.end())
      return fail(Caller, cudaErrorInvalidTexture,
                  "%p is not a registered texture<> variable.", HostRef);
    CUmodule Module;
    CUDART_TRY(module(Caller, *It->second.Binary, Ctx, Module));
    if (CUresult R = cuModuleGetTexRef(&Out, Module, It->second.Name.c_str()))
      return failDriverAs(Caller, R, cudaErrorInvalidTexture);
    NormalizedFloat = It->second.NormalizedFloat;
    return cudaSuccess;
  }

  void addManaged(FatBinary *B, void **Slot, const char *Name, size_t Size) {
    std::unique_lock Lock(Mutex);
    Managed.push_back(ManagedEntry{B, Name, Size, Slot, *Slot});
    // cudaMemcpyToSymbol and friends find it by its shadow too.
    Variables[*Slot] = VariableEntry{B, Name, Size};
  }

  /// The storage of the managed variable behind \p Slot, its module loaded
  /// into the current context first.
  void *initManaged(void **Slot) {
    const char *Caller = "__cudaInitManagedVar";
    CurrentContext Ctx;
    if (currentContext(Caller, Ctx) != cudaSuccess)
      return *Slot; // Host code goes on with the shadow.
    std::unique_lock Lock(Mutex);
    for (ManagedEntry &V : Managed)
      if (V.Slot == Slot) {
        CUmodule Module;
        if (module(Caller, *V.Binary, Ctx, Module) == cudaSuccess)
          (void)bindManaged(Caller, *V.Binary, Ctx, Module);
        break;
      }
    return *Slot;
  }

  /// Before context \p Id goes (cudaDeviceReset): the managed variables
  /// bound to it take their values back to their shadows.
  void unbindManaged(uint64_t Id) {
    std::unique_lock Lock(Mutex);
    for (ManagedEntry &V : Managed) {
      if (V.BoundTo != Id)
        continue;
      (void)cuMemcpyDtoH(V.Shadow, reinterpret_cast<CUdeviceptr>(*V.Slot),
                         V.Size);
      *V.Slot = V.Shadow;
      V.BoundTo = 0;
    }
  }

  cudaError_t function(const char *Caller, const void *Stub,
                       const CurrentContext &Ctx, CUfunction &Out) {
    FunctionKey Key{Ctx.Id, Stub};
    // A loop of launches finds its kernel in the thread's last lookup; a
    // registration or unregistration anywhere makes that stale.
    thread_local LastLookup Last;
    uint64_t Generation = Generations.load(std::memory_order_acquire);
    if (Last.Key == Key && Last.Generation == Generation) {
      Out = Last.Function;
      return cudaSuccess;
    }
    {
      std::shared_lock Lock(Mutex);
      if (auto It = Functions.find(Key); It != Functions.end()) {
        Out = It->second.Function;
        Last = {Key, Generation, Out};
        return cudaSuccess;
      }
    }
    std::unique_lock Lock(Mutex);
    auto It = Kernels.find(Stub);
    if (It == Kernels.end()) {
      // Since CUDA 12 the pointer may also be a cudaKernel_t (cudaGetKernel,
      // cudaLibraryGetKernel): its function in this context. NVIDIA answers
      // a pointer that is neither as an invalid handle (observed on an H200).
      CUkernel Kernel = static_cast<CUkernel>(const_cast<void *>(Stub));
      if (cuKernelGetFunction(&Out, Kernel) == CUDA_SUCCESS)
        return cudaSuccess;
      return fail(Caller, cudaErrorInvalidResourceHandle,
                  "%p is neither the host function of a registered kernel nor "
                  "a cudaKernel_t.",
                  Stub);
    }
    CUmodule Module;
    CUDART_TRY(module(Caller, *It->second.Binary, Ctx, Module));
    CUfunction F;
    if (CUresult R = cuModuleGetFunction(&F, Module, It->second.Name.c_str()))
      return failDriverAs(Caller, R, cudaErrorInvalidDeviceFunction);
    Functions[Key] = CachedFunction{F, It->second.Binary};
    Last = {Key, Generation, F};
    Out = F;
    return cudaSuccess;
  }

  cudaError_t kernel(const char *Caller, const void *Stub,
                     const CurrentContext &Ctx, CUkernel &Out) {
    std::unique_lock Lock(Mutex);
    auto It = Kernels.find(Stub);
    if (It == Kernels.end())
      return fail(Caller, cudaErrorInvalidDeviceFunction,
                  "%p is not the host function of a registered kernel.", Stub);
    CUmodule Module;
    CUDART_TRY(module(Caller, *It->second.Binary, Ctx, Module));
    if (CUresult R = cuLibraryGetKernel(&Out, It->second.Binary->Library,
                                        It->second.Name.c_str()))
      return failDriverAs(Caller, R, cudaErrorInvalidDeviceFunction);
    return cudaSuccess;
  }

  const void *hostFunction(CUfunction F, const CurrentContext &Ctx) {
    // Every kernel node's function was looked up by function() first, so
    // the cache knows it; a linear search is enough for a query.
    std::shared_lock Lock(Mutex);
    for (const auto &[Key, Cached] : Functions)
      if (Key.first == Ctx.Id && Cached.Function == F)
        return Key.second;
    return nullptr;
  }

  cudaError_t symbol(const char *Caller, const void *Shadow,
                     const CurrentContext &Ctx, CUdeviceptr &Address,
                     size_t &Size) {
    std::unique_lock Lock(Mutex);
    auto It = Variables.find(Shadow);
    // Host code names a managed variable by its storage, the slot's target.
    if (It == Variables.end())
      for (const ManagedEntry &V : Managed)
        if (*V.Slot == Shadow)
          It = Variables.find(V.Shadow);
    if (It == Variables.end())
      return fail(Caller, cudaErrorInvalidSymbol,
                  "%p is not the host address of a registered __device__ or "
                  "__constant__ variable.",
                  Shadow);
    CUmodule Module;
    CUDART_TRY(module(Caller, *It->second.Binary, Ctx, Module));
    if (CUresult R =
            cuModuleGetGlobal(&Address, &Size, Module, It->second.Name.c_str()))
      return failDriverAs(Caller, R, cudaErrorInvalidSymbol);
    return cudaSuccess;
  }

private:
  using FunctionKey = std::pair<uint64_t, const void *>;
  struct FunctionKeyHash {
    size_t operator()(const FunctionKey &K) const {
      return std::hash<uint64_t>()(K.first) * 31 ^
             std::hash<const void *>()(K.second);
    }
  };
  struct CachedFunction {
    CUfunction Function;
    FatBinary *Binary;
  };
  struct LastLookup {
    FunctionKey Key{0, nullptr};
    uint64_t Generation = ~uint64_t(0);
    CUfunction Function = nullptr;
  };

  /// The calling thread in the relaxed stream capture mode for its
  /// lifetime (unchanged if the driver cannot exchange modes).
  class RelaxedCapture {
  public:
    RelaxedCapture()
        : Swapped(cuThreadExchangeStreamCaptureMode(&Mode) == CUDA_SUCCESS) {}
    ~RelaxedCapture() {
      if (Swapped)
        (void)cuThreadExchangeStreamCaptureMode(&Mode);
    }
    RelaxedCapture(const RelaxedCapture &) = delete;
    RelaxedCapture &operator=(const RelaxedCapture &) = delete;

  private:
    CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    bool Swapped;
  };

  /// The module of \p B in \p Ctx, loaded on first use. Caller holds the
  /// lock exclusively.
  cudaError_t module(const char *Caller, FatBinary &B,
                     const CurrentContext &Ctx, CUmodule &Out) {
    if (auto It = B.Modules.find(Ctx.Id); It != B.Modules.end()) {
      Out = It->second;
      return cudaSuccess;
    }
    // A kernel's first launch may come while its stream is being captured
    // into a graph. Loading its module then is the runtime's own business,
    // not an unsafe call of the program's, so it runs in the relaxed
    // capture mode ("the local thread is not prohibited from potentially
    // unsafe API calls", cuStreamBeginCapture).
    RelaxedCapture Relaxed;
    CUresult R = CUDA_SUCCESS;
    if (!B.Library)
      R = B.Parts.empty() ? loadLibrary(B.Wrapper, B.Library)
                          : loadLinked(B, B.Library);
    if (R == CUDA_SUCCESS)
      R = cuLibraryGetModule(&Out, B.Library);
    if (R != CUDA_SUCCESS)
      return failDriverAs(Caller, R,
                          R == CUDA_ERROR_NO_BINARY_FOR_GPU
                              ? cudaErrorNoKernelImageForDevice
                              : cudaErrorInvalidKernelImage);
    B.Modules[Ctx.Id] = Out;
    return bindManaged(Caller, B, Ctx, Out);
  }

  /// Loads \p Image (a fat binary's wrapper, or a linked image) as a
  /// library; the driver loads it into the current context at once.
  static CUresult loadLibrary(const void *Image, CUlibrary &Out) {
    return cuLibraryLoadData(&Out, Image, nullptr, nullptr, 0, nullptr, nullptr,
                             0);
  }

  /// Links the relocatable parts of \p B with the driver's JIT linker, as
  /// nvcc's device link would have before the program ran, and loads the
  /// result.
  static CUresult loadLinked(const FatBinary &B, CUlibrary &Out) {
    CUlinkState Link = nullptr;
    if (CUresult R = cuLinkCreate(0, nullptr, nullptr, &Link))
      return R;
    CUresult R = CUDA_SUCCESS;
    for (size_t I = 0; I < B.Parts.size() && R == CUDA_SUCCESS; ++I) {
      std::string Name = "translation unit " + std::to_string(I + 1);
      R = cuLinkAddData(
          Link, CU_JIT_INPUT_FATBINARY, const_cast<void *>(B.Parts[I]->Data),
          fatBinarySize(*B.Parts[I]), Name.c_str(), 0, nullptr, nullptr);
    }
    void *Image = nullptr;
    size_t Size = 0;
    if (R == CUDA_SUCCESS)
      R = cuLinkComplete(Link, &Image, &Size);
    if (R == CUDA_SUCCESS)
      R = loadLibrary(Image, Out);
    cuLinkDestroy(Link);
    return R;
  }

  /// Points the managed variables of \p B at their storage in module
  /// \p Mod of context \p Ctx, carrying over the value they have so far
  /// (from another context, or kept on the host across a reset).
  /// cucpu's device memory is host memory, so host code reaches the
  /// module's variable at the address cuModuleGetGlobal gives. Caller holds
  /// the lock exclusively.
  cudaError_t bindManaged(const char *Caller, FatBinary &B,
                          const CurrentContext &Ctx, CUmodule Mod) {
    for (ManagedEntry &V : Managed) {
      if (V.Binary != &B || V.BoundTo == Ctx.Id)
        continue;
      CUdeviceptr Address = 0;
      size_t Size = 0;
      if (CUresult R = cuModuleGetGlobal(&Address, &Size, Mod, V.Name.c_str()))
        return failDriverAs(Caller, R, cudaErrorInvalidSymbol);
      if (V.SlotHasValue)
        if (CUresult R = cuMemcpyHtoD(Address, *V.Slot, std::min(Size, V.Size)))
          return failDriver(Caller, R);
      *V.Slot = reinterpret_cast<void *>(Address);
      V.BoundTo = Ctx.Id;
      V.SlotHasValue = true;
    }
    return cudaSuccess;
  }

  std::shared_mutex Mutex;
  /// Counts changes to the kernels (registrations and unregistrations),
  /// which invalidate every thread's LastLookup.
  std::atomic<uint64_t> Generations{0};
  std::list<std::unique_ptr<FatBinary>> Binaries;
  std::unordered_map<const void *, KernelEntry> Kernels;
  std::unordered_map<const void *, VariableEntry> Variables;
  std::unordered_map<const void *, TextureEntry> Textures;
  std::list<ManagedEntry> Managed;
  std::unordered_map<const void *, FatBinary *> LinkedPrograms;
  std::unordered_map<FunctionKey, CachedFunction, FunctionKeyHash> Functions;
};

} // namespace

cudaError_t rt::findFunction(const char *Caller, const void *HostFunction,
                             const CurrentContext &Ctx, CUfunction &Out) {
  return Registry::get().function(Caller, HostFunction, Ctx, Out);
}

cudaError_t rt::findKernel(const char *Caller, const void *HostFunction,
                           const CurrentContext &Ctx, CUkernel &Out) {
  return Registry::get().kernel(Caller, HostFunction, Ctx, Out);
}

const void *rt::findHostFunction(CUfunction F, const CurrentContext &Ctx) {
  return Registry::get().hostFunction(F, Ctx);
}

void rt::unbindManagedVariables(uint64_t ContextId) {
  Registry::get().unbindManaged(ContextId);
}

cudaError_t rt::findSymbol(const char *Caller, const void *Symbol,
                           const CurrentContext &Ctx, CUdeviceptr &Address,
                           size_t &Size) {
  return Registry::get().symbol(Caller, Symbol, Ctx, Address, Size);
}

cudaError_t rt::findTextureReference(const char *Caller, const void *HostRef,
                                     const CurrentContext &Ctx, CUtexref &Out,
                                     bool &NormalizedFloat) {
  return Registry::get().texture(Caller, HostRef, Ctx, Out, NormalizedFloat);
}

bool rt::isTextureReference(const void *HostRef) {
  return Registry::get().isTexture(HostRef);
}

// The registration calls of compiler-generated host code. Their names and
// arguments are those clang and nvcc emit; they are not part of the
// documented API.
extern "C" {

void **CUDARTAPI __cudaRegisterFatBinary(void *FatCubin) {
  auto *Wrapper = static_cast<const FatBinaryWrapper *>(FatCubin);
  if (!Wrapper || Wrapper->Magic != FatBinaryWrapperMagic) {
    fail("__cudaRegisterFatBinary", cudaErrorInvalidKernelImage,
         "The fat binary at %p does not start with the wrapper magic "
         "0x466243b1.",
         FatCubin);
    return nullptr;
  }
  return reinterpret_cast<void **>(Registry::get().addBinary(Wrapper));
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void **) {}

/// nvcc's host code calls this before the first access of a __managed__
/// variable: the runtime must be ready (the primary context current).
/// Answers 1 when it is.
char CUDARTAPI __cudaInitModule(void **Handle) {
  return Handle && cudaFree(nullptr) == cudaSuccess ? 1 : 0;
}

/// What each translation unit compiled with -rdc=true registers through the
/// __cudaRegisterLinkedBinary_<id> function that cucc's link step defines
/// for it (tools/cucc/DeviceLink.cpp): its relocatable fat binary, into the
/// linked program \p LinkUnit (a token of the executable or shared library),
/// then its kernels and variables through \p RegisterGlobals.
void CUDARTAPI __cudaRegisterRelocatableBinary(void (*RegisterGlobals)(void **),
                                               void *FatCubin,
                                               const void *LinkUnit) {
  auto *Wrapper = static_cast<const FatBinaryWrapper *>(FatCubin);
  if (!RegisterGlobals || !Wrapper || Wrapper->Magic != FatBinaryWrapperMagic ||
      !Wrapper->Data || fatBinarySize(*Wrapper) == 0) {
    fail("__cudaRegisterRelocatableBinary", cudaErrorInvalidKernelImage,
         "The relocatable fat binary at %p is not a fat binary.", FatCubin);
    return;
  }
  FatBinary *Group = Registry::get().addRelocatable(LinkUnit, Wrapper);
  RegisterGlobals(reinterpret_cast<void **>(Group));
}

void CUDARTAPI __cudaUnregisterFatBinary(void **Handle) {
  if (Handle)
    Registry::get().removeBinary(reinterpret_cast<FatBinary *>(Handle));
}

void CUDARTAPI __cudaRegisterFunction(void **Handle, const char *HostFun,
                                      char *, const char *DeviceName, int,
                                      uint3 *, uint3 *, dim3 *, dim3 *, int *) {
  if (Handle && HostFun && DeviceName)
    Registry::get().addKernel(reinterpret_cast<FatBinary *>(Handle), HostFun,
                              DeviceName);
}

void CUDARTAPI __cudaRegisterVar(void **Handle, char *HostVar, char *,
                                 const char *DeviceName, int, size_t Size, int,
                                 int) {
  if (Handle && HostVar && DeviceName)
    Registry::get().addVariable(reinterpret_cast<FatBinary *>(Handle), HostVar,
                                DeviceName, Size);
}

void CUDARTAPI __cudaRegisterManagedVar(void **Handle, void **HostVarPtrAddress,
                                        char *, const char *DeviceName, int,
                                        size_t Size, int, int) {
  if (Handle && HostVarPtrAddress && DeviceName)
    Registry::get().addManaged(reinterpret_cast<FatBinary *>(Handle),
                               HostVarPtrAddress, DeviceName, Size);
}

/// Called by cucc's host code on an access of a managed variable whose slot
/// still points at its shadow (tools/cucc/ManagedVariables.h).
void *CUDARTAPI __cudaInitManagedVar(void **HostVarPtrAddress) {
  return Registry::get().initManaged(HostVarPtrAddress);
}

/// A texture<> variable at \p HostVar, named \p DeviceName in the module;
/// \p Normalized is its read mode (1: cudaReadModeNormalizedFloat).
void CUDARTAPI __cudaRegisterTexture(void **Handle,
                                     const struct textureReference *HostVar,
                                     const void **, const char *DeviceName, int,
                                     int Normalized, int) {
  if (Handle && HostVar && DeviceName)
    Registry::get().addTexture(reinterpret_cast<FatBinary *>(Handle), HostVar,
                               DeviceName, Normalized != 0);
}

// Surface references are not supported (docs/runtime.md): their
// registration is accepted so that a program starts, and a use of them
// fails where it happens.
void CUDARTAPI __cudaRegisterSurface(void **, const struct surfaceReference *,
                                     const void **, const char *, int, int) {}

} // extern "C"
