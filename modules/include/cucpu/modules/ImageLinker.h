//===- ImageLinker.h - Linking relocatable module images --------*- C++ -*-===//
//
// What cuLinkComplete does with the images added to a link: their IR is
// linked into one module (llvm::Linker), their kernel, variable and texture
// tables are merged, and the result is one whole (not relocatable) image
// that cuModuleLoadData loads like any other. docs/linking.md describes it.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_IMAGELINKER_H
#define CUCPU_MODULES_IMAGELINKER_H

#include "cucpu/loader/ModuleImage.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class GlobalValue;
}

#include <string>

namespace cucpu::modules {

/// One image given to a link, with the name that messages call it by (the
/// name given to cuLinkAddData, or the file of cuLinkAddFile).
struct LinkInput {
  loader::ModuleImage Image;
  std::string Name;
};

/// Links \p Inputs (at least one) into one image that is not relocatable.
/// A symbol defined by two inputs is a JitError of kind InvalidImage, a
/// function or variable that some input uses and none defines (and that the
/// JIT does not provide) one of kind NotFound; each message names the
/// symbol and the inputs. \p InfoLog, if given, receives a line of notes.
llvm::Expected<loader::ModuleImage> linkImages(llvm::ArrayRef<LinkInput> Inputs,
                                               std::string *InfoLog = nullptr);

/// Whether an image may leave \p Name undefined because the JIT provides it
/// when the image is loaded: LLVM intrinsics, the math library, printf,
/// assert, malloc/free and cucpu's runtime functions.
bool isProvidedAtLoad(llvm::StringRef Name);
/// Whether declaration \p GV needs no definition in a linked image: a name
/// provided at load (isProvidedAtLoad), or dynamic shared memory (an
/// `extern __shared__` array in address space 3), whose storage each launch
/// provides.
bool isProvidedAtLoad(const llvm::GlobalValue &GV);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_IMAGELINKER_H
