//===- ModuleFormat.h - Constants of the cucpu module image format --------===//
//
// The numbers docs/module-format.md specifies, shared by the reader, the
// writer, the tests and the inspector. Every record is little-endian with
// fixed 32-bit fields; the byte offsets are given next to each field.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_MODULEFORMAT_H
#define CUCPU_LOADER_MODULEFORMAT_H

#include <cstdint>

namespace cucpu::loader::format {

/// e_machine of every CUDA ELF image.
inline constexpr uint16_t MachineCuda = 190; // EM_CUDA
/// EI_OSABI of a cucpu image (NVIDIA's cubins use 0x33 or 0x41).
inline constexpr uint8_t OsAbiCucpu = 0xCC;
/// e_flags bits 0-15: the number of the target architecture (sm_90 -> 90).
inline constexpr uint32_t FlagsArchMask = 0xFFFF;

/// Section names (NVIDIA's where a cubin has a counterpart).
inline constexpr const char *NoteSection = ".note.cucpu";
inline constexpr const char *ModuleInfoSection = ".nv.info";
inline constexpr const char *KernelInfoPrefix = ".nv.info.";
inline constexpr const char *SharedPrefix = ".nv.shared.";
inline constexpr const char *GlobalSection = ".nv.global";
inline constexpr const char *GlobalInitSection = ".nv.global.init";
inline constexpr const char *ConstantSection = ".nv.constant3";

/// The note: owner "cucpu", type NoteTypeImage.
inline constexpr const char *NoteOwner = "cucpu";
inline constexpr uint32_t NoteTypeImage = 0xCC01;
/// Descriptor: u32 FormatVersion @0, u32 ProducerSize @4 (with its NUL),
/// u32 ArchSize @8 (with its NUL), u32 BitcodeCrc32 @12 (CRC-32 of the IR
/// section's contents), then the two strings.
inline constexpr uint32_t NoteDescHeaderSize = 16;

/// .nv.info.<kernel>: u32 ParamCount @0, u32 ParamBytes @4,
/// u32 MaxThreadsPerBlock @8, u32 Uses @12, then ParamCount records.
inline constexpr uint32_t KernelInfoHeaderSize = 16;
/// Parameter record: u32 Offset @0, u32 Size @4, u32 Align @8.
inline constexpr uint32_t ParamRecordSize = 12;

/// .nv.info: u32 GlobalCount @0, u32 TexRefCount @4, u32 Reserved @8,
/// u32 Reserved @12, then the global records, then the texture records.
inline constexpr uint32_t ModuleInfoHeaderSize = 16;
/// Global record: u32 Symbol @0, u32 Align @4, u32 Flags @8, u32 Reserved @12.
inline constexpr uint32_t GlobalRecordSize = 16;
/// Global record flag: the variable has an initializer.
inline constexpr uint32_t GlobalHasInitializer = 1;
/// Texture record: u32 Symbol @0, u32 Dimensions @4, u32 ReadMode @8,
/// u32 ChannelKind @12, u32 ChannelBits @16, u32 Channels @20.
inline constexpr uint32_t TexRefRecordSize = 24;

/// Limits checked by the validator. Kernel parameters: 32,764 bytes, what
/// CUDA 12.1 and later allow on compute capability 7.0 and up (CUDA C++
/// Programming Guide, Function Parameters); the legacy cuParamSet* buffer
/// keeps its 4 KB (driver/core/LaunchConfig.h).
inline constexpr uint32_t MaxParamBytes = 32764;
inline constexpr uint32_t MaxGlobalAlign = 65536;
inline constexpr uint64_t MaxGlobalSize = uint64_t(1) << 40;
inline constexpr uint32_t MaxNameLength = 65536;
inline constexpr uint32_t MaxProducerLength = 4096;
inline constexpr uint32_t KnownUses = (1u << 7) - 1;

} // namespace cucpu::loader::format

#endif // CUCPU_LOADER_MODULEFORMAT_H
