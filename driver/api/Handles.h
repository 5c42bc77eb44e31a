//===- Handles.h - Handle <-> object conversions for entry points ---------===//
#ifndef CUCPU_DRIVER_API_HANDLES_H
#define CUCPU_DRIVER_API_HANDLES_H

#include "core/Array.h"
#include "core/Context.h"
#include "core/CurrentContext.h"
#include "core/Error.h"
#include "core/Event.h"
#include "core/HandleRegistry.h"
#include "core/MipmappedArray.h"
#include "core/Platform.h"
#include "core/Stream.h"
#include "core/Texture.h"

#include <cuda.h>

#include <memory>

namespace cucpu::api {

inline CUcontext toHandle(Context &C) {
  return reinterpret_cast<CUcontext>(&C);
}
inline CUstream toHandle(Stream &S) { return reinterpret_cast<CUstream>(&S); }
inline CUevent toHandle(Event &E) { return reinterpret_cast<CUevent>(&E); }
inline CUarray toHandle(Array &A) { return reinterpret_cast<CUarray>(&A); }
inline CUtexref toHandle(TexRef &T) { return reinterpret_cast<CUtexref>(&T); }

/// What lookupHandle answers for a bad handle of one kind.
struct HandleKind {
  const char *Name; ///< "event", "texture reference", ...
  CUresult Error = CUDA_ERROR_INVALID_HANDLE;
};

/// The live object of type \p T that handle \p H names. Every handle kind
/// is checked the same way, in this order: a null handle is Kind.Error
/// ("The <kind> handle is NULL."); a handle the registry does not hold as a
/// \p T (destroyed, unloaded with its module or library, or a handle of
/// another kind) is Kind.Error, naming the handle. Nothing else is checked:
/// callers check the object's state (a context's sticky fault) themselves.
template <typename T>
llvm::Expected<std::shared_ptr<T>> lookupHandle(const void *H,
                                                HandleKind Kind) {
  if (!H)
    return makeError(Kind.Error,
                     llvm::formatv("The {0} handle is NULL.", Kind.Name).str());
  if (auto O = HandleRegistry::get().findAs<T>(H))
    return O;
  return makeError(Kind.Error,
                   llvm::formatv("{0} is not a live {1}: destroyed, unloaded, "
                                 "or a handle of another kind.",
                                 H, Kind.Name)
                       .str());
}

/// The live context named by \p H: CUDA_ERROR_INVALID_CONTEXT for a null,
/// destroyed or foreign handle. Does not check for sticky faults.
llvm::Expected<std::shared_ptr<Context>> lookupContext(CUcontext H);

/// \p H if not null, else the current context (both fault-checked).
llvm::Expected<std::shared_ptr<Context>> contextOrCurrent(CUcontext H);

/// The device with ordinal \p Ordinal.
llvm::Expected<Device &> lookupDevice(CUdevice Ordinal);

/// The stream \p H names; null for the default streams (0,
/// CU_STREAM_LEGACY, CU_STREAM_PER_THREAD); CUDA_ERROR_INVALID_HANDLE for a
/// destroyed or foreign handle.
llvm::Expected<std::shared_ptr<Stream>> lookupStream(CUstream H);

/// The stream \p H (null for a default stream) for a call that needs a
/// current context; a stream of another context is usable too, as on
/// NVIDIA's driver.
llvm::Expected<std::shared_ptr<Stream>> usableStream(CUstream H);

/// Checks that \p H is usable (see usableStream).
llvm::Error checkStream(CUstream H);

/// The live event \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<Event>> lookupEvent(CUevent H);

/// The live array \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<Array>> lookupArray(CUarray H);

/// The live mipmapped array \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<MipmappedArray>>
lookupMipmappedArray(CUmipmappedArray H);

/// The live texture reference \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<TexRef>> lookupTexRef(CUtexref H);

/// Whether \p H is one of the default-stream handles.
inline bool isDefaultStream(CUstream H) {
  return H == nullptr || H == CU_STREAM_LEGACY || H == CU_STREAM_PER_THREAD;
}

} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_HANDLES_H
