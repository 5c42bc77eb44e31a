//===- Handles.cpp - Handle <-> object conversions for entry points -------===//
#include "api/Handles.h"

#include "core/Error.h"

using namespace cucpu;

llvm::Expected<std::shared_ptr<Context>> api::lookupContext(CUcontext H) {
  return lookupHandle<Context>(H, {"context", CUDA_ERROR_INVALID_CONTEXT});
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
  return lookupHandle<Stream>(H, {"stream"});
}

llvm::Expected<std::shared_ptr<Stream>> api::usableStream(CUstream H) {
  CU_TRY(current::require());
  return lookupStream(H);
}

llvm::Error api::checkStream(CUstream H) { return usableStream(H).takeError(); }

llvm::Expected<std::shared_ptr<Event>> api::lookupEvent(CUevent H) {
  return lookupHandle<Event>(H, {"event"});
}

llvm::Expected<std::shared_ptr<Array>> api::lookupArray(CUarray H) {
  return lookupHandle<Array>(H, {"array"});
}

llvm::Expected<std::shared_ptr<TexRef>> api::lookupTexRef(CUtexref H) {
  return lookupHandle<TexRef>(H, {"texture reference"});
}

llvm::Expected<std::shared_ptr<MipmappedArray>>
api::lookupMipmappedArray(CUmipmappedArray H) {
  return lookupHandle<MipmappedArray>(H, {"mipmapped array"});
}
