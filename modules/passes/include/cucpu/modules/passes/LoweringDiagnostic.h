//===- LoweringDiagnostic.h - How a pass reports a failure ------*- C++ -*-===//
//
// A pass that finds something it cannot lower reports it to the module's
// LLVMContext as a LoweringDiagnostic and goes on (so that one run names
// every problem). Whoever runs the pipeline installs the handler that
// collects them (modules/Lowering.cpp turns them into one JitError; a tool
// without a handler gets LLVM's default, which prints and exits).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_LOWERINGDIAGNOSTIC_H
#define CUCPU_MODULES_PASSES_LOWERINGDIAGNOSTIC_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DiagnosticInfo.h"

#include <string>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace cucpu::modules {

/// Why the module cannot be lowered.
enum class LoweringFailure {
  InvalidImage, ///< The image contradicts itself (its IR and description).
  Unsupported,  ///< Valid CUDA that cucpu does not run.
  NotFound,     ///< A relocatable image needs a symbol another image defines.
  Internal,     ///< A pass broke its own rules.
};

/// A failure of one of cucpu's passes, reported through the LLVMContext.
class LoweringDiagnostic : public llvm::DiagnosticInfo {
public:
  LoweringDiagnostic(LoweringFailure Failure, const llvm::Twine &Message);

  LoweringFailure failure() const { return Failure; }
  const std::string &message() const { return Message; }
  void print(llvm::DiagnosticPrinter &DP) const override;

  /// The diagnostic kind of every LoweringDiagnostic.
  static int kind();
  static bool classof(const llvm::DiagnosticInfo *DI) {
    return DI->getKind() == kind();
  }

private:
  LoweringFailure Failure;
  std::string Message;
};

/// Reports \p Message, an error of kind \p Failure, to \p Ctx.
void reportLoweringError(llvm::LLVMContext &Ctx, LoweringFailure Failure,
                         const llvm::Twine &Message);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_LOWERINGDIAGNOSTIC_H
