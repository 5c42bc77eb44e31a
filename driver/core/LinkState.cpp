//===- LinkState.cpp - A pending link of module images (CUlinkState) ------===//
#include "core/LinkState.h"

#include "core/Error.h"
#include "core/Module.h"

#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/modules/JitError.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace cucpu;

namespace {
/// Live states by handle: a destroyed or foreign handle is an error, never
/// undefined behaviour.
struct Registry {
  std::mutex Mutex;
  llvm::DenseMap<const void *, std::shared_ptr<LinkState>> States;

  static Registry &get() {
    static Registry R;
    return R;
  }
};

/// The name of an input type for messages.
const char *describe(CUjitInputType Type) {
  switch (Type) {
  case CU_JIT_INPUT_CUBIN:
    return "CU_JIT_INPUT_CUBIN";
  case CU_JIT_INPUT_PTX:
    return "CU_JIT_INPUT_PTX";
  case CU_JIT_INPUT_FATBINARY:
    return "CU_JIT_INPUT_FATBINARY";
  case CU_JIT_INPUT_OBJECT:
    return "CU_JIT_INPUT_OBJECT";
  case CU_JIT_INPUT_LIBRARY:
    return "CU_JIT_INPUT_LIBRARY";
  case CU_JIT_INPUT_NVVM:
    return "CU_JIT_INPUT_NVVM";
  default:
    return "an unknown input type";
  }
}
} // namespace

llvm::Expected<CUlinkState>
LinkState::create(unsigned NumOptions, CUjit_option *Options, void **Values) {
  CU_TRY_ASSIGN(JitOptions Read, readJitOptions(NumOptions, Options, Values));
  std::shared_ptr<LinkState> S(new LinkState());
  S->Values = NumOptions ? Values : nullptr;
  S->Jit = Read;
  // Nothing is logged yet: the buffers start as empty strings.
  writeJitLog(Read.InfoBuffer, Read.InfoSize, "");
  writeJitLog(Read.ErrorBuffer, Read.ErrorSize, "");
  auto *Handle = reinterpret_cast<CUlinkState>(S.get());
  Registry &R = Registry::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  R.States[S.get()] = std::move(S);
  return Handle;
}

llvm::Expected<std::shared_ptr<LinkState>> LinkState::lookup(CUlinkState H) {
  Registry &R = Registry::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  auto It = R.States.find(H);
  CU_INVALID_IF(It == R.States.end(), CUDA_ERROR_INVALID_HANDLE,
                "The link state {0} is NULL, destroyed or not one that "
                "cuLinkCreate returned.",
                static_cast<const void *>(H));
  return It->second;
}

llvm::Error LinkState::destroy(CUlinkState H) {
  Registry &R = Registry::get();
  std::shared_ptr<LinkState> Last; // Freed outside the registry's lock.
  std::lock_guard<std::mutex> Lock(R.Mutex);
  auto It = R.States.find(H);
  CU_INVALID_IF(It == R.States.end(), CUDA_ERROR_INVALID_HANDLE,
                "The link state {0} is NULL, destroyed or not one that "
                "cuLinkCreate returned.",
                static_cast<const void *>(H));
  Last = std::move(It->second);
  R.States.erase(It);
  return llvm::Error::success();
}

llvm::Error LinkState::logged(llvm::function_ref<llvm::Error()> Step) {
  auto Start = std::chrono::steady_clock::now();
  llvm::Error E = Step();
  Milliseconds += std::chrono::duration<float, std::milli>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
  std::string Message;
  CUresult Code = CUDA_SUCCESS;
  if (E) {
    Code = toResult(std::move(E), Message);
    ErrorLog += "error   : " + Message + "\n";
  }
  // NVIDIA's linker writes its outputs back into the option values that
  // cuLinkCreate was given: the log sizes as integers, the wall time as a
  // float in the slot.
  size_t InfoBytes = writeJitLog(Jit.InfoBuffer, Jit.InfoSize, InfoLog);
  size_t ErrorBytes = writeJitLog(Jit.ErrorBuffer, Jit.ErrorSize, ErrorLog);
  if (Values) {
    writeJitSize(Values, Jit.InfoSizeIndex, InfoBytes);
    writeJitSize(Values, Jit.ErrorSizeIndex, ErrorBytes);
    writeJitWallTime(Values, Jit.WallTimeIndex, Milliseconds);
  }
  if (Code != CUDA_SUCCESS)
    return makeError(Code, Message);
  return llvm::Error::success();
}

llvm::Error LinkState::addInput(CUjitInputType Type, const void *Data,
                                size_t Size, std::string Name) {
  CU_INVALID_IF(
      Type < 0 || Type >= CU_JIT_NUM_INPUT_TYPES, CUDA_ERROR_INVALID_VALUE,
      "Input type {0} is not a valid CUjitInputType.", static_cast<int>(Type));
  CU_INVALID_IF(!Data || Size == 0, CUDA_ERROR_INVALID_VALUE,
                "The data of input '{0}' is NULL or empty ({1} bytes).", Name,
                Size);
  // The bytes say what they are: a cucpu image (cucc -dc writes its image as
  // <stem>.o, hence OBJECT), PTX (compiled as relocatable code), a fat
  // binary holding either.
  std::string Why;
  loader::ImageKind Kind = loader::classifyImage(Data, Size, Why);
  CU_INVALID_IF(Type == CU_JIT_INPUT_NVVM, CUDA_ERROR_NOT_SUPPORTED,
                "Input '{0}' is NVVM IR (CU_JIT_INPUT_NVVM), which cucpu does "
                "not link; add the image cucc -rdc=true writes "
                "(CU_JIT_INPUT_CUBIN).",
                Name);
  switch (Kind) {
  case loader::ImageKind::CucpuImage:
  case loader::ImageKind::FatBinaryWrapper:
  case loader::ImageKind::FatBinary:
  case loader::ImageKind::Ptx:
  case loader::ImageKind::NvidiaCubin:
    break; // Module::imageBytes finds or compiles the image, or says why
           // there is none.
  case loader::ImageKind::OtherElf:
    return makeError(
        CUDA_ERROR_NOT_SUPPORTED,
        llvm::formatv("Input '{0}' ({1}) is an ELF file for another machine, "
                      "such as the host object nvcc -dc writes, which embeds "
                      "NVIDIA's device code; cucpu links the images of cucc "
                      "-rdc=true or -dc (its <stem>.o is a cucpu image).",
                      Name, describe(Type)));
  default:
    if (Size >= 8 && std::memcmp(Data, "!<arch>\n", 8) == 0)
      return makeError(
          CUDA_ERROR_NOT_SUPPORTED,
          llvm::formatv("Input '{0}' ({1}) is an archive (a static library); "
                        "cucpu links the images of cucc -rdc=true one by one: "
                        "add each of them.",
                        Name, describe(Type)));
    return makeError(CUDA_ERROR_INVALID_IMAGE,
                     llvm::formatv("Input '{0}' ({1}) is {2}: {3}", Name,
                                   describe(Type), loader::describe(Kind),
                                   Why));
  }
  auto ImageBytes =
      Module::imageBytes(Data, Size, Jit, &InfoLog, /*Relocatable=*/true);
  if (!ImageBytes) {
    std::string Message;
    CUresult Code = toResult(ImageBytes.takeError(), Message);
    return makeError(Code, llvm::formatv("Input '{0}': {1}", Name, Message));
  }
  auto Image = loader::readImage(*ImageBytes);
  if (!Image)
    return toCuError(Image.takeError());
  if (Jit.Verbose)
    InfoLog += llvm::formatv(
        "info    : Added '{0}': {1} image for {2}, {3} "
        "kernel(s), {4} variable(s).\n",
        Name, Image->Relocatable ? "a relocatable" : "a whole",
        Image->TargetArch, Image->Kernels.size(), Image->Globals.size());
  Inputs.push_back({std::move(*Image), std::move(Name)});
  return llvm::Error::success();
}

llvm::Error LinkState::addData(CUjitInputType Type, const void *Data,
                               size_t Size, const char *Name,
                               unsigned NumOptions, CUjit_option *Options,
                               void **Values) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return logged([&]() -> llvm::Error {
    CU_TRY(readJitOptions(NumOptions, Options, Values).takeError());
    std::string Label =
        Name && *Name ? std::string(Name)
                      : llvm::formatv("input {0}", Inputs.size() + 1).str();
    return addInput(Type, Data, Size, std::move(Label));
  });
}

llvm::Error LinkState::addFile(CUjitInputType Type, const char *Path,
                               unsigned NumOptions, CUjit_option *Options,
                               void **Values) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return logged([&]() -> llvm::Error {
    CU_TRY(readJitOptions(NumOptions, Options, Values).takeError());
    CU_INVALID_IF(!Path, CUDA_ERROR_INVALID_VALUE, "The file name is NULL.");
    std::ifstream In(Path, std::ios::binary);
    CU_INVALID_IF(!In, CUDA_ERROR_FILE_NOT_FOUND,
                  "The file \"{0}\" cannot be opened.", Path);
    std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                            std::istreambuf_iterator<char>());
    CU_INVALID_IF(Bytes.empty(), CUDA_ERROR_INVALID_IMAGE,
                  "The file \"{0}\" is empty.", Path);
    return addInput(Type, Bytes.data(), Bytes.size(), Path);
  });
}

llvm::Error LinkState::complete(void **CubinOut, size_t *SizeOut) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return logged([&]() -> llvm::Error {
    CU_INVALID_IF(Inputs.empty(), CUDA_ERROR_INVALID_VALUE,
                  "Nothing was added to the link (cuLinkAddData, "
                  "cuLinkAddFile).");
    // A second cuLinkComplete hands out the same image again.
    if (Output.empty()) {
      std::string Notes;
      auto Linked = modules::linkImages(Inputs, &Notes);
      if (!Linked) {
        // NVIDIA's linker answers CUDA_ERROR_INVALID_SOURCE for undefined
        // references and multiple definitions (H200, driver 580.159.04).
        std::string Message;
        modules::JitErrorKind Kind =
            modules::takeJitError(Linked.takeError(), Message);
        return makeError(Kind == modules::JitErrorKind::Internal
                             ? CUDA_ERROR_UNKNOWN
                             : CUDA_ERROR_INVALID_SOURCE,
                         Message);
      }
      auto Bytes = loader::writeImage(*Linked);
      if (!Bytes)
        return toCuError(Bytes.takeError());
      Output = std::move(*Bytes);
      // NVIDIA's log prefixes every line with its severity.
      llvm::SmallVector<llvm::StringRef, 4> Lines;
      llvm::StringRef(Notes).split(Lines, '\n', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef Line : Lines)
        InfoLog += ("info    : " + Line + "\n").str();
    }
    *CubinOut = Output.data();
    if (SizeOut)
      *SizeOut = Output.size();
    return llvm::Error::success();
  });
}
