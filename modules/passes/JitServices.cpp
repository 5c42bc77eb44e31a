//===- JitServices.cpp - The engine's services as IR declarations ---------===//
#include "cucpu/modules/passes/JitServices.h"

#include "cucpu/modules/abi/JitAbi.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"

#include "llvm/IR/Module.h"

#include <type_traits>

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// The IR type of the C type \p T.
template <typename T> Type *irType(LLVMContext &Ctx) {
  if constexpr (std::is_void_v<T>)
    return Type::getVoidTy(Ctx);
  else if constexpr (std::is_pointer_v<T>)
    return PointerType::get(Ctx, 0);
  else {
    static_assert(std::is_integral_v<T>,
                  "engine services take integers and pointers only");
    return IntegerType::get(Ctx, 8 * sizeof(T));
  }
}

template <typename Fn> struct IrFunction;
template <typename R, typename... A> struct IrFunction<R(A...)> {
  static FunctionType *get(LLVMContext &Ctx) {
    return FunctionType::get(irType<R>(Ctx), {irType<A>(Ctx)...},
                             /*isVarArg=*/false);
  }
};

struct ServiceInfo {
  StringRef Symbol;
  FunctionType *(*Type)(LLVMContext &);
};

constexpr ServiceInfo Services[] = {
#define CUCPU_JIT_SERVICE(Symbol, Name, Return, Parameters)                    \
  {Symbol, &IrFunction<decltype(Name)>::get},
#include "cucpu/modules/abi/JitServices.def"
};

const ServiceInfo &info(JitService S) {
  return Services[static_cast<size_t>(S)];
}

} // namespace

StringRef cucpu::modules::jitServiceSymbol(JitService S) {
  return info(S).Symbol;
}

FunctionType *cucpu::modules::jitServiceType(LLVMContext &Ctx, JitService S) {
  return info(S).Type(Ctx);
}

FunctionCallee cucpu::modules::declareJitService(Module &M, JitService S) {
  return M.getOrInsertFunction(jitServiceSymbol(S),
                               jitServiceType(M.getContext(), S));
}

std::optional<std::string> cucpu::modules::checkJitServices(const Module &M) {
  for (const ServiceInfo &S : Services) {
    const Function *F = M.getFunction(S.Symbol);
    if (!F)
      continue;
    FunctionType *Expected = S.Type(M.getContext());
    if (F->getFunctionType() == Expected)
      continue;
    std::string Have, Want;
    raw_string_ostream(Have) << *F->getFunctionType();
    raw_string_ostream(Want) << *Expected;
    return "Engine service " + S.Symbol.str() + " is declared as " + Have +
           ", but JitAbi.h has " + Want + ".";
  }
  return std::nullopt;
}

PreservedAnalyses CheckJitServicesPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  if (std::optional<std::string> Problem = checkJitServices(M))
    reportLoweringError(M.getContext(), LoweringFailure::Internal, *Problem);
  return PreservedAnalyses::all();
}
