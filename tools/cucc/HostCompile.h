//===- HostCompile.h - The host side of a whole program ---------*- C++ -*-===//
//
// The commands that compile host code into objects, as nvcc's host stages
// do: clang's CUDA host pass for a .cu file, which embeds the fat binary of
// its device pass and registers its kernels with the CUDA runtime, and the
// host compiler (g++, or -ccbin) for C and C++ files.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_HOSTCOMPILE_H
#define CUCPU_TOOLS_CUCC_HOSTCOMPILE_H

#include "Compiler.h"
#include "Options.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cucpu::cucc {

/// The compilation unit id of \p Source (clang's -cuid) that both passes
/// share: a hash of its absolute path and of the options that change code.
std::string compilationUnitId(const Options &Opts, llvm::StringRef Source);

/// clang's CUDA host pass over \p Source: host code, with \p Fatbin (the
/// device pass's fat binary) embedded and registered by a constructor
/// (__cudaRegisterFatBinary, __cudaRegisterFunction, ...) and each <<<>>>
/// calling cudaLaunchKernel; writes the IR \p Bitcode, which cucc rewrites
/// for managed variables (ManagedVariables.h) before hostCodegenCommand.
std::vector<std::string>
hostPassCommand(const Options &Opts, const Toolchain &Tools,
                llvm::StringRef Source, llvm::StringRef Fatbin,
                llvm::StringRef Cuid, llvm::StringRef Bitcode);

/// clang compiling the host pass's IR \p Bitcode into the object \p Object.
std::vector<std::string> hostCodegenCommand(const Options &Opts,
                                            const Toolchain &Tools,
                                            llvm::StringRef Bitcode,
                                            llvm::StringRef Object);

/// The host compiler \p Compiler compiling the C or C++ file \p In into
/// \p Object, with the toolkit's include folder on the path as nvcc has it.
std::vector<std::string> hostCompilerCommand(const Options &Opts,
                                             const Toolchain &Tools,
                                             llvm::StringRef Compiler,
                                             const InputFile &In,
                                             llvm::StringRef Object);

/// clang compiling the device-link source \p Source (DeviceLink.h) into
/// the object \p Object.
std::vector<std::string> deviceLinkCommand(const Toolchain &Tools,
                                           llvm::StringRef Source,
                                           llvm::StringRef Object);

/// The host compiler, which compiles C and C++ files and links: -ccbin (a
/// compiler, or a folder holding g++), else g++ on PATH, else clang++ beside
/// \p Tools.Clang or on PATH.
llvm::Expected<std::string> findHostCompiler(const Options &Opts,
                                             const Toolchain &Tools);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_HOSTCOMPILE_H
