//===- PeerMemfd.cpp - Memfds shared with other processes -----------------===//
#include "core/PeerMemfd.h"

#include "core/Error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace cucpu;

bool cucpu::isMemfdNamed(int Fd, llvm::StringRef Name) {
  // The link reads "/memfd:<name> (deleted)".
  char Target[256] = {};
  std::string Link = "/proc/self/fd/" + std::to_string(Fd);
  ssize_t Length = readlink(Link.c_str(), Target, sizeof(Target) - 1);
  return Length > 0 &&
         llvm::StringRef(Target).starts_with(("/memfd:" + Name + " ").str());
}

llvm::Expected<int> cucpu::openPeerMemfd(int Pid, int Fd, llvm::StringRef Name,
                                         std::optional<uint64_t> Bytes,
                                         llvm::StringRef What) {
  std::string Path =
      "/proc/" + std::to_string(Pid) + "/fd/" + std::to_string(Fd);
  int Opened = open(Path.c_str(), O_RDWR | O_CLOEXEC);
  CU_INVALID_IF(Opened < 0, CUDA_ERROR_INVALID_VALUE,
                "The {0} cannot be reached ({1}: {2}); process {3} may have "
                "ended or freed it.",
                What, Path, std::strerror(errno), Pid);
  struct stat S;
  bool Valid = isMemfdNamed(Opened, Name) && fstat(Opened, &S) == 0 &&
               (!Bytes || static_cast<uint64_t>(S.st_size) == *Bytes);
  if (!Valid) {
    close(Opened);
    return makeError(
        CUDA_ERROR_INVALID_VALUE,
        llvm::formatv("The {0} is gone: process {1} freed it.", What, Pid));
  }
  return Opened;
}
