//===- LaunchConfig.h - Everything one kernel launch needs ------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_LAUNCHCONFIG_H
#define CUCPU_DRIVER_CORE_LAUNCHCONFIG_H

#include "cucpu/modules/abi/JitAbi.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cucpu {

class DeviceHeap;

/// Largest block a kernel may be launched with (threads), as on NVIDIA.
inline constexpr unsigned MaxThreadsPerBlock = 1024;
/// Largest block dimensions x, y, z.
inline constexpr std::array<unsigned, 3> MaxBlockDim = {1024, 1024, 64};
/// Largest grid dimensions x, y, z.
inline constexpr std::array<unsigned, 3> MaxGridDim = {2147483647u, 65535u,
                                                       65535u};
/// Size of a kernel's parameter buffer (cuParamSet*, CUDA's 4 KB limit).
inline constexpr unsigned MaxParamBytes = 4096;
/// Smallest fiber stack, whatever CU_LIMIT_STACK_SIZE says: host code such as
/// printf's formatting runs on it.
inline constexpr size_t MinFiberStack = 64 * 1024;

/// One launch, fully resolved and validated by the caller.
struct LaunchConfig {
  CucpuThreadEntry Entry = nullptr; ///< Runs one CUDA thread.
  /// Runs a whole block (preferred when set); FrameBytes per thread.
  CucpuBlockEntry BlockEntry = nullptr;
  uint32_t FrameBytes = 0;
  /// For messages; the kernel's Function outlives the launch.
  llvm::StringRef KernelName;
  std::array<unsigned, 3> Grid = {1, 1, 1};
  std::array<unsigned, 3> Block = {1, 1, 1};
  uint32_t StaticShared = 0;    ///< Bytes of __shared__ variables.
  uint32_t DynamicShared = 0;   ///< Bytes of extern __shared__ arrays.
  const char *Params = nullptr; ///< Parameter buffer, CUDA layout.
  /// The module's texture references as this launch reads them.
  const CucpuTexture *TexRefs = nullptr;
  /// What the kernel's malloc and free use: its context's heap.
  DeviceHeap *Heap = nullptr;
  /// Stop the launch after this many milliseconds (0: never).
  unsigned WatchdogMs = 0;
  size_t StackBytes = MinFiberStack; ///< Per CUDA thread.
  /// A cooperative launch: every block runs at once, on a thread of its
  /// own, so that blocks can meet at the grid barrier (grid_group::sync()).
  bool Cooperative = false;

  /// Threads in one block.
  unsigned threadsPerBlock() const { return Block[0] * Block[1] * Block[2]; }
  /// Blocks in the grid.
  uint64_t blocks() const { return uint64_t(Grid[0]) * Grid[1] * Grid[2]; }
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_LAUNCHCONFIG_H
