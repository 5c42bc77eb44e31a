//===- BlockShape.h - Block functions for a launch's shape ------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_BLOCKSHAPE_H
#define CUCPU_MODULES_PASSES_BLOCKSHAPE_H

#include <array>
#include <cstdint>

namespace llvm {
class Function;
} // namespace llvm

namespace cucpu::modules {

/// Replaces every read of blockDim in block function \p BF (loads of
/// CucpuBlock::BlockDim through its first argument) by \p Shape, so that
/// the optimizer sees constant thread-loop trip counts, frame offsets and
/// warp counts. Returns how many reads were replaced.
unsigned specializeBlockShape(llvm::Function &BF,
                              const std::array<uint32_t, 3> &Shape);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_BLOCKSHAPE_H
