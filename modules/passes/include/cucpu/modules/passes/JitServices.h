//===- JitServices.h - The engine's services as IR declarations -*- C++ -*-===//
//
// The lowering passes call the execution engine's services (JitAbi.h,
// JitServices.def). Their IR types are derived here from the C declarations,
// so the IR cannot drift from the functions the driver defines.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_JITSERVICES_H
#define CUCPU_MODULES_PASSES_JITSERVICES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/PassManager.h"

#include <optional>
#include <string>

namespace llvm {
class FunctionCallee;
class Module;
} // namespace llvm

namespace cucpu::modules {

/// An engine service, by the C name of the function that implements it.
enum class JitService {
#define CUCPU_JIT_SERVICE(Symbol, Name, Return, Parameters) Name,
#include "cucpu/modules/abi/JitServices.def"
};

/// The symbol JIT-compiled code calls \p S by ("malloc" for the device
/// heap's allocation, "__cucpu_barrier" for the barrier, ...).
llvm::StringRef jitServiceSymbol(JitService S);

/// The IR type of \p S: its C parameters and result, integers by their
/// width, every pointer `ptr`.
llvm::FunctionType *jitServiceType(llvm::LLVMContext &Ctx, JitService S);

/// Declares \p S in \p M with jitServiceType (or finds its declaration).
llvm::FunctionCallee declareJitService(llvm::Module &M, JitService S);

/// Checks that every function of \p M named like a service is declared
/// with the service's type; describes the first that is not, if any.
std::optional<std::string> checkJitServices(const llvm::Module &M);

/// Reports (LoweringFailure::Internal) a service declared with another
/// type than JitAbi.h gives it: the last pass of the block-function
/// pipeline, after every pass that declares services.
struct CheckJitServicesPass : llvm::PassInfoMixin<CheckJitServicesPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-check-services";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_JITSERVICES_H
