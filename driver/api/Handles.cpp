//===- Handles.cpp - Handle <-> object conversions for entry points -------===//
#include "api/Handles.h"

#include "core/Error.h"

using namespace cucpu;

llvm::Expected<std::shared_ptr<Context>> api::lookupContext(CUcontext H) {
  CU_INVALID_IF(!H, CUDA_ERROR_INVALID_CONTEXT, "The context handle is NULL.");
  auto C = HandleRegistry::get().findAs<Context>(H);
  CU_INVALID_IF(!C, CUDA_ERROR_INVALID_CONTEXT,
                "{0} is not a live context (destroyed, or not a context).",
                static_cast<const void *>(H));
  return C;
}

llvm::Expected<std::shared_ptr<Context>> api::contextOrCurrent(CUcontext H) {
  if (!H)
    return current::context();
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, lookupContext(H));
  CU_TRY(C->checkHealthy());
  return C;
}

llvm::Expected<Device &> api::lookupDevice(CUdevice Ordinal) {
  return Platform::get().device(Ordinal);
}

llvm::Expected<std::shared_ptr<Stream>> api::lookupStream(CUstream H) {
  if (isDefaultStream(H))
    return nullptr;
  auto S = HandleRegistry::get().findAs<Stream>(H);
  CU_INVALID_IF(!S, CUDA_ERROR_INVALID_HANDLE,
                "{0} is not a live stream (destroyed, or not a stream).",
                static_cast<const void *>(H));
  return S;
}

llvm::Expected<std::shared_ptr<Stream>> api::usableStream(CUstream H) {
  CU_TRY(current::require());
  return lookupStream(H);
}

llvm::Error api::checkStream(CUstream H) { return usableStream(H).takeError(); }

llvm::Expected<std::shared_ptr<Event>> api::lookupEvent(CUevent H) {
  CU_INVALID_IF(!H, CUDA_ERROR_INVALID_HANDLE, "The event handle is NULL.");
  auto E = HandleRegistry::get().findAs<Event>(H);
  CU_INVALID_IF(!E, CUDA_ERROR_INVALID_HANDLE,
                "{0} is not a live event (destroyed, or not an event).",
                static_cast<const void *>(H));
  return E;
}

llvm::Expected<std::shared_ptr<Array>> api::lookupArray(CUarray H) {
  CU_INVALID_IF(!H, CUDA_ERROR_INVALID_HANDLE, "The array handle is NULL.");
  auto A = HandleRegistry::get().findAs<Array>(H);
  CU_INVALID_IF(!A, CUDA_ERROR_INVALID_HANDLE,
                "{0} is not a live array (destroyed, or not an array).",
                static_cast<const void *>(H));
  return A;
}

llvm::Expected<std::shared_ptr<TexRef>> api::lookupTexRef(CUtexref H) {
  CU_INVALID_IF(!H, CUDA_ERROR_INVALID_HANDLE,
                "The texture reference handle is NULL.");
  auto T = HandleRegistry::get().findAs<TexRef>(H);
  CU_INVALID_IF(!T, CUDA_ERROR_INVALID_HANDLE,
                "{0} is not a live texture reference (destroyed, or not a "
                "texture reference).",
                static_cast<const void *>(H));
  return T;
}

llvm::Expected<std::shared_ptr<MipmappedArray>>
api::lookupMipmappedArray(CUmipmappedArray H) {
  CU_INVALID_IF(!H, CUDA_ERROR_INVALID_HANDLE,
                "The mipmapped array handle is NULL.");
  auto M = HandleRegistry::get().findAs<MipmappedArray>(H);
  CU_INVALID_IF(!M, CUDA_ERROR_INVALID_HANDLE,
                "{0} is not a live mipmapped array (destroyed, or not a "
                "mipmapped array).",
                static_cast<const void *>(H));
  return M;
}
