//===- CodeRanges.cpp - Where JIT-compiled code lies ----------------------===//
//
// A fixed table of atomic [Start, End) slots: linking fills a free slot per
// executable section, removal clears it; the signal handler scans it with
// plain atomic loads. A slot's End is written before its Start, and Start is
// cleared first, so a reader never sees a half-written range.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/CodeRanges.h"

#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"

#include <atomic>
#include <map>
#include <mutex>
#include <vector>

using namespace llvm;
using namespace llvm::orc;

namespace {

/// Slots for executable sections alive at once (each loaded module and each
/// specialized kernel has a few).
constexpr size_t MaxRanges = 16384;

struct Slot {
  std::atomic<uintptr_t> Start{0};
  std::atomic<uintptr_t> End{0};
};

Slot Slots[MaxRanges];
/// One past the highest slot ever claimed: readers (signal handlers, on
/// every fault and every watchdog signal) look no further.
std::atomic<size_t> SlotsUsed{0};
std::mutex WriterMutex; ///< Serializes writers; readers take no lock.

/// Claims a slot for [Start, End); returns its index, or -1 when full (the
/// range is then not recognized: a fault in it is not caught).
int addRange(uintptr_t Start, uintptr_t End) {
  std::lock_guard Lock(WriterMutex);
  for (size_t I = 0; I < MaxRanges; ++I)
    if (Slots[I].Start.load(std::memory_order_relaxed) == 0) {
      Slots[I].End.store(End, std::memory_order_relaxed);
      Slots[I].Start.store(Start, std::memory_order_release);
      if (I >= SlotsUsed.load(std::memory_order_relaxed))
        SlotsUsed.store(I + 1, std::memory_order_release);
      return int(I);
    }
  return -1;
}

void removeRange(int Index) {
  if (Index < 0)
    return;
  std::lock_guard Lock(WriterMutex);
  Slots[Index].Start.store(0, std::memory_order_release);
  Slots[Index].End.store(0, std::memory_order_relaxed);
}

/// Records the executable sections of every linked graph, by the resource
/// key that frees them.
class CodeRangePlugin : public ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(MaterializationResponsibility &MR, jitlink::LinkGraph &,
                        jitlink::PassConfiguration &Config) override {
    Config.PostAllocationPasses.push_back(
        [this, &MR](jitlink::LinkGraph &G) -> Error {
          std::vector<int> Added;
          for (jitlink::Section &S : G.sections()) {
            if ((S.getMemProt() & MemProt::Exec) == MemProt::None)
              continue;
            jitlink::SectionRange R(S);
            if (R.empty())
              continue;
            Added.push_back(
                addRange(R.getStart().getValue(), R.getEnd().getValue()));
          }
          return MR.withResourceKeyDo([&](ResourceKey K) {
            std::lock_guard Lock(Mutex);
            auto &Keyed = ByKey[K];
            Keyed.insert(Keyed.end(), Added.begin(), Added.end());
          });
        });
  }

  Error notifyFailed(MaterializationResponsibility &MR) override {
    return MR.withResourceKeyDo([&](ResourceKey K) { forget(K); });
  }

  Error notifyRemovingResources(JITDylib &, ResourceKey K) override {
    forget(K);
    return Error::success();
  }

  void notifyTransferringResources(JITDylib &, ResourceKey Dst,
                                   ResourceKey Src) override {
    std::lock_guard Lock(Mutex);
    auto It = ByKey.find(Src);
    if (It == ByKey.end())
      return;
    auto &To = ByKey[Dst];
    To.insert(To.end(), It->second.begin(), It->second.end());
    ByKey.erase(Src);
  }

private:
  void forget(ResourceKey K) {
    std::vector<int> Indices;
    {
      std::lock_guard Lock(Mutex);
      auto It = ByKey.find(K);
      if (It == ByKey.end())
        return;
      Indices = std::move(It->second);
      ByKey.erase(It);
    }
    for (int I : Indices)
      removeRange(I);
  }

  std::mutex Mutex;
  std::map<ResourceKey, std::vector<int>> ByKey;
};

} // namespace

bool cucpu::modules::isJitCode(uintptr_t Address) {
  size_t Used = SlotsUsed.load(std::memory_order_acquire);
  for (size_t I = 0; I < Used; ++I) {
    const Slot &S = Slots[I];
    uintptr_t Start = S.Start.load(std::memory_order_acquire);
    if (Start && Address >= Start &&
        Address < S.End.load(std::memory_order_relaxed))
      return true;
  }
  return false;
}

void cucpu::modules::trackCodeRanges(ObjectLinkingLayer &Layer) {
  Layer.addPlugin(std::make_unique<CodeRangePlugin>());
}
