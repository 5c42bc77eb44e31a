//===- ApiSequenceFuzzer.cpp - Random sequences of driver calls -----------===//
//
// Decodes its input into a sequence of cu* calls — contexts created, pushed,
// popped and destroyed; allocations, copies and memsets; modules of the seed
// corpus loaded and unloaded; streams, events and launches with random
// grids, shared sizes and parameter buffers; handles that are stale, belong
// to another context or are garbage — and checks after every call that the
// driver answered with a CUresult it knows and that its invariants hold:
//   - nothing a destroyed context owned is still reachable (its allocations
//     are no pointers, its streams, events and modules no handles);
//   - the memory charged to the device is what the live allocations take;
//   - once every context is destroyed, nothing is charged.
// A crash, hang, leak or sanitizer report is a finding as well. Launches run
// with every memory access checked (CUCPU_MEMCHECK=1), so kernels that get
// garbage parameters fault their context instead of the process, and with
// a watchdog, so a garbage loop bound ends the launch.
//
//===----------------------------------------------------------------------===//
#include "core/Device.h"
#include "core/WorkerThreads.h"

#include <cuda.h>

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <vector>

namespace {
/// The input as a stream of numbers; zeros once it runs out.
class Input {
public:
  Input(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}

  bool done() const { return Used >= Size; }
  uint8_t byte() { return Used < Size ? Data[Used++] : 0; }
  uint32_t u32() {
    uint32_t V = 0;
    for (int I = 0; I < 4; ++I)
      V = V << 8 | byte();
    return V;
  }
  uint64_t u64() { return uint64_t(u32()) << 32 | u32(); }
  /// A number below \p N (0 when N is 0).
  size_t below(size_t N) { return N ? u32() % N : 0; }

private:
  const uint8_t *Data;
  size_t Size;
  size_t Used = 0;
};

/// Stops the process with \p Why: the driver broke an invariant.
[[noreturn]] void broken(const char *Why, unsigned long long Value = 0) {
  std::fprintf(stderr, "api_sequence_fuzzer: invariant broken: %s (%llu)\n",
               Why, Value);
  std::abort();
}

/// Checks that \p R is a CUresult the driver can name.
CUresult known(CUresult R) {
  const char *Name = nullptr;
  if (cuGetErrorName(R, &Name) != CUDA_SUCCESS || !Name)
    broken("a call returned a code that cuGetErrorName does not know",
           static_cast<unsigned long long>(R));
  return R;
}

/// A handle the sequence made, and which context made it.
template <typename Handle> struct Tracked {
  Handle H;
  size_t Ctx;
  bool Live = true;
};

struct Allocation {
  CUdeviceptr Ptr;
  size_t Bytes;
  size_t Ctx;
  bool Live = true;
};

/// The seed corpus images in the order of their file names, read once
/// (FUZZ_CORPUS_DIR). The order must not depend on the images' bytes, which
/// hold the source path of the checkout, nor on the directory's order, so
/// that a saved input picks the same image on every machine.
const std::vector<std::vector<char>> &corpusImages() {
  static const std::vector<std::vector<char>> Images = [] {
    std::vector<std::filesystem::path> Files;
    std::error_code Ec;
    for (const auto &Entry :
         std::filesystem::directory_iterator(FUZZ_CORPUS_DIR, Ec))
      Files.push_back(Entry.path());
    std::sort(Files.begin(), Files.end());
    std::vector<std::vector<char>> Read;
    for (const auto &File : Files) {
      std::ifstream In(File, std::ios::binary);
      Read.emplace_back(std::istreambuf_iterator<char>(In),
                        std::istreambuf_iterator<char>());
    }
    return Read;
  }();
  return Images;
}

/// The context that only observes (device memory in use): made once, never
/// handed to the sequence.
CUcontext observer() {
  static CUcontext Ctx = [] {
    setenv("CUCPU_MEMCHECK", "1", 1);
    setenv("CUCPU_WATCHDOG_MS", "250", 0);
    // A budget well below what the host has, so that cuMemGetInfo's free
    // memory is the budget's and tells the charged memory exactly.
    setenv("CUCPU_DEVICE_MEMORY", "2G", 0);
    // Loads of the seed images hit a private compute cache.
    static std::string Cache =
        (std::filesystem::temp_directory_path() / "cucpu-api-fuzz-cache")
            .string();
    setenv("CUDA_CACHE_PATH", Cache.c_str(), 1);
    CUdevice Dev;
    CUcontext Made;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&Dev, 0) != CUDA_SUCCESS ||
        cuCtxCreate(&Made, 0, Dev) != CUDA_SUCCESS ||
        cuCtxPopCurrent(nullptr) != CUDA_SUCCESS)
      std::abort();
    return Made;
  }();
  return Ctx;
}

/// Device memory the driver has charged, seen from the observer.
size_t chargedMemory() {
  size_t Free = 0, Total = 0;
  if (cuCtxPushCurrent(observer()) != CUDA_SUCCESS ||
      cuMemGetInfo(&Free, &Total) != CUDA_SUCCESS ||
      cuCtxPopCurrent(nullptr) != CUDA_SUCCESS)
    broken("the observer context stopped working");
  return Total - Free;
}

/// What a cuMemAlloc of \p Bytes is charged (core/Context.cpp): whole huge
/// pages, else whole pages.
size_t chargeOf(size_t Bytes) {
  static const size_t PageBytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t Alignment =
      Bytes >= cucpu::HugePageBytes ? cucpu::HugePageBytes : PageBytes;
  return llvm::alignTo(Bytes, Alignment);
}

/// One input's sequence of calls and what it made.
class Sequence {
public:
  explicit Sequence(Input &In) : In(In), Host(HostBytes) {}

  void run() {
    for (unsigned Step = 0; Step < MaxSteps && !In.done(); ++Step) {
      step();
      checkInvariants();
    }
    finish();
  }

private:
  static constexpr unsigned MaxSteps = 64;
  static constexpr size_t MaxContexts = 4;
  static constexpr size_t HostBytes = size_t(1) << 20;

  Input &In;
  std::vector<uint8_t> Host;
  std::vector<Tracked<CUcontext>> Contexts;
  std::vector<Allocation> Allocations;
  std::vector<Tracked<CUmodule>> Modules;
  std::vector<Tracked<CUfunction>> Functions; // Ctx: the module's index.
  std::vector<Tracked<CUstream>> Streams;
  std::vector<Tracked<CUevent>> Events;

  /// Picks one of \p Items (live or not), or nullptr if there are none.
  template <typename T> T *pick(std::vector<T> &Items) {
    return Items.empty() ? nullptr : &Items[In.below(Items.size())];
  }

  /// The index of the current context among Contexts, or SIZE_MAX.
  size_t currentIndex() {
    CUcontext Current = nullptr;
    if (known(cuCtxGetCurrent(&Current)) != CUDA_SUCCESS || !Current)
      return SIZE_MAX;
    for (size_t I = Contexts.size(); I-- > 0;)
      if (Contexts[I].Live && Contexts[I].H == Current)
        return I;
    return SIZE_MAX;
  }

  /// Whether \p H is the handle of a live context (a destroyed context's
  /// handle value may come back for a new one).
  bool liveContext(CUcontext H) const {
    return std::any_of(Contexts.begin(), Contexts.end(),
                       [&](const auto &C) { return C.Live && C.H == H; });
  }
  template <typename T>
  static bool liveHandle(const std::vector<Tracked<T>> &Items, T H) {
    return std::any_of(Items.begin(), Items.end(),
                       [&](const auto &I) { return I.Live && I.H == H; });
  }

  /// Whether [Ptr, Ptr + Bytes) lies inside one live allocation.
  bool insideLiveAllocation(CUdeviceptr Ptr, size_t Bytes) const {
    return std::any_of(
        Allocations.begin(), Allocations.end(), [&](const Allocation &A) {
          return A.Live && Ptr >= A.Ptr && Ptr - A.Ptr <= A.Bytes &&
                 Bytes <= A.Bytes - (Ptr - A.Ptr);
        });
  }

  /// A device address near a tracked allocation, an extent from 0 to a
  /// little past its end.
  std::pair<CUdeviceptr, size_t> deviceRange() {
    Allocation *A = pick(Allocations);
    if (!A)
      return {In.u64(), In.below(4096)};
    size_t Offset = In.below(A->Bytes + 64);
    size_t Bytes = In.below(A->Bytes + 64);
    return {A->Ptr + Offset, Bytes};
  }

  /// Marks everything context \p Index owned as gone.
  void contextDestroyed(size_t Index) {
    Contexts[Index].Live = false;
    for (auto &A : Allocations)
      if (A.Ctx == Index)
        A.Live = false;
    for (size_t M = 0; M < Modules.size(); ++M)
      if (Modules[M].Ctx == Index)
        moduleUnloaded(M);
    for (auto &S : Streams)
      if (S.Ctx == Index)
        S.Live = false;
    for (auto &E : Events)
      if (E.Ctx == Index)
        E.Live = false;
  }

  void moduleUnloaded(size_t Index) {
    Modules[Index].Live = false;
    for (auto &F : Functions)
      if (F.Ctx == Index)
        F.Live = false;
  }

  void step();
  void launch();
  void checkInvariants();
  void finish();
};

void Sequence::step() {
  switch (In.byte() % 24) {
  case 0: { // Create a context (it becomes current).
    if (Contexts.size() >= 4 * MaxContexts ||
        std::count_if(Contexts.begin(), Contexts.end(), [](const auto &C) {
          return C.Live;
        }) >= long(MaxContexts))
      return;
    CUcontext C;
    CUdevice Dev = In.byte() % 4 == 0 ? CUdevice(In.byte()) : 0;
    unsigned Flags = In.byte() % 4 == 0 ? In.byte() & 0x3f : 0;
    if (known(cuCtxCreate(&C, Flags, Dev)) == CUDA_SUCCESS)
      Contexts.push_back({C, 0});
    return;
  }
  case 1: { // Destroy a context, perhaps one already destroyed.
    auto *C = pick(Contexts);
    if (!C)
      return;
    bool Live = liveContext(C->H);
    CUresult R = known(cuCtxDestroy(C->H));
    if (R == CUDA_SUCCESS) {
      if (!Live)
        broken("a destroyed context was destroyed again");
      for (size_t I = 0; I < Contexts.size(); ++I)
        if (Contexts[I].Live && Contexts[I].H == C->H)
          contextDestroyed(I);
    }
    return;
  }
  case 2: { // Push a context, perhaps a stale one.
    auto *C = pick(Contexts);
    CUcontext H = C ? C->H : nullptr;
    if (known(cuCtxPushCurrent(H)) == CUDA_SUCCESS && H && !liveContext(H))
      broken("a destroyed context was made current");
    return;
  }
  case 3: {
    CUcontext Popped;
    known(cuCtxPopCurrent(&Popped));
    return;
  }
  case 4: { // Make a context current, or none.
    auto *C = In.byte() % 4 ? pick(Contexts) : nullptr;
    CUcontext H = C ? C->H : nullptr;
    if (known(cuCtxSetCurrent(H)) == CUDA_SUCCESS && H && !liveContext(H))
      broken("a destroyed context was made current");
    return;
  }
  case 5: { // Allocate: usually small, sometimes more than the device has
    // (at least 1 TiB: what the device does have stays out of the fuzzer's
    // memory limit).
    size_t Bytes = In.byte() % 16 == 0 ? In.u64() | (uint64_t(1) << 40)
                                       : In.below(size_t(3) << 20);
    CUdeviceptr Ptr;
    size_t Ctx = currentIndex();
    if (known(cuMemAlloc(&Ptr, Bytes)) == CUDA_SUCCESS) {
      if (Ctx == SIZE_MAX)
        broken("an allocation succeeded without a live current context");
      Allocations.push_back({Ptr, Bytes, Ctx});
    }
    return;
  }
  case 6: { // Free an allocation, perhaps twice.
    Allocation *A = pick(Allocations);
    CUdeviceptr Ptr = A ? A->Ptr : In.u64();
    if (known(cuMemFree(Ptr)) != CUDA_SUCCESS)
      return;
    auto Live = std::find_if(
        Allocations.begin(), Allocations.end(),
        [&](const Allocation &B) { return B.Live && B.Ptr == Ptr; });
    // cuMemFree(0) succeeds, as on NVIDIA's driver.
    if (Live == Allocations.end() && Ptr != 0)
      broken("memory that was not allocated, or was freed, was freed", Ptr);
    if (Live == Allocations.end())
      return;
    Live->Live = false;
    return;
  }
  case 7: { // Host to device.
    auto [Ptr, Bytes] = deviceRange();
    size_t From = In.below(HostBytes);
    Bytes = std::min(Bytes, HostBytes - From);
    if (known(cuMemcpyHtoD(Ptr, Host.data() + From, Bytes)) == CUDA_SUCCESS &&
        Bytes && !insideLiveAllocation(Ptr, Bytes))
      broken("a copy past the end of an allocation was accepted", Bytes);
    return;
  }
  case 8: { // Device to host.
    auto [Ptr, Bytes] = deviceRange();
    size_t To = In.below(HostBytes);
    Bytes = std::min(Bytes, HostBytes - To);
    if (known(cuMemcpyDtoH(Host.data() + To, Ptr, Bytes)) == CUDA_SUCCESS &&
        Bytes && !insideLiveAllocation(Ptr, Bytes))
      broken("a copy from past the end of an allocation was accepted", Bytes);
    return;
  }
  case 9: { // Device to device, perhaps across contexts.
    auto [Dst, Bytes] = deviceRange();
    auto [Src, Unused] = deviceRange();
    (void)Unused;
    if (known(cuMemcpyDtoD(Dst, Src, Bytes)) == CUDA_SUCCESS && Bytes &&
        (!insideLiveAllocation(Dst, Bytes) ||
         !insideLiveAllocation(Src, Bytes)))
      broken("a device copy past the end of an allocation was accepted", Bytes);
    return;
  }
  case 10: { // Memset in 1- or 4-byte units.
    auto [Ptr, Bytes] = deviceRange();
    bool Words = In.byte() & 1;
    CUresult R = Words ? cuMemsetD32(Ptr, In.u32(), Bytes / 4)
                       : cuMemsetD8(Ptr, In.byte(), Bytes);
    size_t Set = Words ? Bytes / 4 * 4 : Bytes;
    if (known(R) == CUDA_SUCCESS && Set && !insideLiveAllocation(Ptr, Set))
      broken("a memset past the end of an allocation was accepted", Set);
    return;
  }
  case 11: { // Load one of the seed images into the current context.
    const auto &Images = corpusImages();
    if (Images.empty())
      return;
    const auto &Image = Images[In.below(Images.size())];
    size_t Ctx = currentIndex();
    CUmodule M;
    if (known(cuModuleLoadData(&M, Image.data())) == CUDA_SUCCESS) {
      if (Ctx == SIZE_MAX)
        broken("a module loaded without a live current context");
      Modules.push_back({M, Ctx});
    }
    return;
  }
  case 12: { // Unload a module, perhaps twice.
    auto *M = pick(Modules);
    if (!M)
      return;
    bool Live = liveHandle(Modules, M->H);
    if (known(cuModuleUnload(M->H)) == CUDA_SUCCESS) {
      if (!Live)
        broken("an unloaded module was unloaded again");
      for (size_t I = 0; I < Modules.size(); ++I)
        if (Modules[I].Live && Modules[I].H == M->H)
          moduleUnloaded(I);
    }
    return;
  }
  case 13: { // The kernels of a module.
    if (Modules.empty())
      return;
    size_t Index = In.below(Modules.size());
    unsigned Count = 0;
    if (known(cuModuleGetFunctionCount(&Count, Modules[Index].H)) !=
        CUDA_SUCCESS)
      return;
    if (!liveHandle(Modules, Modules[Index].H))
      broken("an unloaded module answered cuModuleGetFunctionCount");
    std::vector<CUfunction> Found(std::min(Count, 64u));
    if (known(cuModuleEnumerateFunctions(Found.data(), Found.size(),
                                         Modules[Index].H)) == CUDA_SUCCESS)
      for (CUfunction F : Found)
        Functions.push_back({F, Index});
    return;
  }
  case 14:
  case 15:
    launch();
    return;
  case 16: { // Streams: create, destroy, query, synchronize.
    unsigned What = In.byte() % 4;
    auto *S = pick(Streams);
    if (What == 0 || !S) {
      CUstream Made;
      size_t Ctx = currentIndex();
      unsigned Flags = In.byte() % 4 == 0 ? In.byte() % 3 : 0;
      if (known(cuStreamCreate(&Made, Flags)) == CUDA_SUCCESS)
        Streams.push_back({Made, Ctx});
      return;
    }
    bool Live = liveHandle(Streams, S->H);
    CUresult R = What == 1   ? cuStreamDestroy(S->H)
                 : What == 2 ? cuStreamQuery(S->H)
                             : cuStreamSynchronize(S->H);
    if (known(R) == CUDA_SUCCESS && !Live)
      broken("a destroyed stream was used");
    if (R == CUDA_SUCCESS && What == 1)
      for (auto &T : Streams)
        if (T.H == S->H)
          T.Live = false;
    return;
  }
  case 17: { // Events: create, record, query, synchronize, destroy, time.
    unsigned What = In.byte() % 6;
    auto *E = pick(Events);
    if (What == 0 || !E) {
      CUevent Made;
      size_t Ctx = currentIndex();
      if (known(cuEventCreate(&Made, In.byte() % 4)) == CUDA_SUCCESS)
        Events.push_back({Made, Ctx});
      return;
    }
    bool Live = liveHandle(Events, E->H);
    auto *S = pick(Streams);
    auto *Other = pick(Events);
    float Ms;
    CUresult R = What == 1   ? cuEventRecord(E->H, S ? S->H : nullptr)
                 : What == 2 ? cuEventQuery(E->H)
                 : What == 3 ? cuEventSynchronize(E->H)
                 : What == 4 ? cuEventDestroy(E->H)
                             : cuEventElapsedTime(&Ms, E->H, Other->H);
    if (known(R) == CUDA_SUCCESS && !Live)
      broken("a destroyed event was used");
    if (R == CUDA_SUCCESS && What == 4)
      for (auto &T : Events)
        if (T.H == E->H)
          T.Live = false;
    return;
  }
  case 18:
    known(cuCtxSynchronize());
    return;
  case 19: { // Asynchronous copies on a stream, perhaps another context's.
    auto [Ptr, Bytes] = deviceRange();
    auto *S = pick(Streams);
    size_t At = In.below(HostBytes);
    Bytes = std::min(Bytes, HostBytes - At);
    CUresult R = In.byte() & 1 ? cuMemcpyHtoDAsync(Ptr, Host.data() + At, Bytes,
                                                   S ? S->H : nullptr)
                               : cuMemcpyDtoHAsync(Host.data() + At, Ptr, Bytes,
                                                   S ? S->H : nullptr);
    if (known(R) == CUDA_SUCCESS && Bytes && !insideLiveAllocation(Ptr, Bytes))
      broken("an asynchronous copy past an allocation was accepted", Bytes);
    // The host buffer must not change under a copy still in flight.
    known(cuCtxSynchronize());
    return;
  }
  case 20: { // Garbage handles.
    uint64_t Garbage = In.u64();
    CUcontext Ctx;
    unsigned Version;
    CUresult R;
    switch (In.byte() % 6) {
    case 0:
      R = cuStreamQuery(reinterpret_cast<CUstream>(Garbage));
      break;
    case 1:
      R = cuEventQuery(reinterpret_cast<CUevent>(Garbage));
      break;
    case 2:
      R = cuModuleUnload(reinterpret_cast<CUmodule>(Garbage));
      break;
    case 3:
      R = cuCtxGetApiVersion(reinterpret_cast<CUcontext>(Garbage), &Version);
      break;
    case 4:
      R = cuCtxPushCurrent(reinterpret_cast<CUcontext>(Garbage));
      break;
    default:
      R = cuFuncGetAttribute(reinterpret_cast<int *>(&Version),
                             CU_FUNC_ATTRIBUTE_NUM_REGS,
                             reinterpret_cast<CUfunction>(Garbage));
      break;
    }
    if (known(R) == CUDA_SUCCESS && Garbage > 0xffff)
      broken("a garbage handle was accepted", Garbage);
    (void)Ctx;
    return;
  }
  case 21: { // What a pointer belongs to.
    auto [Ptr, Unused] = deviceRange();
    (void)Unused;
    CUcontext Owner = nullptr;
    if (known(cuPointerGetAttribute(&Owner, CU_POINTER_ATTRIBUTE_CONTEXT,
                                    Ptr)) == CUDA_SUCCESS &&
        !liveContext(Owner) && Owner != observer())
      broken("a pointer belongs to a context that was destroyed");
    return;
  }
  case 22: { // A destroyed context's handle asked for its version.
    auto *C = pick(Contexts);
    unsigned Version;
    if (C && known(cuCtxGetApiVersion(C->H, &Version)) == CUDA_SUCCESS &&
        !liveContext(C->H))
      broken("a destroyed context answered cuCtxGetApiVersion");
    return;
  }
  default: { // Limits and cache configuration of the current context.
    size_t Value = In.below(1 << 16);
    known(cuCtxSetLimit(static_cast<CUlimit>(In.byte() % 8), Value));
    return;
  }
  }
}

void Sequence::launch() {
  auto *F = pick(Functions);
  if (!F)
    return;
  unsigned Grid[3], Block[3];
  for (unsigned &G : Grid)
    G = In.byte() % 16 == 0 ? In.u32() : 1 + In.byte() % 4;
  for (unsigned &B : Block)
    B = In.byte() % 16 == 0 ? In.u32() : 1 + In.byte() % 8;
  // A grid the device accepts runs all its blocks, and the replay under
  // ThreadSanitizer has no watchdog to end a long launch: such a grid keeps
  // at most 4,096 blocks. Dimensions past the device's limits stay as drawn,
  // for the driver to refuse.
  if (Grid[0] <= 0x7fffffffu && Grid[1] <= 65535 && Grid[2] <= 65535)
    while (uint64_t(Grid[0]) * Grid[1] * Grid[2] > 4096)
      *std::max_element(Grid, Grid + 3) /= 2;
  unsigned Shared = In.byte() % 8 == 0 ? In.u32() : In.below(4096);
  auto *S = pick(Streams);
  // A parameter buffer of 8-byte words: pointers into the allocations (most
  // of them) or raw bytes; its size may be wrong for the kernel.
  size_t Words = In.byte() % 9;
  std::vector<uint64_t> Params(Words);
  for (uint64_t &P : Params) {
    Allocation *A = In.byte() % 4 ? pick(Allocations) : nullptr;
    P = A ? A->Ptr : In.u64() % 4096;
  }
  size_t Bytes = Params.size() * sizeof(uint64_t);
  void *Config[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, Params.data(),
                    CU_LAUNCH_PARAM_BUFFER_SIZE, &Bytes, CU_LAUNCH_PARAM_END};
  bool Live = liveHandle(Functions, F->H);
  CUresult R =
      cuLaunchKernel(F->H, Grid[0], Grid[1], Grid[2], Block[0], Block[1],
                     Block[2], Shared, S ? S->H : nullptr, nullptr, Config);
  if (known(R) == CUDA_SUCCESS && !Live)
    broken("a kernel of an unloaded module was launched");
  // The parameters live on this stack frame only as long as the call, but
  // the allocations they point to must outlive the launch.
  known(cuCtxSynchronize());
}

void Sequence::checkInvariants() {
  size_t Expected = 0;
  for (const Allocation &A : Allocations)
    if (A.Live)
      Expected += chargeOf(A.Bytes);
  size_t Charged = chargedMemory();
  if (Charged != Expected)
    broken("the device's charged memory is not what the live allocations "
           "take",
           Charged);
}

void Sequence::finish() {
  for (size_t I = 0; I < Contexts.size(); ++I)
    if (Contexts[I].Live) {
      if (known(cuCtxDestroy(Contexts[I].H)) != CUDA_SUCCESS)
        broken("a live context could not be destroyed");
      contextDestroyed(I);
    }
  CUcontext Popped;
  while (cuCtxPopCurrent(&Popped) == CUDA_SUCCESS) {
  }
  known(cuCtxSetCurrent(nullptr));
  if (size_t Charged = chargedMemory())
    broken("memory is still charged after every context was destroyed",
           Charged);
  // Every stream's worker ends soon after its context (or stream) is gone.
  // Joining them also keeps libFuzzer's leak check, which runs after this
  // input, from racing with threads that hold the last references to their
  // queues on stacks the check does not see.
  if (!cucpu::joinWorkerThreads(std::chrono::seconds(5)))
    broken("a stream worker's thread still runs 5 s after every context "
           "was destroyed",
           0);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  observer();
  Input In(Data, Size);
  Sequence(In).run();
  return 0;
}
