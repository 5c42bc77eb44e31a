//===- RuntimeLibrary.cpp - Host functions JIT-compiled kernels call ------===//
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "cucpu/modules/runtime/KernelAccess.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <math.h>

// Compiler-runtime helpers (libgcc) that the x86 backend calls for 128-bit
// integers, half precision and powi. Only their addresses are taken.
extern "C" {
void __divti3(void);
void __udivti3(void);
void __modti3(void);
void __umodti3(void);
void __powisf2(void);
void __powidf2(void);
void __fixsfti(void);
void __fixdfti(void);
void __fixunssfti(void);
void __fixunsdfti(void);
void __floattisf(void);
void __floattidf(void);
void __floatuntisf(void);
void __floatuntidf(void);
void __extendhfsf2(void);
void __truncsfhf2(void);
void __truncdfhf2(void);

/// %globaltimer: nanoseconds of the realtime clock, as on NVIDIA.
uint64_t __cucpu_rt_globaltimer(void) {
  timespec Now;
  clock_gettime(CLOCK_REALTIME, &Now);
  return uint64_t(Now.tv_sec) * 1000000000u + uint64_t(Now.tv_nsec);
}
}

namespace {

// The libm and libc functions LLVM may turn intrinsics or idioms into
// (llvm.sin -> sinf, frem -> fmodf, llvm.memcpy -> memcpy, ...). The
// overloaded C++ names need a cast to pick the C function.
using F1 = float (*)(float);
using D1 = double (*)(double);
using F2 = float (*)(float, float);
using D2 = double (*)(double, double);

void addHostLibrary(llvm::StringMap<void *> &M) {
  auto Add = [&M](const char *Name, auto *Fn) {
    M[Name] = reinterpret_cast<void *>(Fn);
  };
  Add("memcpy", &cucpu::modules::kernelMemcpy);
  Add("memmove", &cucpu::modules::kernelMemmove);
  Add("memset", &cucpu::modules::kernelMemset);
  Add("sinf", static_cast<F1>(::sinf));
  Add("cosf", static_cast<F1>(::cosf));
  Add("tanf", static_cast<F1>(::tanf));
  Add("expf", static_cast<F1>(::expf));
  Add("exp2f", static_cast<F1>(::exp2f));
  Add("exp10f", static_cast<F1>(::exp10f));
  Add("logf", static_cast<F1>(::logf));
  Add("log2f", static_cast<F1>(::log2f));
  Add("log10f", static_cast<F1>(::log10f));
  Add("sqrtf", static_cast<F1>(::sqrtf));
  Add("floorf", static_cast<F1>(::floorf));
  Add("ceilf", static_cast<F1>(::ceilf));
  Add("truncf", static_cast<F1>(::truncf));
  Add("roundf", static_cast<F1>(::roundf));
  Add("rintf", static_cast<F1>(::rintf));
  Add("nearbyintf", static_cast<F1>(::nearbyintf));
  Add("roundevenf", static_cast<F1>(::nearbyintf));
  Add("fabsf", static_cast<F1>(::fabsf));
  Add("powf", static_cast<F2>(::powf));
  Add("fmodf", static_cast<F2>(::fmodf));
  Add("fminf", static_cast<F2>(::fminf));
  Add("fmaxf", static_cast<F2>(::fmaxf));
  Add("copysignf", static_cast<F2>(::copysignf));
  Add("fmaf", static_cast<float (*)(float, float, float)>(::fmaf));
  Add("ldexpf", static_cast<float (*)(float, int)>(::ldexpf));
  Add("frexpf", static_cast<float (*)(float, int *)>(::frexpf));
  Add("sincosf", static_cast<void (*)(float, float *, float *)>(::sincosf));
  Add("sin", static_cast<D1>(::sin));
  Add("cos", static_cast<D1>(::cos));
  Add("tan", static_cast<D1>(::tan));
  Add("exp", static_cast<D1>(::exp));
  Add("exp2", static_cast<D1>(::exp2));
  Add("exp10", static_cast<D1>(::exp10));
  Add("log", static_cast<D1>(::log));
  Add("log2", static_cast<D1>(::log2));
  Add("log10", static_cast<D1>(::log10));
  Add("sqrt", static_cast<D1>(::sqrt));
  Add("floor", static_cast<D1>(::floor));
  Add("ceil", static_cast<D1>(::ceil));
  Add("trunc", static_cast<D1>(::trunc));
  Add("round", static_cast<D1>(::round));
  Add("rint", static_cast<D1>(::rint));
  Add("nearbyint", static_cast<D1>(::nearbyint));
  Add("roundeven", static_cast<D1>(::nearbyint));
  Add("fabs", static_cast<D1>(::fabs));
  Add("pow", static_cast<D2>(::pow));
  Add("fmod", static_cast<D2>(::fmod));
  Add("fmin", static_cast<D2>(::fmin));
  Add("fmax", static_cast<D2>(::fmax));
  Add("copysign", static_cast<D2>(::copysign));
  Add("fma", static_cast<double (*)(double, double, double)>(::fma));
  Add("ldexp", static_cast<double (*)(double, int)>(::ldexp));
  Add("frexp", static_cast<double (*)(double, int *)>(::frexp));
  Add("sincos", static_cast<void (*)(double, double *, double *)>(::sincos));
  Add("__divti3", &__divti3);
  Add("__udivti3", &__udivti3);
  Add("__modti3", &__modti3);
  Add("__umodti3", &__umodti3);
  Add("__powisf2", &__powisf2);
  Add("__powidf2", &__powidf2);
  Add("__fixsfti", &__fixsfti);
  Add("__fixdfti", &__fixdfti);
  Add("__fixunssfti", &__fixunssfti);
  Add("__fixunsdfti", &__fixunsdfti);
  Add("__floattisf", &__floattisf);
  Add("__floattidf", &__floattidf);
  Add("__floatuntisf", &__floatuntisf);
  Add("__floatuntidf", &__floatuntidf);
  Add("__extendhfsf2", &__extendhfsf2);
  Add("__truncsfhf2", &__truncsfhf2);
  Add("__truncdfhf2", &__truncdfhf2);
  Add("__cucpu_rt_globaltimer", &__cucpu_rt_globaltimer);
}

} // namespace

const llvm::StringMap<void *> &cucpu::modules::runtimeLibrary() {
  static const llvm::StringMap<void *> Map = [] {
    llvm::StringMap<void *> M;
    addHostLibrary(M);
    addLibdeviceFloat(M);
    addLibdeviceDouble(M);
    addLibdeviceRounding(M);
    addLibdeviceInteger(M);
    addTextureSampler(M);
    addSurfaceAccess(M);
    addTextureQueries(M);
    return M;
  }();
  return Map;
}
