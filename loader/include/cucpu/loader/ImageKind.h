//===- ImageKind.h - Telling module images apart by their bytes -*- C++ -*-===//
#ifndef CUCPU_LOADER_IMAGEKIND_H
#define CUCPU_LOADER_IMAGEKIND_H

#include <cstddef>
#include <string>

namespace cucpu::loader {

/// What a buffer handed to cuModuleLoadData holds.
enum class ImageKind {
  Empty,            ///< No bytes, or an empty string.
  CucpuImage,       ///< An ELF image for EM_CUDA carrying cucpu's IR section.
  NvidiaCubin,      ///< An ELF image for EM_CUDA with NVIDIA machine code only.
  FatBinary,        ///< NVIDIA's fat-binary container (magic 0xBA55ED50).
  FatBinaryWrapper, ///< The __fatBinC_Wrapper_t that nvcc embeds in hosts.
  Ptx,              ///< PTX assembly text.
  OtherElf,         ///< A well-formed ELF file for another machine.
  Malformed,        ///< Starts like an ELF file but is not a valid one.
  Unknown,          ///< Anything else.
};

/// Name of the section that holds a cucpu image's LLVM bitcode.
inline constexpr const char *IrSectionName = ".nv.cucpu.llvmir";

/// Classifies \p Size bytes at \p Data (Size is 0 when unknown: the extent
/// is then what the header claims, checked against readable memory by
/// sizelessImage()). \p Why receives a sentence explaining Malformed or
/// Unknown.
ImageKind classifyImage(const void *Data, size_t Size, std::string &Why);

/// Classifies the \p Size bytes (> 0) at \p Data as an ELF file: OtherElf
/// when its e_machine is not EM_CUDA, else CucpuImage or NvidiaCubin if
/// ElfFile validates it, Malformed (\p Why says why) if not.
ImageKind classifyElf(const void *Data, size_t Size, std::string &Why);

/// A short English name of \p Kind for messages.
const char *describe(ImageKind Kind);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_IMAGEKIND_H
