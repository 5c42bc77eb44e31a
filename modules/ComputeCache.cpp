//===- ComputeCache.cpp - Compiled kernels on disk ------------------------===//
#include "cucpu/modules/ComputeCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// File layout: magic, payload size (u64), object size (u64), xxh3 of
/// payload and object (u64), payload, object. Little endian.
constexpr char Magic[8] = {'C', 'U', 'C', 'P', 'U', 'C', 'C', '1'};
constexpr size_t HeaderSize = 8 + 3 * 8;
constexpr StringRef Suffix = ".cucpu-obj";

uint64_t checksum(StringRef Payload, StringRef Object) {
  return xxh3_64bits(Payload) ^ (xxh3_64bits(Object) * 0x9E3779B97F4A7C15ull);
}

} // namespace

ComputeCache::ComputeCache(std::string Dir, uint64_t MaxBytes)
    : Dir(std::move(Dir)), MaxBytes(MaxBytes) {}

std::string ComputeCache::defaultDirectory() {
  SmallString<256> Path;
  if (const char *Home = std::getenv("HOME"); Home && *Home)
    Path = Home;
  else
    sys::path::system_temp_directory(/*ErasedOnReboot=*/false, Path);
  sys::path::append(Path, ".nv", "ComputeCache-cucpu");
  return std::string(Path);
}

std::string ComputeCache::pathOf(StringRef Key) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Key + Suffix);
  return std::string(Path);
}

std::optional<CacheEntry> ComputeCache::lookup(StringRef Key) {
  std::string Path = pathOf(Key);
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  StringRef Data = (*Buffer)->getBuffer();
  auto Corrupt = [&]() -> std::optional<CacheEntry> {
    sys::fs::remove(Path);
    return std::nullopt;
  };
  if (Data.size() < HeaderSize || !Data.starts_with(StringRef(Magic, 8)))
    return Corrupt();
  const char *P = Data.data() + 8;
  uint64_t PayloadSize = support::endian::read64le(P);
  uint64_t ObjectSize = support::endian::read64le(P + 8);
  uint64_t Sum = support::endian::read64le(P + 16);
  if (PayloadSize > Data.size() || ObjectSize > Data.size() ||
      HeaderSize + PayloadSize + ObjectSize != Data.size())
    return Corrupt();
  StringRef Payload = Data.substr(HeaderSize, PayloadSize);
  StringRef Object = Data.substr(HeaderSize + PayloadSize, ObjectSize);
  if (checksum(Payload, Object) != Sum)
    return Corrupt();
  // Least recently used eviction: a hit makes the entry young again.
  if (int FD; !sys::fs::openFileForWrite(Path, FD, sys::fs::CD_OpenExisting,
                                         sys::fs::OF_Append)) {
    (void)sys::fs::setLastAccessAndModificationTime(
        FD, sys::toTimePoint(std::time(nullptr)));
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
  CacheEntry Entry;
  Entry.Payload = Payload.str();
  Entry.Object = MemoryBuffer::getMemBufferCopy(Object, Key);
  return Entry;
}

void ComputeCache::store(StringRef Key, StringRef Payload,
                         MemoryBufferRef Object) {
  if (MaxBytes == 0)
    return;
  if (sys::fs::create_directories(Dir))
    return;
  SmallString<256> Temp;
  int FD;
  if (sys::fs::createUniqueFile(pathOf(Key) + ".tmp-%%%%%%%%", FD, Temp))
    return;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    char Header[HeaderSize];
    std::copy(std::begin(Magic), std::end(Magic), Header);
    support::endian::write64le(Header + 8, Payload.size());
    support::endian::write64le(Header + 16, Object.getBufferSize());
    support::endian::write64le(Header + 24,
                               checksum(Payload, Object.getBuffer()));
    OS.write(Header, HeaderSize);
    OS << Payload << Object.getBuffer();
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Temp);
      return;
    }
  }
  if (sys::fs::rename(Temp, pathOf(Key))) {
    sys::fs::remove(Temp);
    return;
  }
  evict();
}

void ComputeCache::evict() {
  struct File {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Time;
  };
  std::vector<File> Files;
  uint64_t Total = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!StringRef(It->path()).ends_with(Suffix))
      continue;
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status))
      continue;
    Files.push_back(
        {It->path(), Status.getSize(), Status.getLastModificationTime()});
    Total += Status.getSize();
  }
  if (Total <= MaxBytes)
    return;
  std::sort(Files.begin(), Files.end(),
            [](const File &A, const File &B) { return A.Time < B.Time; });
  for (const File &F : Files) {
    if (Total <= MaxBytes)
      break;
    if (!sys::fs::remove(F.Path))
      Total -= F.Size;
  }
}

void ComputeCache::notifyObjectCompiled(const Module *M, MemoryBufferRef Obj) {
  store(M->getModuleIdentifier(), "", Obj);
}

std::unique_ptr<MemoryBuffer> ComputeCache::getObject(const Module *M) {
  std::optional<CacheEntry> Entry = lookup(M->getModuleIdentifier());
  if (!Entry)
    return nullptr;
  return std::move(Entry->Object);
}
