//===- LaunchAttributes.cpp - Stream and kernel-node attributes -----------===//
#include "core/LaunchAttributes.h"

#include "core/Device.h"
#include "core/Error.h"

#include <cmath>

using namespace cucpu;

llvm::Error cucpu::checkAttributeId(AttributeHolder Holder,
                                    CUlaunchAttributeID Id) {
  bool Applies = false;
  switch (Id) {
  case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
  case CU_LAUNCH_ATTRIBUTE_PRIORITY:
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    Applies = true;
    break;
  case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
    Applies = Holder == AttributeHolder::Stream;
    break;
  case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
  case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
  case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
  case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    Applies = Holder == AttributeHolder::KernelNode;
    break;
  default:
    break;
  }
  CU_INVALID_IF(!Applies, CUDA_ERROR_INVALID_VALUE,
                "Attribute {0} is not an attribute of a {1}.",
                static_cast<int>(Id),
                Holder == AttributeHolder::Stream ? "stream" : "kernel node");
  return llvm::Error::success();
}

llvm::Error cucpu::checkAttribute(AttributeHolder Holder,
                                  CUlaunchAttributeID Id,
                                  const CUlaunchAttributeValue &Value,
                                  const Device &D) {
  CU_TRY(checkAttributeId(Holder, Id));
  switch (Id) {
  case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
    const CUaccessPolicyWindow &W = Value.accessPolicyWindow;
    int Max = 0;
    CU_TRY_ASSIGN(
        Max, D.attribute(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE));
    CU_INVALID_IF(W.num_bytes > static_cast<uint64_t>(Max),
                  CUDA_ERROR_INVALID_VALUE,
                  "The access policy window of {0} bytes is larger than the "
                  "device's maximum, {1} bytes.",
                  W.num_bytes, Max);
    CU_INVALID_IF(!(W.hitRatio >= 0.0f && W.hitRatio <= 1.0f),
                  CUDA_ERROR_INVALID_VALUE,
                  "The hit ratio {0} is not in [0, 1].", W.hitRatio);
    auto Known = [](CUaccessProperty P) {
      return P >= CU_ACCESS_PROPERTY_NORMAL &&
             P <= CU_ACCESS_PROPERTY_PERSISTING;
    };
    CU_INVALID_IF(!Known(W.hitProp) || !Known(W.missProp),
                  CUDA_ERROR_INVALID_VALUE,
                  "Access properties {0} and {1} are not both "
                  "CUaccessProperty values.",
                  static_cast<int>(W.hitProp), static_cast<int>(W.missProp));
    break;
  }
  case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
    CU_INVALID_IF(Value.syncPolicy < CU_SYNC_POLICY_AUTO ||
                      Value.syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUsynchronizationPolicy.",
                  static_cast<int>(Value.syncPolicy));
    break;
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    CU_INVALID_IF(Value.memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT &&
                      Value.memSyncDomain != CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUlaunchMemSyncDomain.",
                  static_cast<int>(Value.memSyncDomain));
    break;
  case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    CU_INVALID_IF(Value.clusterSchedulingPolicyPreference >
                      CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUclusterSchedulingPolicy.",
                  static_cast<int>(Value.clusterSchedulingPolicyPreference));
    break;
  case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: {
    const auto &C = Value.clusterDim;
    CU_INVALID_IF(C.x * C.y * C.z > 1, CUDA_ERROR_NOT_SUPPORTED,
                  "Thread-block clusters ({0}x{1}x{2}) need compute "
                  "capability 9.0.",
                  C.x, C.y, C.z);
    break;
  }
  default:
    break;
  }
  return llvm::Error::success();
}

CUlaunchAttributeValue LaunchAttributes::get(CUlaunchAttributeID Id) const {
  if (auto It = Values.find(Id); It != Values.end())
    return It->second;
  CUlaunchAttributeValue V{};
  if (Id == CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY)
    V.syncPolicy = CU_SYNC_POLICY_AUTO;
  if (Id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP)
    V.memSyncDomainMap.remote = 1;
  return V;
}
