//===- LoweringDiagnostic.cpp - How a pass reports a failure --------------===//
#include "cucpu/modules/passes/LoweringDiagnostic.h"

#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;
using namespace cucpu::modules;

LoweringDiagnostic::LoweringDiagnostic(LoweringFailure Failure,
                                       const Twine &Message)
    : DiagnosticInfo(kind(), DS_Error), Failure(Failure),
      Message(Message.str()) {}

void LoweringDiagnostic::print(DiagnosticPrinter &DP) const { DP << Message; }

int LoweringDiagnostic::kind() {
  static const int Kind = getNextAvailablePluginDiagnosticKind();
  return Kind;
}

void cucpu::modules::reportLoweringError(LLVMContext &Ctx,
                                         LoweringFailure Failure,
                                         const Twine &Message) {
  Ctx.diagnose(LoweringDiagnostic(Failure, Message));
}
