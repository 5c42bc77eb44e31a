//===- Registry.h - The device code a program carries ---------*- C++ -*-===//
//
// A program compiled by cucc (or nvcc) carries its device code as fat
// binaries. Before main, code the compiler generated registers each one
// (__cudaRegisterFatBinary) with its kernels (__cudaRegisterFunction: host
// stub -> device name), variables (__cudaRegisterVar: host shadow ->
// device name) and texture references (__cudaRegisterTexture). The registry
// loads a fat binary into a context the first time something in it is used
// there, as CUDA's lazy loading does, and finds the driver's function or global
// for a host address.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_RUNTIME_REGISTRY_H
#define CUCPU_RUNTIME_REGISTRY_H

#include "Context.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace cucpu::rt {

/// The driver function of the kernel whose host stub is \p HostFunction,
/// loaded into \p Ctx, or of the cudaKernel_t \p HostFunction is.
/// cudaErrorInvalidResourceHandle (recorded for \p Caller) when it is
/// neither.
cudaError_t findFunction(const char *Caller, const void *HostFunction,
                         const CurrentContext &Ctx, CUfunction &Out);

/// The context-independent kernel (cudaGetKernel) of the kernel whose host
/// stub is \p HostFunction, its fat binary loaded into \p Ctx first.
/// cudaErrorInvalidDeviceFunction when nothing registered that stub.
cudaError_t findKernel(const char *Caller, const void *HostFunction,
                       const CurrentContext &Ctx, CUkernel &Out);

/// The host stub of the registered kernel whose driver function in \p Ctx
/// is \p F (a kernel node's function, given back as the program named it),
/// or null when no launch or node in \p Ctx looked that kernel up.
const void *findHostFunction(CUfunction F, const CurrentContext &Ctx);

/// The address and size in \p Ctx of the device variable whose host shadow
/// is \p Symbol. cudaErrorInvalidSymbol when nothing registered it.
cudaError_t findSymbol(const char *Caller, const void *Symbol,
                       const CurrentContext &Ctx, CUdeviceptr &Address,
                       size_t &Size);

/// The driver's texture reference in \p Ctx of the texture<> variable at
/// \p HostRef (its module loaded first), and whether the variable reads
/// integer texels as normalized floats. cudaErrorInvalidTexture when
/// nothing registered it.
cudaError_t findTextureReference(const char *Caller, const void *HostRef,
                                 const CurrentContext &Ctx, CUtexref &Out,
                                 bool &NormalizedFloat);

/// Whether \p HostRef is a registered texture<> variable.
bool isTextureReference(const void *HostRef);

/// Before the context with id \p ContextId is destroyed: the managed
/// variables bound to it take their values back to host memory.
void unbindManagedVariables(uint64_t ContextId);

} // namespace cucpu::rt

#endif // CUCPU_RUNTIME_REGISTRY_H
