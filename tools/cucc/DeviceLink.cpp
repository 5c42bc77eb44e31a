//===- DeviceLink.cpp - The device link of relocatable device code --------===//
#include "DeviceLink.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace llvm;

namespace cucpu::cucc {

namespace {

constexpr StringLiteral RegistrationPrefix = "__cudaRegisterLinkedBinary_";

/// Adds the registrations \p Object uses and the ones it defines.
void scanObject(const object::ObjectFile &Object, StringSet<> &Used,
                StringSet<> &Defined) {
  for (const object::SymbolRef &Symbol : Object.symbols()) {
    Expected<StringRef> Name = Symbol.getName();
    Expected<uint32_t> Flags = Symbol.getFlags();
    if (!Name || !Flags) {
      consumeError(Name.takeError());
      consumeError(Flags.takeError());
      continue;
    }
    if (!Name->starts_with(RegistrationPrefix))
      continue;
    if (*Flags & object::SymbolRef::SF_Undefined)
      Used.insert(*Name);
    else
      Defined.insert(*Name);
  }
}

Error scanFile(StringRef Path, StringSet<> &Used, StringSet<> &Defined) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "cannot read the link input '" + Path + "'");
  MemoryBufferRef Ref = (*Buffer)->getMemBufferRef();
  if (identify_magic(Ref.getBuffer()) == file_magic::archive) {
    Expected<std::unique_ptr<object::Archive>> Archive =
        object::Archive::create(Ref);
    if (!Archive)
      return Archive.takeError();
    Error Err = Error::success();
    for (const object::Archive::Child &Child : (*Archive)->children(Err)) {
      Expected<MemoryBufferRef> Member = Child.getMemoryBufferRef();
      if (!Member)
        return Member.takeError();
      Expected<std::unique_ptr<object::ObjectFile>> Object =
          object::ObjectFile::createObjectFile(*Member);
      if (!Object) {
        consumeError(Object.takeError()); // not an object: nothing to link
        continue;
      }
      scanObject(**Object, Used, Defined);
    }
    return Err;
  }
  file_magic Magic = identify_magic(Ref.getBuffer());
  if (Magic != file_magic::elf_relocatable)
    return Error::success(); // Shared libraries register their own.
  Expected<std::unique_ptr<object::ObjectFile>> Object =
      object::ObjectFile::createObjectFile(Ref);
  if (!Object)
    return Object.takeError();
  scanObject(**Object, Used, Defined);
  return Error::success();
}

} // namespace

Expected<std::vector<std::string>>
linkedBinaryRegistrations(ArrayRef<std::string> Inputs) {
  StringSet<> Used, Defined;
  for (const std::string &Path : Inputs)
    if (Error E = scanFile(Path, Used, Defined))
      return E;
  std::vector<std::string> Missing;
  for (const auto &Entry : Used)
    if (!Defined.contains(Entry.getKey()))
      Missing.push_back(Entry.getKey().str());
  std::sort(Missing.begin(), Missing.end());
  return Missing;
}

std::string deviceLinkSource(ArrayRef<std::string> Registrations) {
  std::string Text =
      "/* cucc's device link: each translation unit compiled with -rdc=true\n"
      "   registers its relocatable device code with the runtime, which\n"
      "   links the units of this program when it first uses them. */\n"
      "extern void __cudaRegisterRelocatableBinary(void (*)(void **), "
      "void *,\n                                            const void *);\n"
      "static const char LinkUnit;\n";
  for (const std::string &Name : Registrations)
    Text += formatv("void {0}(void (*RegisterGlobals)(void **), void "
                    "*FatCubin,\n    void *ModuleId, void (*Unused)(void *)) "
                    "{{\n  (void)ModuleId;\n  (void)Unused;\n  "
                    "__cudaRegisterRelocatableBinary(RegisterGlobals, "
                    "FatCubin, &LinkUnit);\n}\n",
                    Name);
  return Text;
}

} // namespace cucpu::cucc
