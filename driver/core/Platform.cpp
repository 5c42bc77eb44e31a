//===- Platform.cpp - Driver initialization and the device list -----------===//
#include "core/Platform.h"

#include "core/Context.h"
#include "core/Error.h"
#include "core/HostInfo.h"
#include "core/HostMemory.h"

#include "cucpu/modules/JitModule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <charconv>
#include <cstring>

using namespace cucpu;

namespace {
/// Upper bound of CUCPU_DEVICES, as a sanity limit.
constexpr int MaxDevices = 64;

/// A UUID for device \p Ordinal, stable across runs on one machine.
CUuuid makeUuid(int Ordinal) {
  uint64_t Machine = host::machineId();
  uint64_t Mixed = Machine ^ (0x9e3779b97f4a7c15ULL * (Ordinal + 1));
  CUuuid Uuid;
  for (int I = 0; I < 8; ++I) {
    Uuid.bytes[I] = static_cast<char>((Machine >> (8 * I)) & 0xff);
    Uuid.bytes[8 + I] = static_cast<char>((Mixed >> (8 * I)) & 0xff);
  }
  // RFC 4122 version 8 (custom) and variant bits.
  Uuid.bytes[6] = static_cast<char>((Uuid.bytes[6] & 0x0f) | 0x80);
  Uuid.bytes[8] = static_cast<char>((Uuid.bytes[8] & 0x3f) | 0x80);
  return Uuid;
}

/// "GPU-xxxxxxxx-xxxx-..." form of a UUID, as CUDA_VISIBLE_DEVICES uses.
std::string uuidText(const CUuuid &Uuid) {
  std::string Text = "GPU-";
  for (int I = 0; I < 16; ++I) {
    if (I == 4 || I == 6 || I == 8 || I == 10)
      Text += '-';
    Text += llvm::utohexstr(static_cast<unsigned char>(Uuid.bytes[I]), true, 2);
  }
  return Text;
}

std::optional<int> parseInt(llvm::StringRef Text) {
  int Value = 0;
  Text = Text.trim();
  if (Text.getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}
} // namespace

Platform &Platform::get() {
  // Never destroyed: contexts may still be released during static teardown.
  static Platform *Instance = new Platform;
  return *Instance;
}

llvm::Error Platform::initialize(unsigned Flags) {
  CU_INVALID_IF(Flags != 0, CUDA_ERROR_INVALID_VALUE,
                "cuInit flags must be 0 (got {0}).", Flags);
  std::lock_guard Lock(InitMutex);
  if (!InitAttempted) {
    InitAttempted = true;
    if (llvm::Error E = createDevices()) {
      InitResult = toResult(std::move(E), InitMessage);
    } else {
      modules::prepareJit();
      Initialized.store(true, std::memory_order_release);
    }
  }
  if (InitResult != CUDA_SUCCESS)
    return makeError(InitResult, InitMessage);
  return llvm::Error::success();
}

llvm::Error Platform::createDevices() {
  unsigned Cores = host::usableCores();

  int Count = 1;
  if (auto Text = host::env("CUCPU_DEVICES")) {
    auto Value = parseInt(*Text);
    CU_INVALID_IF(!Value || *Value < 0 || *Value > MaxDevices,
                  CUDA_ERROR_INVALID_VALUE,
                  "CUCPU_DEVICES must be a device count from 0 to {0} (got "
                  "\"{1}\").",
                  MaxDevices, *Text);
    Count = *Value;
  }

  unsigned Workers = std::max(1u, Cores / std::max(1, Count));
  if (auto Text = host::env("CUCPU_WORKERS")) {
    auto Value = parseInt(*Text);
    CU_INVALID_IF(!Value || *Value < 1 || *Value > 4096,
                  CUDA_ERROR_INVALID_VALUE,
                  "CUCPU_WORKERS must be a worker count from 1 to 4096 (got "
                  "\"{0}\").",
                  *Text);
    Workers = static_cast<unsigned>(*Value);
  }

  // The memory the process may use, less what it needs besides the devices.
  size_t Budget = (host::memoryLimit() - host::memoryHeadroom()) /
                  static_cast<size_t>(std::max(1, Count));
  if (auto Text = host::env("CUCPU_DEVICE_MEMORY")) {
    auto Value = host::parseByteCount(*Text);
    CU_INVALID_IF(!Value || *Value == 0, CUDA_ERROR_INVALID_VALUE,
                  "CUCPU_DEVICE_MEMORY must be a byte count such as 4G (got "
                  "\"{0}\").",
                  *Text);
    Budget = *Value;
  }

  std::string CpuName = host::cpuName();
  int ClockRateKHz = host::clockRateKHz();
  int CacheBytes = host::lastLevelCacheBytes();
  std::vector<DeviceDescription> All;
  for (int I = 0; I < Count; ++I) {
    DeviceDescription D;
    D.Name = Count == 1
                 ? CpuName
                 : llvm::formatv("{0} (part {1} of {2})", CpuName, I + 1, Count)
                       .str();
    D.Workers = Workers;
    D.MemoryBudget = Budget;
    D.Uuid = makeUuid(I);
    D.PciBus = I + 1;
    D.ClockRateKHz = ClockRateKHz;
    D.CacheBytes = CacheBytes;
    All.push_back(std::move(D));
  }

  // CUDA_VISIBLE_DEVICES: a comma-separated list of ordinals or UUIDs
  // (prefixes allowed); enumeration stops at the first entry that names no
  // device, as NVIDIA's driver does.
  std::vector<DeviceDescription> Visible;
  if (auto Text = host::env("CUDA_VISIBLE_DEVICES")) {
    llvm::SmallVector<llvm::StringRef> Entries;
    llvm::StringRef(*Text).split(Entries, ',', -1, /*KeepEmpty=*/true);
    for (llvm::StringRef Entry : Entries) {
      Entry = Entry.trim();
      const DeviceDescription *Match = nullptr;
      if (auto Index = parseInt(Entry)) {
        if (*Index >= 0 && *Index < Count)
          Match = &All[*Index];
      } else if (Entry.starts_with("GPU-") && Entry.size() > 4) {
        for (const DeviceDescription &D : All)
          if (llvm::StringRef(uuidText(D.Uuid)).starts_with_insensitive(Entry))
            Match = Match ? nullptr : &D; // Ambiguous prefixes match nothing.
      }
      if (!Match || std::any_of(Visible.begin(), Visible.end(),
                                [&](const DeviceDescription &V) {
                                  return V.PciBus == Match->PciBus;
                                }))
        break;
      Visible.push_back(*Match);
    }
  } else {
    Visible = std::move(All);
  }

  CU_INVALID_IF(Visible.empty(), CUDA_ERROR_NO_DEVICE,
                "No cucpu device is visible (CUCPU_DEVICES={0}, "
                "CUDA_VISIBLE_DEVICES=\"{1}\").",
                Count, host::env("CUDA_VISIBLE_DEVICES").value_or(""));

  for (size_t I = 0; I < Visible.size(); ++I) {
    Visible[I].Ordinal = static_cast<int>(I);
    Devices.push_back(std::make_unique<Device>(std::move(Visible[I])));
  }
  return llvm::Error::success();
}

llvm::Expected<Device &> Platform::device(int Ordinal) {
  CU_INVALID_IF(Ordinal < 0 || Ordinal >= deviceCount(),
                CUDA_ERROR_INVALID_DEVICE,
                "Device ordinal {0} is out of range (there {1} {2} device{3}).",
                Ordinal, deviceCount() == 1 ? "is" : "are", deviceCount(),
                deviceCount() == 1 ? "" : "s");
  return *Devices[Ordinal];
}

llvm::Expected<Device &> Platform::deviceByPciBusId(const char *BusId) {
  // Accepted forms: domain:bus:device.function, domain:bus:device,
  // bus:device.function.
  unsigned Domain = 0, Bus = 0, Dev = 0, Function = 0;
  llvm::StringRef Text(BusId);
  llvm::SmallVector<llvm::StringRef> Parts;
  Text.split(Parts, ':');
  bool Ok = false;
  if (Parts.size() == 3 || Parts.size() == 2) {
    size_t First = Parts.size() == 3 ? 1 : 0;
    llvm::StringRef DevFn = Parts[First + 1];
    auto [DevText, FnText] = DevFn.split('.');
    Ok = !(Parts.size() == 3 && Parts[0].getAsInteger(16, Domain)) &&
         !Parts[First].getAsInteger(16, Bus) &&
         !DevText.getAsInteger(16, Dev) &&
         (FnText.empty() || !FnText.getAsInteger(16, Function));
  }
  CU_INVALID_IF(!Ok, CUDA_ERROR_INVALID_VALUE,
                "\"{0}\" is not a PCI bus id of the form "
                "domain:bus:device.function.",
                BusId);
  for (auto &D : Devices)
    if (Domain == 0 && Bus == static_cast<unsigned>(D->pciBus()) && Dev == 0 &&
        Function == 0)
      return *D;
  return makeError(CUDA_ERROR_INVALID_DEVICE,
                   llvm::formatv("No device has PCI bus id \"{0}\".", BusId));
}

void Platform::addContext(const std::shared_ptr<Context> &C) {
  std::lock_guard Lock(ContextsMutex);
  Contexts.push_back(C);
}

void Platform::removeContext(const Context *C) {
  std::lock_guard Lock(ContextsMutex);
  llvm::erase_if(Contexts, [&](const std::weak_ptr<Context> &W) {
    auto Live = W.lock();
    return !Live || Live.get() == C;
  });
}

llvm::SmallVector<std::shared_ptr<Context>, 8> Platform::liveContexts() const {
  llvm::SmallVector<std::shared_ptr<Context>, 8> Result;
  std::shared_lock Lock(ContextsMutex);
  for (const auto &W : Contexts)
    if (auto C = W.lock())
      Result.push_back(std::move(C));
  return Result;
}
