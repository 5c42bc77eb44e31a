//===- ComputeCache.h - Compiled kernels on disk ----------------*- C++ -*-===//
//
// The persistent compute cache (CUDA_CACHE_PATH, CUDA_CACHE_DISABLE,
// CUDA_CACHE_MAXSIZE): one file per compiled module, named by the hash of
// everything that changes the object code. A file holds a small payload the
// JIT needs besides the object (the shared-memory layout, variable sizes)
// and the object file itself, with a checksum; a damaged file is a miss.
// Files are written to a temporary name and renamed, so concurrent
// processes never see half a file.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_COMPUTECACHE_H
#define CUCPU_MODULES_COMPUTECACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ExecutionEngine/ObjectCache.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace cucpu::modules {

/// A cache entry: the JIT's payload and the object file.
struct CacheEntry {
  std::string Payload;
  std::unique_ptr<llvm::MemoryBuffer> Object;
};

/// The on-disk cache. Also an llvm::ObjectCache keyed by module identifier
/// (the JIT names each module by its key), for use with ORC's compilers.
class ComputeCache : public llvm::ObjectCache {
public:
  /// A cache in \p Dir (created when first written) of at most \p MaxBytes.
  ComputeCache(std::string Dir, uint64_t MaxBytes);

  /// The default directory: $HOME/.nv/ComputeCache-cucpu.
  static std::string defaultDirectory();

  /// The entry stored under \p Key, if it is there and intact.
  std::optional<CacheEntry> lookup(llvm::StringRef Key);
  /// Stores \p Object and \p Payload under \p Key, then evicts the least
  /// recently used entries beyond the size limit. Failures are ignored: the
  /// cache is an optimization.
  void store(llvm::StringRef Key, llvm::StringRef Payload,
             llvm::MemoryBufferRef Object);

  void notifyObjectCompiled(const llvm::Module *M,
                            llvm::MemoryBufferRef Obj) override;
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module *M) override;

  /// The file of \p Key.
  std::string pathOf(llvm::StringRef Key) const;

private:
  void evict();

  std::string Dir;
  uint64_t MaxBytes;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_COMPUTECACHE_H
