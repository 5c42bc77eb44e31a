//===- ImageBuilder.h - Fill a ModuleImage from device IR -------*- C++ -*-===//
//
// Reads an NVVM-style module (clang's for cucc, or the PTX front end's) and
// describes it for the driver (loader::ModuleImage): kernels with their
// parameter layout, static shared memory, launch bounds and uses; module
// globals with their initializers; the bitcode itself.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_IMAGE_IMAGEBUILDER_H
#define CUCPU_MODULES_IMAGE_IMAGEBUILDER_H

#include "cucpu/loader/ModuleImage.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace cucpu::image {

/// True if \p F is a kernel: listed as one in !nvvm.annotations, or with the
/// ptx_kernel calling convention that newer clang uses instead.
bool isKernel(const llvm::Function &F);

/// Describes \p M (an NVPTX64 module) as a module image for \p Arch; the
/// error names the kernel or global that cannot be described. A
/// \p Relocatable image (-rdc) may use variables it only declares.
llvm::Expected<loader::ModuleImage> buildImage(const llvm::Module &M,
                                               llvm::StringRef Arch,
                                               llvm::StringRef Producer,
                                               bool Relocatable = false);

/// The producer string cucc writes: "cucc <version> (LLVM <version>)".
std::string producerString();

} // namespace cucpu::image

#endif // CUCPU_MODULES_IMAGE_IMAGEBUILDER_H
