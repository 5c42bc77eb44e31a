//===- RuntimeLibrary.h - Host functions JIT-compiled kernels call --------===//
//
// cucpu's runtime library is compiled into cucpu itself: host definitions of
// libdevice's __nv_* functions, a few cucpu helpers (__cucpu_rt_*), and the
// C library / compiler-runtime functions that LLVM's x86 backend may call.
// The JIT resolves them as absolute symbols by name.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_RUNTIME_RUNTIMELIBRARY_H
#define CUCPU_MODULES_RUNTIME_RUNTIMELIBRARY_H

#include "llvm/ADT/StringMap.h"

namespace cucpu::modules {

/// Every runtime symbol by name (built once, thread-safe).
const llvm::StringMap<void *> &runtimeLibrary();

/// Adds the libdevice functions of each runtime file to \p Map.
void addLibdeviceFloat(llvm::StringMap<void *> &Map);
void addLibdeviceDouble(llvm::StringMap<void *> &Map);
void addLibdeviceRounding(llvm::StringMap<void *> &Map);
void addLibdeviceInteger(llvm::StringMap<void *> &Map);
/// Adds the texture fetch functions (TextureAbi.h).
void addTextureSampler(llvm::StringMap<void *> &Map);
/// Adds the surface access functions (SurfaceAbi.h).
void addSurfaceAccess(llvm::StringMap<void *> &Map);
/// Adds the texture and surface size queries (TextureAbi.h, SurfaceAbi.h).
void addTextureQueries(llvm::StringMap<void *> &Map);

} // namespace cucpu::modules

/// Adds function \p Fn to the map \p Map under its own name.
#define CUCPU_RT_ADD(Map, Fn) (Map)[#Fn] = reinterpret_cast<void *>(&Fn)

#endif // CUCPU_MODULES_RUNTIME_RUNTIMELIBRARY_H
