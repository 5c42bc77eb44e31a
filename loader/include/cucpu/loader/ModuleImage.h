//===- ModuleImage.h - The contents of a cucpu module image -----*- C++ -*-===//
//
// What cucc writes and the driver loads: the kernel's LLVM bitcode
// (NVVM-style IR, as clang emits for NVPTX64) plus everything the driver must
// know without compiling it. docs/module-format.md specifies how it is laid
// out in an ELF file; readImage() validates every field before use.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_MODULEIMAGE_H
#define CUCPU_LOADER_MODULEIMAGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cucpu::loader {

/// Version of the image format this code writes (docs/module-format.md).
inline constexpr uint32_t ImageFormatVersion = 3;
/// The oldest version this code still reads: version 2 differs only in
/// having no relocatable images.
inline constexpr uint32_t OldestImageFormatVersion = 2;

/// One kernel parameter in the CUDA parameter buffer (8-byte pointers,
/// natural alignment; structs passed by value keep their layout).
struct KernelParam {
  uint32_t Offset = 0; ///< Byte offset in the parameter buffer.
  uint32_t Size = 0;   ///< Bytes.
  uint32_t Align = 1;  ///< Alignment in bytes (a power of two).
};

/// What a kernel uses, so the driver can choose how to run it.
enum KernelUse : uint32_t {
  UsesBarrier = 1u << 0,       ///< __syncthreads and its variants.
  UsesWarpFunctions = 1u << 1, ///< shuffles, votes, __syncwarp, match.
  UsesTextures = 1u << 2,
  UsesPrintf = 1u << 3,
  UsesAssert = 1u << 4,
  UsesAtomics = 1u << 5,
  UsesDynamicShared = 1u << 6, ///< extern __shared__ arrays.
};

/// A __global__ function.
struct KernelInfo {
  std::string Name;                ///< The IR (mangled) name programs ask for.
  std::vector<KernelParam> Params; ///< In declaration order.
  uint32_t ParamBytes = 0;         ///< Size of the whole parameter buffer.
  uint32_t StaticShared = 0;       ///< Bytes of __shared__ variables it uses.
  uint32_t MaxThreadsPerBlock = 0; ///< From __launch_bounds__, 0 if none.
  uint32_t Uses = 0;               ///< KernelUse bits.
};

/// Where a module-scope variable lives.
enum class GlobalSpace : uint32_t { Device = 1, Constant = 4 };

/// A module-scope __device__ or __constant__ variable.
struct GlobalInfo {
  std::string Name;
  GlobalSpace Space = GlobalSpace::Device;
  uint64_t Size = 0;
  uint32_t Align = 1;
  std::vector<uint8_t> Initializer; ///< Size bytes, or empty for zeros.
};

/// A texture<T, Dim, ReadMode> reference declared at module scope. Its type
/// is known where a kernel fetches through it; otherwise every field but the
/// name is 0. A surface<void, Type> reference is a record of ReadMode
/// SurfaceReadMode whose channel fields are 0 (see isSurfaceReference).
struct TexRefInfo {
  std::string Name;
  uint32_t Dimensions = 1;   ///< cudaTextureType*: 1, 2, 3, 0x0C (cubemap),
                             ///< 0xF1, 0xF2, 0xFC (layered); 0: unknown.
  uint32_t ReadMode = 0;     ///< 0: element type, 1: normalized float,
                             ///< SurfaceReadMode: a surface reference.
  uint32_t ChannelKind = 0;  ///< 0: signed, 1: unsigned, 2: float.
  uint32_t ChannelBits = 32; ///< Bits of one channel.
  uint32_t Channels = 1;     ///< 1, 2 or 4.
};

/// The ReadMode of a surface reference's record.
inline constexpr uint32_t SurfaceReadMode = 2;

/// Whether \p T records a surface reference (surface<void, Type>) rather
/// than a texture reference.
inline bool isSurfaceReference(const TexRefInfo &T) {
  return T.ReadMode == SurfaceReadMode;
}

/// Everything one image holds.
struct ModuleImage {
  std::string Producer;   ///< e.g. "cucc 0.1.0 (LLVM 19.1.7)".
  std::string TargetArch; ///< The sm_XX the IR was compiled for.
  std::vector<KernelInfo> Kernels;
  std::vector<GlobalInfo> Globals;
  std::vector<TexRefInfo> TexRefs;
  std::vector<uint8_t> Bitcode; ///< LLVM bitcode of the whole module.
  /// Relocatable device code (cucc -rdc, ELF type ET_REL): the IR may call
  /// functions and use variables that another image defines, so it is
  /// linked (cuLinkComplete) before it can be loaded.
  bool Relocatable = false;
};

/// Bytes of the image's __constant__ variables
/// (CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES).
inline uint64_t constantBytes(const ModuleImage &Image) {
  uint64_t Bytes = 0;
  for (const GlobalInfo &G : Image.Globals)
    if (G.Space == GlobalSpace::Constant)
      Bytes += G.Size;
  return Bytes;
}

/// Parses and validates an ELF module image of \p Bytes. Every offset, size,
/// index and string is checked; the error says what was wrong.
llvm::Expected<ModuleImage> readImage(llvm::ArrayRef<uint8_t> Bytes);

/// Serializes \p Image as an ELF module image.
llvm::Expected<std::vector<uint8_t>> writeImage(const ModuleImage &Image);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_MODULEIMAGE_H
