//===- LaunchAttributes.h - Stream and kernel-node attributes ---*- C++ -*-===//
//
// cuStreamSetAttribute and cuGraphKernelNodeSetAttribute set launch
// attributes (CUlaunchAttributeValue by CUlaunchAttributeID) on a stream or
// a kernel node: L2 access policy windows, synchronization policies, memory
// synchronization domains, priorities, cluster shapes. On the CPU they are
// hints that change no result; they are validated as NVIDIA's driver
// validates them and kept, so a program reads back what it set.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_LAUNCHATTRIBUTES_H
#define CUCPU_DRIVER_CORE_LAUNCHATTRIBUTES_H

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <map>

namespace cucpu {

class Device;

/// What holds a set of attributes; each takes its own subset of the ids.
enum class AttributeHolder { Stream, KernelNode };

/// Checks that \p Id is an attribute of \p Holder (CUDA_ERROR_INVALID_VALUE
/// if not).
llvm::Error checkAttributeId(AttributeHolder Holder, CUlaunchAttributeID Id);

/// Checks \p Id as checkAttributeId does and \p Value as NVIDIA's driver
/// does for device \p D: an access policy window no larger than the
/// device's maximum, with a hit ratio in [0, 1] and access properties that
/// exist; a known synchronization policy, scheduling policy and domain;
/// clusters of one block (larger ones need compute capability 9.0).
llvm::Error checkAttribute(AttributeHolder Holder, CUlaunchAttributeID Id,
                           const CUlaunchAttributeValue &Value,
                           const Device &D);

/// The attributes set on one stream or kernel node. Not thread-safe: the
/// holder guards it.
class LaunchAttributes {
public:
  /// The value of \p Id: the last one set, else the default (all zero
  /// bytes, but the synchronization policy AUTO and the domain map that
  /// sends the remote domain to domain 1).
  CUlaunchAttributeValue get(CUlaunchAttributeID Id) const;
  void set(CUlaunchAttributeID Id, const CUlaunchAttributeValue &Value) {
    Values[Id] = Value;
  }

private:
  std::map<CUlaunchAttributeID, CUlaunchAttributeValue> Values;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_LAUNCHATTRIBUTES_H
