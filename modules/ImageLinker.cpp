//===- ImageLinker.cpp - Linking relocatable module images ----------------===//
//
// The inputs' IR is parsed into one LLVMContext and linked with llvm::Linker
// into the first input's module. Duplicate definitions are found before
// linking, so the message can name both inputs (llvm::Linker only says that
// a symbol is multiply defined); symbols still undefined are found after.
// The tables follow the IR: kernels, variables and texture references are
// each defined by exactly one input, so merging them is concatenation.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/ImageLinker.h"

#include "cucpu/modules/JitError.h"
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

using namespace llvm;
using namespace cucpu;
using namespace cucpu::modules;

namespace {
/// "'_Z5scalei' (scale(int))", or the name alone when it is not mangled.
std::string describeSymbol(StringRef Name) {
  std::string Demangled = demangle(Name);
  if (Demangled == Name)
    return ("'" + Name + "'").str();
  return ("'" + Name + "' (" + Demangled + ")").str();
}

/// A definition that the linker may not merge with another of its name:
/// external linkage (not weak, linkonce, common or available_externally).
bool isStrongDefinition(const GlobalValue &GV) {
  return !GV.isDeclaration() && GV.hasExternalLinkage();
}

/// The SM number of "sm_75" (75), 0 if it has none.
unsigned archNumber(StringRef Arch) {
  unsigned N = 0;
  Arch.drop_front(Arch.find('_') + 1).rtrim("af").getAsInteger(10, N);
  return N;
}

/// Collects what llvm::Linker reports, so that its errors become messages.
struct LinkDiagnostics {
  std::string Errors;
  static void handle(const DiagnosticInfo *DI, void *Self) {
    auto *D = static_cast<LinkDiagnostics *>(Self);
    if (DI->getSeverity() != DS_Error)
      return;
    raw_string_ostream OS(D->Errors);
    if (!D->Errors.empty())
      OS << ' ';
    DiagnosticPrinterRawOStream Printer(OS);
    DI->print(Printer);
  }
};
} // namespace

bool cucpu::modules::isProvidedAtLoad(StringRef Name) {
  if (Name.starts_with("llvm.") || Name.starts_with("__nv_") ||
      Name.starts_with("__cucpu"))
    return true;
  if (is_contained(
          {"vprintf", "__assertfail", "__assert_fail", "malloc", "free"}, Name))
    return true;
  return runtimeLibrary().contains(Name);
}

bool cucpu::modules::isProvidedAtLoad(const GlobalValue &GV) {
  if (isa<GlobalVariable>(GV) && GV.getAddressSpace() == 3)
    return true;
  return isProvidedAtLoad(GV.getName());
}

Expected<loader::ModuleImage>
cucpu::modules::linkImages(ArrayRef<LinkInput> Inputs, std::string *InfoLog) {
  if (Inputs.empty())
    return makeJitError(JitErrorKind::InvalidImage,
                        "There is nothing to link: no image was added.");
  LLVMContext Ctx;
  LinkDiagnostics Diags;
  Ctx.setDiagnosticHandlerCallBack(&LinkDiagnostics::handle, &Diags);

  std::vector<std::unique_ptr<Module>> Modules;
  for (const LinkInput &In : Inputs) {
    StringRef Bytes(reinterpret_cast<const char *>(In.Image.Bitcode.data()),
                    In.Image.Bitcode.size());
    Expected<std::unique_ptr<Module>> M =
        parseBitcodeFile(MemoryBufferRef(Bytes, In.Name), Ctx);
    if (!M)
      return makeJitError(JitErrorKind::InvalidImage,
                          formatv("The LLVM IR of '{0}' cannot be read: {1}",
                                  In.Name, toString(M.takeError())));
    Modules.push_back(std::move(*M));
  }

  // Every strong definition, by name: the first input that defines it.
  StringMap<size_t> DefinedBy;
  std::vector<std::string> Duplicates;
  for (size_t I = 0; I < Modules.size(); ++I)
    for (const GlobalValue &GV : Modules[I]->global_values()) {
      if (!isStrongDefinition(GV))
        continue;
      auto [It, New] = DefinedBy.try_emplace(GV.getName(), I);
      if (!New)
        Duplicates.push_back(formatv("{0} is defined in both '{1}' and '{2}'.",
                                     describeSymbol(GV.getName()),
                                     Inputs[It->second].Name, Inputs[I].Name));
    }
  if (!Duplicates.empty())
    return makeJitError(JitErrorKind::InvalidImage,
                        "Multiple definitions: " + join(Duplicates, " "));

  // What each input leaves to the others, to name the users of a symbol
  // that nothing defines.
  StringMap<std::vector<size_t>> UsedBy;
  for (size_t I = 0; I < Modules.size(); ++I)
    for (const GlobalValue &GV : Modules[I]->global_values())
      if (GV.isDeclaration() && !GV.use_empty() && !isProvidedAtLoad(GV))
        UsedBy[GV.getName()].push_back(I);

  // Each input's static (internal) variables: two inputs may each have one
  // of the same name, which llvm::Linker keeps apart by renaming the later.
  std::vector<StringSet<>> LocalNames(Modules.size());
  for (size_t I = 0; I < Modules.size(); ++I)
    for (const GlobalValue &GV : Modules[I]->global_values())
      if (GV.hasLocalLinkage() && GV.hasName())
        LocalNames[I].insert(GV.getName());

  std::unique_ptr<Module> Linked = std::move(Modules.front());
  Linker L(*Linked);
  for (size_t I = 1; I < Modules.size(); ++I)
    if (L.linkInModule(std::move(Modules[I])))
      return makeJitError(JitErrorKind::InvalidImage,
                          formatv("Linking '{0}' failed: {1}", Inputs[I].Name,
                                  Diags.Errors.empty()
                                      ? "LLVM's linker gave no reason."
                                      : Diags.Errors));

  std::vector<std::string> Unresolved;
  for (const GlobalValue &GV : Linked->global_values()) {
    if (!GV.isDeclaration() || GV.use_empty() || isProvidedAtLoad(GV))
      continue;
    std::vector<std::string> Users;
    for (size_t I : UsedBy.lookup(GV.getName()))
      Users.push_back("'" + Inputs[I].Name + "'");
    Unresolved.push_back(
        formatv("{0} {1} is used{2} but defined by no input.",
                isa<Function>(GV) ? "Function" : "Variable",
                describeSymbol(GV.getName()),
                Users.empty() ? std::string() : " by " + join(Users, ", ")));
  }
  if (!Unresolved.empty())
    return makeJitError(JitErrorKind::NotFound,
                        "Undefined symbols: " + join(Unresolved, " "));

  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyModule(*Linked, &OS))
    return makeJitError(JitErrorKind::InvalidImage,
                        "The linked IR fails LLVM's verifier: " + Problems);

  loader::ModuleImage Out;
  // The highest architecture of the inputs: every one of them runs there.
  const LinkInput *Newest = &Inputs.front();
  for (const LinkInput &In : Inputs)
    if (archNumber(In.Image.TargetArch) > archNumber(Newest->Image.TargetArch))
      Newest = &In;
  Out.TargetArch = Newest->Image.TargetArch;
  Out.Producer = "cucpu linker (" + Inputs.front().Image.Producer + ")";
  StringSet<> Names;
  std::vector<std::string> Clashes, Hidden;
  // Whether an entry named \p Name of input \p I joins the tables: names
  // are one namespace (cuModuleGetFunction, cuModuleGetGlobal,
  // cuModuleGetTexRef). A later input's static variable of a name taken
  // stays in the IR under the name the linker gave it, out of the tables.
  auto Claim = [&](const std::string &Name, size_t I) {
    if (Names.insert(Name).second)
      return true;
    if (LocalNames[I].contains(Name))
      Hidden.push_back(formatv("'{0}' of '{1}'", Name, Inputs[I].Name));
    else
      Clashes.push_back(formatv("'{0}' of '{1}' has the name of another "
                                "kernel, variable or texture reference.",
                                Name, Inputs[I].Name));
    return false;
  };
  for (size_t I = 0; I < Inputs.size(); ++I) {
    const loader::ModuleImage &Image = Inputs[I].Image;
    for (const loader::KernelInfo &K : Image.Kernels)
      if (Claim(K.Name, I))
        Out.Kernels.push_back(K);
    for (const loader::GlobalInfo &G : Image.Globals)
      if (Claim(G.Name, I))
        Out.Globals.push_back(G);
    for (const loader::TexRefInfo &T : Image.TexRefs)
      if (Claim(T.Name, I))
        Out.TexRefs.push_back(T);
  }
  if (!Clashes.empty())
    return makeJitError(JitErrorKind::InvalidImage,
                        "Multiple definitions: " + join(Clashes, " "));

  SmallVector<char, 0> Buffer;
  raw_svector_ostream BitcodeOS(Buffer);
  WriteBitcodeToFile(*Linked, BitcodeOS);
  Out.Bitcode.assign(Buffer.begin(), Buffer.end());
  Out.Relocatable = false;
  if (InfoLog) {
    std::vector<std::string> Names;
    for (const LinkInput &In : Inputs)
      Names.push_back("'" + In.Name + "'");
    *InfoLog +=
        formatv("Linked {0} image(s) ({1}) into one for {2}: {3} "
                "kernel(s), {4} variable(s), {5} texture "
                "reference(s).\n",
                Inputs.size(), join(Names, ", "), Out.TargetArch,
                Out.Kernels.size(), Out.Globals.size(), Out.TexRefs.size());
    if (!Hidden.empty())
      *InfoLog += "Static variables named like a variable of an earlier "
                  "input, reachable only from their own input's code: " +
                  join(Hidden, ", ") + ".\n";
  }
  return Out;
}
