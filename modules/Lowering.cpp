//===- Lowering.cpp - Run the GPU-to-CPU passes and the optimizer ---------===//
#include "Lowering.h"

#include "passes/JitServices.h"
#include "passes/PassRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>

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

Error runPipeline(Module &M, StringRef Pipeline, LoweringState &State,
                  TargetMachine *TM) {
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
  PassBuilder PB(TM, PipelineTuningOptions(), std::nullopt, &PIC);
  registerLoweringPasses(PB, State);
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
  if (State.failed())
    return State.takeError();
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyModule(M, &OS))
    return makeJitError(JitErrorKind::Internal,
                        "The lowered module does not verify: " + Problems);
  return Error::success();
}

Error lower(Module &M, TargetMachine &TM, LoweringState &State) {
  bool Dump = debugKnob("dump-ir");
  if (Dump)
    errs() << "*** cucpu: IR of " << M.getModuleIdentifier()
           << " before lowering ***\n"
           << M;
  if (Error E = runPipeline(M, loweringPipeline(State.Memcheck), State, &TM))
    return E;
  if (Error E = runPipeline(M, blockFunctionPipeline(), State, &TM))
    return E;
  // Every engine service is called with the type JitAbi.h gives it.
  if (Error E = checkJitServices(M))
    return E;
  if (Dump)
    errs() << "*** cucpu: IR after the block functions ***\n" << M;
  return Error::success();
}

Error optimize(Module &M, TargetMachine &TM, LoweringState &State,
               unsigned OptLevel) {
  std::string Optimizer =
      "default<O" + std::to_string(OptLevel > 3 ? 3 : OptLevel) + ">";
  if (Error E = runPipeline(M, Optimizer, State, &TM))
    return E;
  if (debugKnob("dump-ir"))
    errs() << "*** cucpu: IR after " << Optimizer << " ***\n" << M;
  return Error::success();
}

} // namespace cucpu::modules
