//===- Link.h - The link stage of cucc's whole-program build ----*- C++ -*-===//
//
// The last stage of nvcc's default action: the host compiler links the
// objects with the CUDA runtime (-cudart) into a program or a shared
// library; -lib puts them into an archive instead.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_LINK_H
#define CUCPU_TOOLS_CUCC_LINK_H

#include "Compiler.h"
#include "Options.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cucpu::cucc {

/// The link by the host compiler \p Compiler of \p Objects (objects,
/// archives and shared libraries, in order) into \p Output: the user's -L/-l
/// and -Xlinker, then the CUDA runtime of -cudart from \p Tools.LibDir, which
/// is also the program's run path so that it runs without LD_LIBRARY_PATH.
std::vector<std::string> linkCommand(const Options &Opts,
                                     const Toolchain &Tools,
                                     llvm::StringRef Compiler,
                                     llvm::ArrayRef<std::string> Objects,
                                     llvm::StringRef Output);

/// `ar` writing the archive \p Output of \p Objects (-lib).
std::vector<std::string> archiveCommand(llvm::StringRef Archiver,
                                        llvm::ArrayRef<std::string> Objects,
                                        llvm::StringRef Output);

/// The archiver: ar on PATH, else llvm-ar beside \p Tools.Clang.
llvm::Expected<std::string> findArchiver(const Toolchain &Tools);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_LINK_H
