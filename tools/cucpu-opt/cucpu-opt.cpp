//===- cucpu-opt.cpp - Run cucpu's lowering passes on an IR file ----------===//
//
// cucpu-opt -passes=PIPELINE [-S] [-o OUT] FILE.ll|FILE.bc
//
// Runs any pipeline of cucpu's passes
// (modules/passes/include/cucpu/modules/passes/PassRegistry.h) and LLVM's on a
// module, as the driver's JIT runs them, and prints the result: the tool behind
// tests/passes. NVVM IR (an nvptx64 module, as cucc and the PTX front end
// produce it) without an image description (!cucpu.image,
// passes/LoweringMetadata.h) gets the one cucc would build, so the passes
// that read kernel parameters find them. Errors the passes report go to
// stderr, exit status 1.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/Compiler.h"
#include "cucpu/modules/Lowering.h"
#include "cucpu/modules/abi/JitAbi.h"
#include "cucpu/modules/image/ImageBuilder.h"
#include "cucpu/modules/passes/PassRegistry.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

cl::OptionCategory Category("cucpu-opt options");
cl::opt<std::string> Input(cl::Positional, cl::desc("<input .ll or .bc>"),
                           cl::init("-"), cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Output file (default: stdout)"),
                            cl::init("-"), cl::cat(Category));
cl::opt<std::string>
    Passes("passes",
           cl::desc("The pipeline, in the textual form of opt -passes; "
                    "'lowering' and 'block-functions' name the driver's "
                    "two pipelines"),
           cl::Required, cl::cat(Category));
cl::opt<bool> Text("S", cl::desc("Write IR text instead of bitcode"),
                   cl::cat(Category));
cl::opt<std::string> Triple("mtriple",
                            cl::desc("Target triple (default: the host's)"),
                            cl::cat(Category));
cl::opt<std::string> Cpu("mcpu", cl::desc("Target CPU (default: the host's)"),
                         cl::cat(Category));
cl::opt<bool> Memcheck("memcheck", cl::desc("Lower as CUCPU_MEMCHECK=1 does"),
                       cl::cat(Category));

/// The pipeline text: -passes with the driver's pipelines, named as
/// elements of the list, spelled out.
std::string pipelineText() {
  SmallVector<StringRef, 8> Elements;
  StringRef(Passes).split(Elements, ',');
  std::string Text;
  for (StringRef E : Elements) {
    if (!Text.empty())
      Text += ",";
    if (E == "lowering")
      Text += loweringPipeline(Memcheck);
    else if (E == "block-functions")
      Text += blockFunctionPipeline();
    else
      Text += E.str();
  }
  return Text;
}

std::unique_ptr<TargetMachine> targetMachine() {
  std::string TT = Triple.empty() ? sys::getProcessTriple() : Triple;
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T) {
    errs() << "cucpu-opt: " << Error << "\n";
    return nullptr;
  }
  std::string CpuName = Cpu.empty() ? sys::getHostCPUName().str() : Cpu;
  return std::unique_ptr<TargetMachine>(
      T->createTargetMachine(TT, CpuName, "", TargetOptions(), std::nullopt));
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM Init(Argc, Argv);
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "cucpu-opt: runs cucpu's lowering passes\n");
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(Input, Diag, Ctx);
  if (!M) {
    Diag.print("cucpu-opt", errs());
    return 1;
  }
  std::unique_ptr<TargetMachine> TM = targetMachine();
  if (!TM)
    return 1;

  LoweringTarget Target = loweringTarget(*TM, Memcheck);
#define CUCPU_JIT_SERVICE(Symbol, Name, Return, Parameters)                    \
  Target.ExternalSymbols.insert(Symbol);
#include "cucpu/modules/abi/JitServices.def"
  if (StringRef(M->getTargetTriple()).starts_with("nvptx") &&
      !hasImageDescription(*M)) {
    Expected<cucpu::loader::ModuleImage> Built =
        cucpu::image::buildImage(*M, "sm_75", "cucpu-opt");
    if (!Built) {
      errs() << Input << ": " << toString(Built.takeError()) << "\n";
      return 1;
    }
    attachImageDescription(*M, describeImage(*Built));
  }

  if (Error E = runPipeline(*M, pipelineText(), Target)) {
    errs() << Input << ": " << toString(std::move(E)) << "\n";
    return 1;
  }
  std::error_code EC;
  ToolOutputFile Out(Output, EC, Text ? sys::fs::OF_Text : sys::fs::OF_None);
  if (EC) {
    errs() << "cucpu-opt: " << Output << ": " << EC.message() << "\n";
    return 1;
  }
  if (Text)
    M->print(Out.os(), nullptr);
  else
    WriteBitcodeToFile(*M, Out.os());
  Out.keep();
  return 0;
}
