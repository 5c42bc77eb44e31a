//===- Workload.h - One kernel's inputs, launch shape and check -*- C++ -*-===//
//
// A Workload describes a kernel benchmark once for all three forms: its
// buffers with their initial contents, its arguments in the order of the
// .cu/.cl parameter lists, its CUDA launch shape (OpenCL: global size =
// Grid * Block, local size = Block) and the check of its result against a
// host reference. The cucpu and PoCL harnesses run any Workload generically;
// the native form has one function per kernel.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_WORKLOAD_H
#define CUCPU_BENCH_COMMON_WORKLOAD_H

#include "Options.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

/// A launch dimension, as CUDA's dim3.
struct Dim3 {
  unsigned X = 1, Y = 1, Z = 1;
};

/// One kernel argument: a buffer of the Workload (by index) or a scalar.
struct KernelArg {
  /// What the argument is.
  enum class Kind { Buffer, Int, Float } K = Kind::Int;
  /// The buffer's index in Workload::Buffers (Kind::Buffer).
  size_t Buffer = 0;
  /// The value (Kind::Int).
  int32_t Int = 0;
  /// The value (Kind::Float).
  float Float = 0;

  /// The buffer \p Index.
  static KernelArg buffer(size_t Index) {
    KernelArg A;
    A.K = Kind::Buffer;
    A.Buffer = Index;
    return A;
  }
  /// A 32-bit int.
  static KernelArg i32(int32_t V) {
    KernelArg A;
    A.Int = V;
    return A;
  }
  /// A float.
  static KernelArg f32(float V) {
    KernelArg A;
    A.K = Kind::Float;
    A.Float = V;
    return A;
  }
};

/// The bytes of every buffer, in Workload::Buffers order.
using Contents = std::vector<std::vector<unsigned char>>;

/// One device buffer of a Workload.
struct BufferSpec {
  /// For messages.
  std::string Name;
  /// Its contents before the first run; its size is the buffer's size.
  std::vector<unsigned char> Initial;
  /// Cleared to zero before every run, inside the timed region (an output
  /// that the kernel accumulates into, like the histogram's bins).
  bool ZeroEachRun = false;
};

/// A kernel benchmark, the same in every form.
struct Workload {
  /// The benchmark's name (also the kernel file's name: kernels/<Name>.cu).
  std::string Name;
  /// The kernel's entry point in the .cu and .cl files.
  std::string Kernel;
  /// bench-cucpu --ptx: the kernel comes from nvcc's PTX of kernels/<Name>.cu
  /// (kernels/ptx-nvcc-13.0/<Name>.ptx) instead of cucc's image.
  bool FromPtx = false;
  /// Its buffers.
  std::vector<BufferSpec> Buffers;
  /// Its arguments, in parameter order.
  std::vector<KernelArg> Args;
  /// The CUDA grid and block.
  Dim3 Grid, Block;
  /// Checks \p After, the buffers after one run from the initial contents:
  /// returns "" when they match the host reference, else what is wrong.
  std::string (*Check)(const Workload &W, const Contents &After) = nullptr;

  /// The int argument \p I.
  int32_t intArg(size_t I) const { return Args.at(I).Int; }
  /// The float argument \p I.
  float floatArg(size_t I) const { return Args.at(I).Float; }
  /// The initial contents of every buffer.
  Contents initial() const {
    Contents C;
    for (const BufferSpec &B : Buffers)
      C.push_back(B.Initial);
    return C;
  }
};

/// A kernel benchmark in the list that every executable registers.
struct WorkloadInfo {
  /// The benchmark's name.
  const char *Name;
  /// Compute-bound: part of the thread-scaling runs.
  bool ComputeBound;
  /// Builds the Workload (its inputs) for the given sizes.
  Workload (*Make)(const Sizes &);
};

/// Every kernel benchmark, in the order they run.
const std::vector<WorkloadInfo> &workloadList();

/// The bytes of \p V.
template <class T> std::vector<unsigned char> toBytes(const std::vector<T> &V) {
  std::vector<unsigned char> B(V.size() * sizeof(T));
  if (!B.empty())
    std::memcpy(B.data(), V.data(), B.size());
  return B;
}

/// \p Bytes viewed as an array of T (buffers come from operator new, so they
/// are aligned for any scalar type).
template <class T> const T *as(const std::vector<unsigned char> &Bytes) {
  return reinterpret_cast<const T *>(Bytes.data());
}

} // namespace bench

#endif
