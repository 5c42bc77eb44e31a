//===- TextureRefs.cpp - The texture references of a device module --------===//
#include "TextureRefs.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace cucpu::image {
namespace {

/// The name of the marker call that gives a reference's declared type.
constexpr const char *TypeMarker = "__cucpu_texref_type";

/// Runs SROA and instcombine over every function of \p M, so that each
/// marker's handle is the texsurf.handle call's value again (at -O0 it goes
/// through the wrappers' stack slots).
void simplify(Module &M) {
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstCombinePass());
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.run(M, MAM);
}

/// The texture variable whose handle \p V is, or null.
const GlobalVariable *handleSource(const Value *V) {
  const auto *Call = dyn_cast<IntrinsicInst>(V);
  if (!Call ||
      (Call->getIntrinsicID() != Intrinsic::nvvm_texsurf_handle_internal &&
       Call->getIntrinsicID() != Intrinsic::nvvm_texsurf_handle))
    return nullptr;
  return dyn_cast<GlobalVariable>(
      Call->getArgOperand(Call->arg_size() - 1)->stripPointerCasts());
}

/// Declared types by texture name, from the markers of \p M.
StringMap<uint32_t> declaredTypes(const Module &M) {
  StringMap<uint32_t> Types;
  const Function *Marker = M.getFunction(TypeMarker);
  if (!Marker || Marker->use_empty())
    return Types;
  std::unique_ptr<Module> Copy = CloneModule(M);
  simplify(*Copy);
  Marker = Copy->getFunction(TypeMarker);
  if (!Marker)
    return Types;
  for (const User *U : Marker->users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->arg_size() != 2)
      continue;
    const GlobalVariable *GV = handleSource(Call->getArgOperand(0));
    const auto *Description = dyn_cast<ConstantInt>(Call->getArgOperand(1));
    if (GV && Description)
      Types.try_emplace(GV->getName(), uint32_t(Description->getZExtValue()));
  }
  return Types;
}

} // namespace

namespace {
/// The nvvm.annotations key clang gives \p GV ("texture", "surface"), or
/// an empty string.
StringRef annotation(const GlobalVariable &GV) {
  const NamedMDNode *MD = GV.getParent()->getNamedMetadata("nvvm.annotations");
  if (!MD)
    return "";
  for (const MDNode *Node : MD->operands()) {
    if (Node->getNumOperands() < 3)
      continue;
    auto *Var = dyn_cast_or_null<ValueAsMetadata>(Node->getOperand(0).get());
    auto *Key = dyn_cast_or_null<MDString>(Node->getOperand(1).get());
    if (Var && Var->getValue() == &GV && Key &&
        (Key->getString() == "texture" || Key->getString() == "surface"))
      return Key->getString();
  }
  return "";
}
} // namespace

bool isTextureVariable(const GlobalVariable &GV) {
  return !annotation(GV).empty();
}

std::vector<loader::TexRefInfo> describeTextures(const Module &M) {
  std::vector<loader::TexRefInfo> Result;
  StringMap<uint32_t> Types = declaredTypes(M);
  for (const GlobalVariable &GV : M.globals()) {
    if (!isTextureVariable(GV))
      continue;
    loader::TexRefInfo T;
    T.Name = GV.getName().str();
    auto It = Types.find(T.Name);
    if (annotation(GV) == "surface") {
      // A surface reference: its type, from the accesses' markers (whose
      // read mode is SurfaceReadMode), or 0; no channel description.
      T.Dimensions = It == Types.end() ? 0 : It->second & 0xff;
      T.ReadMode = loader::SurfaceReadMode;
      T.ChannelKind = T.ChannelBits = T.Channels = 0;
    } else if (It == Types.end()) {
      T.Dimensions = T.ReadMode = T.ChannelKind = T.ChannelBits = T.Channels =
          0;
    } else {
      uint32_t D = It->second;
      T.Dimensions = D & 0xff;
      T.ReadMode = (D >> 8) & 0xf;
      T.ChannelKind = (D >> 12) & 0xf;
      T.ChannelBits = (D >> 16) & 0xff;
      T.Channels = (D >> 24) & 0xf;
    }
    Result.push_back(std::move(T));
  }
  return Result;
}

} // namespace cucpu::image
