//===- LinkState.h - A pending link (CUlinkState) ---------------*- C++ -*-===//
//
// "cuLinkCreate: Creates a pending JIT linker invocation." The images added
// to it (cucc -rdc output, alone or in a fat binary) are read and kept;
// cuLinkComplete links them (modules/include/cucpu/modules/ImageLinker.h) into
// one image that the state owns until cuLinkDestroy. The JIT log options given
// to cuLinkCreate receive every message of the link, as on NVIDIA's driver.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_LINKSTATE_H
#define CUCPU_DRIVER_CORE_LINKSTATE_H

#include "cucpu/modules/ImageLinker.h"

#include <cuda.h>

#include "core/JitOptions.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cucpu {

/// One cuLinkCreate .. cuLinkDestroy session.
class LinkState {
public:
  /// cuLinkCreate: checks the JIT options (CUDA_ERROR_INVALID_VALUE for an
  /// unknown option or a missing array) and registers a new state.
  static llvm::Expected<CUlinkState>
  create(unsigned NumOptions, CUjit_option *Options, void **Values);
  /// The live state \p H names, or CUDA_ERROR_INVALID_HANDLE.
  static llvm::Expected<std::shared_ptr<LinkState>> lookup(CUlinkState H);
  /// cuLinkDestroy: \p H stops being a handle; its output is freed once no
  /// call uses it any more.
  static llvm::Error destroy(CUlinkState H);

  /// cuLinkAddData: reads the \p Size bytes at \p Data as an input of
  /// \p Type; \p Name names it in messages (may be null).
  llvm::Error addData(CUjitInputType Type, const void *Data, size_t Size,
                      const char *Name, unsigned NumOptions,
                      CUjit_option *Options, void **Values);
  /// cuLinkAddFile: as addData with the contents of file \p Path.
  llvm::Error addFile(CUjitInputType Type, const char *Path,
                      unsigned NumOptions, CUjit_option *Options,
                      void **Values);
  /// cuLinkComplete: links the inputs; the image stays owned by the state.
  /// An undefined symbol or a multiple definition is
  /// CUDA_ERROR_INVALID_SOURCE, as on NVIDIA's driver. \p SizeOut may be null.
  llvm::Error complete(void **CubinOut, size_t *SizeOut);

private:
  LinkState() = default;

  /// Reads one input and keeps it; the error says why it cannot be linked.
  llvm::Error addInput(CUjitInputType Type, const void *Data, size_t Size,
                       std::string Name);
  /// Runs \p Step, adding its time and messages to the logs the options
  /// asked for, and writes them back to the caller's option values.
  llvm::Error logged(llvm::function_ref<llvm::Error()> Step);

  std::mutex Mutex;
  std::vector<modules::LinkInput> Inputs;
  std::vector<uint8_t> Output; ///< The linked image, once complete.
  // The options of cuLinkCreate: the caller's value array, written back as
  // NVIDIA's linker does (log sizes as integers, the wall time as a float).
  void **Values = nullptr;
  JitOptions Jit; ///< What cuLinkCreate's options asked for.
  std::string InfoLog, ErrorLog;
  float Milliseconds = 0;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_LINKSTATE_H
