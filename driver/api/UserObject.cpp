//===- UserObject.cpp - User objects and the graphs that hold them --------===//
#include "core/UserObject.h"
#include "api/GraphNodes.h"
#include "api/Handles.h"
#include "core/CurrentContext.h"
#include "core/EntryPoint.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {

CUuserObject userObjectHandle(UserObject &O) {
  return reinterpret_cast<CUuserObject>(&O);
}

llvm::Expected<std::shared_ptr<UserObject>> lookupUserObject(CUuserObject H) {
  return lookupHandle<UserObject>(H, {"user object", CUDA_ERROR_INVALID_VALUE});
}

llvm::Error checkCount(unsigned Count) {
  CU_INVALID_IF(Count == 0, CUDA_ERROR_INVALID_VALUE,
                "A reference count of 0 changes nothing; give at least 1.");
  return llvm::Error::success();
}

} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuUserObjectCreate(CUuserObject *Out,
                                                 void *Resource,
                                                 CUhostFn Destroy,
                                                 unsigned int Refs,
                                                 unsigned int Flags) {
  return CU_ENTRY(Out, Resource, Destroy, Refs, Flags)
      .run([&]() -> llvm::Error {
        CU_INVALID_IF(!Out || !Destroy, CUDA_ERROR_INVALID_VALUE,
                      "The object and destructor pointers must not be NULL.");
        CU_TRY(checkCount(Refs));
        CU_INVALID_IF(Flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC,
                      CUDA_ERROR_INVALID_VALUE,
                      "User objects take the flag "
                      "CU_USER_OBJECT_NO_DESTRUCTOR_SYNC (got {0:x}).",
                      Flags);
        CU_TRY(current::require());
        *Out = userObjectHandle(*UserObject::create(Resource, Destroy, Refs));
        return llvm::Error::success();
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuUserObjectRetain(CUuserObject H,
                                                 unsigned int Count) {
  return CU_ENTRY(H, Count).run([&]() -> llvm::Error {
    CU_TRY(checkCount(Count));
    CU_TRY_ASSIGN(std::shared_ptr<UserObject> O, lookupUserObject(H));
    O->retain(Count);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuUserObjectRelease(CUuserObject H,
                                                  unsigned int Count) {
  return CU_ENTRY(H, Count).run([&]() -> llvm::Error {
    CU_TRY(checkCount(Count));
    CU_TRY_ASSIGN(std::shared_ptr<UserObject> O, lookupUserObject(H));
    CU_INVALID_IF(!O->release(Count), CUDA_ERROR_INVALID_VALUE,
                  "The user object has fewer than {0} references.", Count);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphRetainUserObject(CUgraph G, CUuserObject H,
                                                      unsigned int Count,
                                                      unsigned int Flags) {
  return CU_ENTRY(G, H, Count, Flags).run([&]() -> llvm::Error {
    CU_TRY(checkCount(Count));
    CU_INVALID_IF(
        Flags & ~unsigned(CU_GRAPH_USER_OBJECT_MOVE), CUDA_ERROR_INVALID_VALUE,
        "{0:x} has bits other than CU_GRAPH_USER_OBJECT_MOVE.", Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Graph> Gr, lookupGraph(G));
    CU_TRY_ASSIGN(std::shared_ptr<UserObject> O, lookupUserObject(H));
    std::lock_guard<std::mutex> Lock(Gr->Mutex);
    Gr->UserObjects.add(O, Count, Flags & CU_GRAPH_USER_OBJECT_MOVE);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphReleaseUserObject(CUgraph G,
                                                       CUuserObject H,
                                                       unsigned int Count) {
  return CU_ENTRY(G, H, Count).run([&]() -> llvm::Error {
    CU_TRY(checkCount(Count));
    CU_TRY_ASSIGN(std::shared_ptr<Graph> Gr, lookupGraph(G));
    CU_TRY_ASSIGN(std::shared_ptr<UserObject> O, lookupUserObject(H));
    std::lock_guard<std::mutex> Lock(Gr->Mutex);
    CU_INVALID_IF(!Gr->UserObjects.release(*O, Count), CUDA_ERROR_INVALID_VALUE,
                  "The graph holds fewer than {0} references to the user "
                  "object.",
                  Count);
    return llvm::Error::success();
  });
}
