//===- NvvmMathPass.cpp - NVVM arithmetic intrinsics as runtime calls -----===//
//
// clang's CUDA headers reach most math through libdevice's __nv_* functions,
// which cucpu's runtime library defines. Some builtins become NVVM
// intrinsics instead; each has a libdevice function of the same signature
// and meaning, so the call is simply redirected. cucpu never flushes
// denormals, so the .ftz forms map to the same functions (a documented
// deviation: results are at least as accurate). ex2.approx.f32 is expanded
// inline (Exp2Approx.h), and so are float FMAs in a directed rounding mode
// (DirectedFma.h): neither keeps a thread loop from vectorizing.
//
//===----------------------------------------------------------------------===//
#include "NvvmMathPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/DirectedFma.h"
#include "cucpu/modules/passes/Exp2Approx.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// NVVM intrinsic (without "llvm.nvvm." and ".ftz") -> runtime function.
const StringMap<StringRef> &table() {
  static const StringMap<StringRef> Table = [] {
    StringMap<StringRef> T;
    const char *Pairs[][2] = {
        {"fmin.f", "__nv_fminf"},
        {"fmax.f", "__nv_fmaxf"},
        {"fmin.d", "__nv_fmin"},
        {"fmax.d", "__nv_fmax"},
        {"fabs.f", "__nv_fabsf"},
        {"fabs.d", "__nv_fabs"},
        {"floor.f", "__nv_floorf"},
        {"floor.d", "__nv_floor"},
        {"ceil.f", "__nv_ceilf"},
        {"ceil.d", "__nv_ceil"},
        {"trunc.f", "__nv_truncf"},
        {"trunc.d", "__nv_trunc"},
        {"round.f", "__nv_rintf"},
        {"round.d", "__nv_rint"},
        {"saturate.f", "__nv_saturatef"},
        {"sqrt.f", "__nv_sqrtf"},
        {"sqrt.approx.f", "__nv_sqrtf"},
        {"sqrt.rn.f", "__nv_fsqrt_rn"},
        {"sqrt.rz.f", "__nv_fsqrt_rz"},
        {"sqrt.rm.f", "__nv_fsqrt_rd"},
        {"sqrt.rp.f", "__nv_fsqrt_ru"},
        {"sqrt.rn.d", "__nv_dsqrt_rn"},
        {"sqrt.rz.d", "__nv_dsqrt_rz"},
        {"sqrt.rm.d", "__nv_dsqrt_rd"},
        {"sqrt.rp.d", "__nv_dsqrt_ru"},
        {"rsqrt.approx.f", "__nv_rsqrtf"},
        {"rsqrt.approx.d", "__nv_rsqrt"},
        {"rcp.rn.f", "__nv_frcp_rn"},
        {"rcp.rz.f", "__nv_frcp_rz"},
        {"rcp.rm.f", "__nv_frcp_rd"},
        {"rcp.rp.f", "__nv_frcp_ru"},
        {"rcp.rn.d", "__nv_drcp_rn"},
        {"rcp.rz.d", "__nv_drcp_rz"},
        {"rcp.rm.d", "__nv_drcp_rd"},
        {"rcp.rp.d", "__nv_drcp_ru"},
        {"rcp.approx.f", "__nv_frcp_rn"},
        {"rcp.approx.d", "__nv_drcp_rn"},
        {"div.rn.f", "__nv_fdiv_rn"},
        {"div.rz.f", "__nv_fdiv_rz"},
        {"div.rm.f", "__nv_fdiv_rd"},
        {"div.rp.f", "__nv_fdiv_ru"},
        {"div.rn.d", "__nv_ddiv_rn"},
        {"div.rz.d", "__nv_ddiv_rz"},
        {"div.rm.d", "__nv_ddiv_rd"},
        {"div.rp.d", "__nv_ddiv_ru"},
        {"div.approx.f", "__nv_fast_fdividef"},
        {"div.full", "__nv_fast_fdividef"},
        {"add.rn.f", "__nv_fadd_rn"},
        {"add.rz.f", "__nv_fadd_rz"},
        {"add.rm.f", "__nv_fadd_rd"},
        {"add.rp.f", "__nv_fadd_ru"},
        {"add.rn.d", "__nv_dadd_rn"},
        {"add.rz.d", "__nv_dadd_rz"},
        {"add.rm.d", "__nv_dadd_rd"},
        {"add.rp.d", "__nv_dadd_ru"},
        {"mul.rn.f", "__nv_fmul_rn"},
        {"mul.rz.f", "__nv_fmul_rz"},
        {"mul.rm.f", "__nv_fmul_rd"},
        {"mul.rp.f", "__nv_fmul_ru"},
        {"mul.rn.d", "__nv_dmul_rn"},
        {"mul.rz.d", "__nv_dmul_rz"},
        {"mul.rm.d", "__nv_dmul_rd"},
        {"mul.rp.d", "__nv_dmul_ru"},
        {"fma.rn.f", "__nv_fmaf_rn"},
        {"fma.rz.f", "__nv_fmaf_rz"},
        {"fma.rm.f", "__nv_fmaf_rd"},
        {"fma.rp.f", "__nv_fmaf_ru"},
        {"fma.rn.d", "__nv_fma_rn"},
        {"fma.rz.d", "__nv_fma_rz"},
        {"fma.rm.d", "__nv_fma_rd"},
        {"fma.rp.d", "__nv_fma_ru"},
        {"ex2.approx.d", "__nv_exp2"},
        {"lg2.approx.f", "__nv_fast_log2f"},
        {"lg2.approx.d", "__nv_log2"},
        {"sin.approx.f", "__nv_fast_sinf"},
        {"cos.approx.f", "__nv_fast_cosf"},
        {"d2f.rn", "__nv_double2float_rn"},
        {"d2f.rz", "__nv_double2float_rz"},
        {"d2f.rm", "__nv_double2float_rd"},
        {"d2f.rp", "__nv_double2float_ru"},
        {"f2h.rn", "__nv_float2half_rn"},
        {"h2f", "__nv_half2float"},
        {"mulhi.i", "__nv_mulhi"},
        {"mulhi.ui", "__nv_umulhi"},
        {"mulhi.ll", "__nv_mul64hi"},
        {"mulhi.ull", "__nv_umul64hi"},
        {"mul24.i", "__nv_mul24"},
        {"mul24.ui", "__nv_umul24"},
        {"prmt", "__nv_byte_perm"},
        {"brev32", "__nv_brev"},
        {"brev64", "__nv_brevll"},
        {"clz.i", "__nv_clz"},
        {"clz.ll", "__nv_clzll"},
        {"popc.i", "__nv_popc"},
        {"popc.ll", "__nv_popcll"},
        {"abs.i", "__nv_abs"},
        {"abs.ll", "__nv_llabs"},
        {"min.i", "__nv_min"},
        {"max.i", "__nv_max"},
        {"min.ui", "__nv_umin"},
        {"max.ui", "__nv_umax"},
        {"min.ll", "__nv_llmin"},
        {"max.ll", "__nv_llmax"},
        {"min.ull", "__nv_ullmin"},
        {"max.ull", "__nv_ullmax"},
        {"sad.i", "__nv_sad"},
        {"sad.ui", "__nv_usad"},
    };
    for (auto &P : Pairs)
      T[P[0]] = P[1];
    // Conversions: f2i.rn -> __nv_float2int_rn, d2ull.rz ->
    // __nv_double2ull_rz...
    static const char *Modes[][2] = {
        {"rn", "rn"}, {"rz", "rz"}, {"rm", "rd"}, {"rp", "ru"}};
    static const char *Conv[][2] = {
        {"f2i", "float2int"},  {"f2ui", "float2uint"},
        {"f2ll", "float2ll"},  {"f2ull", "float2ull"},
        {"d2i", "double2int"}, {"d2ui", "double2uint"},
        {"d2ll", "double2ll"}, {"d2ull", "double2ull"},
        {"i2f", "int2float"},  {"ui2f", "uint2float"},
        {"ll2f", "ll2float"},  {"ull2f", "ull2float"},
        {"ll2d", "ll2double"}, {"ull2d", "ull2double"}};
    static std::vector<std::string> Storage;
    Storage.reserve(std::size(Conv) * std::size(Modes) * 2);
    for (auto &C : Conv)
      for (auto &Mo : Modes) {
        Storage.push_back(std::string(C[0]) + "." + Mo[0]);
        StringRef Key = Storage.back();
        Storage.push_back(std::string("__nv_") + C[1] + "_" + Mo[1]);
        T[Key] = Storage.back();
      }
    return T;
  }();
  return Table;
}

} // namespace

PreservedAnalyses NvvmMathPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : make_early_inc_range(M)) {
    StringRef Name = F.getName();
    if (!F.isDeclaration() || !Name.consume_front("llvm.nvvm."))
      continue;
    std::string Key = Name.str();
    for (size_t Pos; (Pos = Key.find(".ftz")) != std::string::npos;)
      Key.erase(Pos, 4);

    if (Key == "ex2.approx.f") {
      for (CallBase *CB : abi::callsOf(F)) {
        IRBuilder<> B(CB);
        abi::replaceCall(CB, emitExp2ApproxF32(B, CB->getArgOperand(0)));
        Changed = true;
      }
      if (F.use_empty())
        F.eraseFromParent();
      continue;
    }
    // Bit casts between integers and floats are plain bitcasts.
    bool IsBitcast = StringRef(Key).starts_with("bitcast.");
    auto It = table().find(Key);
    if (!IsBitcast && It == table().end())
      continue;
    FunctionCallee Target;
    if (!IsBitcast) {
      Target = M.getOrInsertFunction(It->second, F.getFunctionType());
      if (auto *TF = dyn_cast<Function>(Target.getCallee()))
        TF->addFnAttr(Attribute::NoUnwind);
    }
    for (CallBase *CB : abi::callsOf(F)) {
      IRBuilder<> B(CB);
      Value *V;
      if (IsBitcast) {
        V = B.CreateBitCast(CB->getArgOperand(0), CB->getType());
      } else {
        SmallVector<Value *, 3> Args(CB->args());
        V = B.CreateCall(Target, Args);
      }
      abi::replaceCall(CB, V);
      Changed = true;
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
  Changed |= expandDirectedFmaCalls(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
