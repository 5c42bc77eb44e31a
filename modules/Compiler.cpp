//===- Compiler.cpp - From a module image's IR to an object file ----------===//
#include "cucpu/modules/Compiler.h"

#include "cucpu/modules/JitError.h"
#include "cucpu/modules/JitSession.h"
#include "cucpu/modules/Lowering.h"
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace cucpu;
using namespace cucpu::modules;

namespace {

/// Collects the errors LLVM reports through the context (instead of its
/// default handler, which exits the process).
struct DiagnosticCollector : DiagnosticHandler {
  std::string *Errors;
  explicit DiagnosticCollector(std::string *Errors) : Errors(Errors) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error) {
      raw_string_ostream OS(*Errors);
      DiagnosticPrinterRawOStream DP(OS);
      if (!Errors->empty())
        OS << " ";
      DI.print(DP);
    }
    return true;
  }
};

unsigned optLevel(const JitOptions &Options) {
  return std::min(Options.OptLevel, 3u);
}

/// Writes \p Object to cucpu-<identifier>.o in the current directory, for
/// objdump (CUCPU_DEBUG=dump-obj).
void dumpObject(StringRef Identifier, const MemoryBuffer &Object) {
  std::string Name = "cucpu-" + Identifier.str() + ".o";
  std::replace_if(
      Name.begin(), Name.end(),
      [](char C) { return !isAlnum(C) && C != '.' && C != '-'; }, '_');
  std::error_code EC;
  raw_fd_ostream OS(Name, EC);
  if (!EC)
    OS << Object.getBuffer();
  errs() << "*** cucpu: object of " << Identifier << " "
         << (EC ? "not written: " + EC.message() : "written to " + Name)
         << " ***\n";
}

} // namespace

LoweringTarget cucpu::modules::loweringTarget(TargetMachine &TM,
                                              bool Memcheck) {
  LoweringTarget Target;
  Target.Machine = &TM;
  Target.Memcheck = Memcheck;
  for (const auto &S : runtimeLibrary())
    Target.ExternalSymbols.insert(S.first());
  return Target;
}

ImageDescription
cucpu::modules::describeImage(const loader::ModuleImage &Image) {
  ImageDescription D;
  D.TargetArch = Image.TargetArch;
  D.Relocatable = Image.Relocatable;
  for (const loader::KernelInfo &K : Image.Kernels) {
    KernelLayout &Layout = D.Kernels.emplace_back();
    Layout.Name = K.Name;
    Layout.ParamBytes = K.ParamBytes;
    for (const loader::KernelParam &P : K.Params)
      Layout.Params.push_back({P.Offset, P.Size});
  }
  for (const loader::TexRefInfo &T : Image.TexRefs)
    D.TexRefs.push_back(T.Name);
  return D;
}

ComputeCache cucpu::modules::computeCache(const JitOptions &Options) {
  return ComputeCache(Options.CachePath.empty()
                          ? ComputeCache::defaultDirectory()
                          : Options.CachePath,
                      Options.CacheMaxBytes);
}

Expected<std::unique_ptr<LoweredModule>>
cucpu::modules::lowerImage(const loader::ModuleImage &Image,
                           const JitOptions &Options, JitSession &Session,
                           StringRef Key) {
  if (Image.Bitcode.empty())
    return makeJitError(JitErrorKind::InvalidImage,
                        "The module image holds no LLVM IR.");
  auto L = std::make_unique<LoweredModule>();
  L->Context = orc::ThreadSafeContext(std::make_unique<LLVMContext>());
  L->Diagnostics = std::make_unique<std::string>();
  auto Lock = L->Context.getLock();
  LLVMContext &Ctx = *L->Context.getContext();
  Ctx.setDiagnosticHandler(
      std::make_unique<DiagnosticCollector>(L->Diagnostics.get()));

  StringRef Bytes(reinterpret_cast<const char *>(Image.Bitcode.data()),
                  Image.Bitcode.size());
  Expected<std::unique_ptr<Module>> Parsed =
      parseBitcodeFile(MemoryBufferRef(Bytes, "module image"), Ctx);
  if (!Parsed)
    return makeJitError(JitErrorKind::InvalidImage,
                        "The module's LLVM bitcode does not parse: " +
                            toString(Parsed.takeError()));
  L->IR = std::move(*Parsed);
  Module &M = *L->IR;
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyModule(M, &OS))
    return makeJitError(JitErrorKind::InvalidImage,
                        "The module's LLVM IR is invalid: " + Problems);
  M.setModuleIdentifier(Key);

  orc::JITTargetMachineBuilder Builder = Session.machineBuilder();
  unsigned Level = optLevel(Options);
  Builder.setCodeGenOptLevel(Level == 0   ? CodeGenOptLevel::None
                             : Level == 1 ? CodeGenOptLevel::Less
                             : Level == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive);
  Expected<std::unique_ptr<TargetMachine>> TM = Builder.createTargetMachine();
  if (!TM)
    return makeJitError(JitErrorKind::Internal,
                        "No target machine for the host: " +
                            toString(TM.takeError()));
  L->Machine = std::move(*TM);

  L->Target = loweringTarget(*L->Machine, Options.Memcheck);
  L->Target.BlockFunctions = !Options.ThreadEntriesOnly;
  for (const auto &S : Options.RuntimeSymbols)
    L->Target.ExternalSymbols.insert(S.first());
  attachImageDescription(M, describeImage(Image));
  if (Error E = lower(M, L->Target))
    return E;
  return L;
}

Expected<std::unique_ptr<MemoryBuffer>>
cucpu::modules::emitObject(Module &M, LoweredModule &Lowered,
                           const JitOptions &Options) {
  if (Error E = optimize(M, Lowered.Target, optLevel(Options)))
    return E;
  // A frame larger than a page touches its pages in order, so that a
  // kernel overflowing its stack meets the guard page below it (and fails
  // its launch, FaultHandler.h) instead of writing past it.
  for (Function &F : M)
    if (!F.isDeclaration())
      F.addFnAttr("probe-stack", "inline-asm");
  orc::SimpleCompiler Compiler(*Lowered.Machine);
  Expected<std::unique_ptr<MemoryBuffer>> Object = Compiler(M);
  if (!Object)
    return makeJitError(JitErrorKind::Internal,
                        "Code generation failed: " +
                            toString(Object.takeError()));
  if (!Lowered.Diagnostics->empty())
    return makeJitError(JitErrorKind::Unsupported,
                        "Code generation failed: " + *Lowered.Diagnostics);
  if (debugKnob("dump-obj"))
    dumpObject(M.getModuleIdentifier(), **Object);
  return std::move(*Object);
}
