//===- Lowering.cpp - Run the GPU-to-CPU passes and the optimizer ---------===//
#include "cucpu/modules/Lowering.h"

#include "cucpu/modules/JitError.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/PassRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;

namespace cucpu::modules {

bool debugKnob(StringRef Knob) {
  const char *Env = std::getenv("CUCPU_DEBUG");
  if (!Env)
    return false;
  SmallVector<StringRef, 4> Knobs;
  StringRef(Env).split(Knobs, ',');
  for (StringRef K : Knobs)
    if (K.trim() == Knob)
      return true;
  return false;
}

namespace {

JitErrorKind jitErrorKind(LoweringFailure Failure) {
  switch (Failure) {
  case LoweringFailure::InvalidImage:
    return JitErrorKind::InvalidImage;
  case LoweringFailure::Unsupported:
    return JitErrorKind::Unsupported;
  case LoweringFailure::NotFound:
    return JitErrorKind::NotFound;
  case LoweringFailure::Internal:
    break;
  }
  return JitErrorKind::Internal;
}

/// Collects the passes' errors (LoweringDiagnostic) while a pipeline runs,
/// in place of the context's own handler, which it passes every other
/// diagnostic to and puts back when it goes.
class LoweringErrors : public DiagnosticHandler {
public:
  explicit LoweringErrors(LLVMContext &Ctx) : Ctx(Ctx) {
    Previous = Ctx.getDiagnosticHandler();
    Ctx.setDiagnosticHandler(std::make_unique<Forwarder>(*this));
  }
  ~LoweringErrors() { Ctx.setDiagnosticHandler(std::move(Previous)); }
  LoweringErrors(const LoweringErrors &) = delete;
  LoweringErrors &operator=(const LoweringErrors &) = delete;

  /// Every error as one JitError of the first one's kind (success if none).
  Error take() {
    if (Messages.empty())
      return Error::success();
    std::string Text = join(Messages, " ");
    Messages.clear();
    return makeJitError(FirstKind, Text);
  }

private:
  /// The handler the context owns; it reports to the collector.
  struct Forwarder : DiagnosticHandler {
    LoweringErrors &To;
    explicit Forwarder(LoweringErrors &To) : To(To) {}
    bool handleDiagnostics(const DiagnosticInfo &DI) override {
      return To.handle(DI);
    }
  };

  bool handle(const DiagnosticInfo &DI) {
    if (auto *LD = dyn_cast<LoweringDiagnostic>(&DI)) {
      add(jitErrorKind(LD->failure()), LD->message());
      return true;
    }
    return Previous && Previous->handleDiagnostics(DI);
  }

  void add(JitErrorKind Kind, std::string Message) {
    if (Messages.empty())
      FirstKind = Kind;
    Messages.push_back(std::move(Message));
  }

  LLVMContext &Ctx;
  std::unique_ptr<DiagnosticHandler> Previous;
  JitErrorKind FirstKind = JitErrorKind::Internal;
  std::vector<std::string> Messages;
};

} // namespace

Error runPipeline(Module &M, StringRef Pipeline, const LoweringTarget &Target) {
  LoweringErrors Errors(M.getContext());
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassInstrumentationCallbacks PIC;
  if (debugKnob("dump-ir")) {
    // After each of cucpu's passes, all module passes (LLVM's own have
    // -print-after-all). The IR is not read from the Any: its type id is
    // libLLVM's, not this library's, so any_cast would never match.
    PIC.registerAfterPassCallback(
        [&M](StringRef PassID, Any, const PreservedAnalyses &) {
          if (!PassID.starts_with("cucpu::"))
            return;
          errs() << "*** cucpu: IR after " << PassID << " ***\n" << M;
        });
  }
  PassBuilder PB(Target.Machine, PipelineTuningOptions(), std::nullopt, &PIC);
  registerLoweringPasses(PB, Target.Machine);
  registerLoweringAnalyses(MAM, FAM, Target.ExternalSymbols);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Pipeline))
    return makeJitError(JitErrorKind::Internal,
                        "The pass pipeline \"" + Pipeline +
                            "\" does not parse: " + toString(std::move(E)));
  MPM.run(M, MAM);
  if (Error E = Errors.take())
    return E;
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyModule(M, &OS))
    return makeJitError(JitErrorKind::Internal,
                        "The lowered module does not verify: " + Problems);
  return Error::success();
}

Error lower(Module &M, const LoweringTarget &Target) {
  bool Dump = debugKnob("dump-ir");
  if (Dump)
    errs() << "*** cucpu: IR of " << M.getModuleIdentifier()
           << " before lowering ***\n"
           << M;
  if (Error E = runPipeline(M, loweringPipeline(Target.Memcheck), Target))
    return E;
  if (!Target.BlockFunctions)
    return runPipeline(M, threadEntryPipeline(), Target);
  if (Error E = runPipeline(M, blockFunctionPipeline(Dump), Target))
    return E;
  if (Dump)
    errs() << "*** cucpu: IR after the block functions ***\n" << M;
  return Error::success();
}

Error optimize(Module &M, const LoweringTarget &Target, unsigned OptLevel) {
  std::string Optimizer =
      "default<O" + std::to_string(OptLevel > 3 ? 3 : OptLevel) + ">";
  if (Error E = runPipeline(M, Optimizer, Target))
    return E;
  if (debugKnob("dump-ir"))
    errs() << "*** cucpu: IR after " << Optimizer << " ***\n" << M;
  return Error::success();
}

} // namespace cucpu::modules
