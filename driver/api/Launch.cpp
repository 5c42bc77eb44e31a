//===- Launch.cpp - Execution control entry points (E.7) ------------------===//
//
// The seeds' legacy launch API (cuFuncSetBlockShape, cuFuncSetSharedSize,
// cuParamSet*, cuLaunch, cuLaunchGrid[Async]) and the modern cuLaunchKernel
// and cuLaunchKernelEx. Parameters follow the kernel's real layout (8-byte
// pointers, natural alignment), as NVIDIA's driver does today.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "api/Kernels.h"
#include "api/StreamCapture.h"
#include "api/StreamWork.h"
#include "core/EntryPoint.h"
#include "core/Launcher.h"

#include <cstring>
#include <vector>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// The stream \p H names (null for a default stream), which must be usable
/// in \p Ctx (a default stream or one of Ctx's).
llvm::Expected<std::shared_ptr<Stream>>
launchStream(CUstream H, const std::shared_ptr<Context> &Ctx) {
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
  CU_INVALID_IF(S && S->context().get() != Ctx.get(), CUDA_ERROR_INVALID_HANDLE,
                "Stream {0} belongs to another context than the current one.",
                static_cast<const void *>(H));
  return S;
}

/// Launches \p R of \p F in stream \p S (from launchStream()), or adds it to
/// S's capture.
llvm::Error launchOrCapture(const std::shared_ptr<Function> &F,
                            const std::shared_ptr<Context> &Ctx,
                            const std::shared_ptr<Stream> &S, LaunchRequest R) {
  if (!capturing(S.get())) {
    CU_TRY_ASSIGN(WorkQueue & Queue, queueFor(S.get(), *Ctx));
    return launchFunction(*F, Ctx, Queue, std::move(R));
  }
  // Checked now, as the launch would be.
  CU_TRY(prepareLaunch(*F, Ctx, R).takeError());
  NodeParams P;
  P.Type = CU_GRAPH_NODE_TYPE_KERNEL;
  P.Kernel.F = F;
  P.Kernel.Grid = R.Grid;
  P.Kernel.Block = R.Block;
  P.Kernel.SharedBytes = R.DynamicShared;
  P.Kernel.Buffer.assign(R.Params.begin(), R.Params.end());
  if (R.Cooperative) {
    CUlaunchAttributeValue V{};
    V.cooperative = 1;
    P.Attributes.set(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, V);
  }
  return captureNode(*S, std::move(P));
}

/// A launch with the state the legacy API accumulated on \p H.
llvm::Error legacyLaunch(CUfunction H, int Width, int Height, CUstream Stream,
                         bool CheckStream) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
  CU_TRY_ASSIGN(std::shared_ptr<cucpu::Stream> S,
                launchStream(CheckStream ? Stream : nullptr, Ctx));
  // "invokes the kernel on a grid_width x grid_height grid of blocks" (E.7.9);
  // NVIDIA rejects 0 and a height over 65535 (observed).
  CU_INVALID_IF(Width < 1 || Height < 1, CUDA_ERROR_INVALID_VALUE,
                "The grid {0}x{1} must be at least 1x1.", Width, Height);
  LegacyLaunchState State = F->takeLegacyState();
  CU_INVALID_IF(!State.ParamOverflow.empty(), CUDA_ERROR_INVALID_VALUE, "{0}",
                State.ParamOverflow);
  LaunchRequest R;
  R.Grid = {static_cast<unsigned>(Width), static_cast<unsigned>(Height), 1};
  R.Block = State.BlockShape;
  R.DynamicShared = State.SharedBytes;
  size_t Used = std::max<size_t>(State.ParamBytes, F->paramBytes());
  R.Params.assign(State.Params.begin(),
                  State.Params.begin() + std::min<size_t>(Used, MaxParamBytes));
  return launchOrCapture(F, Ctx, S, std::move(R));
}

} // namespace

llvm::Error api::gatherLaunchParams(const Function &F, void **KernelParams,
                                    void **Extra,
                                    llvm::SmallVectorImpl<char> &Buffer) {
  CU_INVALID_IF(KernelParams && Extra, CUDA_ERROR_INVALID_VALUE,
                "Both kernelParams and extra were given; only one may be.");
  const loader::KernelInfo *Info = F.kernel().Info;
  unsigned Bytes = F.paramBytes();
  Buffer.assign(std::max(Bytes, 16u), 0);
  if (KernelParams) {
    if (!Info)
      return llvm::Error::success();
    for (size_t I = 0; I < Info->Params.size(); ++I) {
      const loader::KernelParam &P = Info->Params[I];
      CU_INVALID_IF(!KernelParams[I], CUDA_ERROR_INVALID_VALUE,
                    "kernelParams[{0}] is NULL; kernel {1} takes {2} "
                    "parameters.",
                    I, F.name(), Info->Params.size());
      if (uint64_t(P.Offset) + P.Size <= Buffer.size())
        std::memcpy(Buffer.data() + P.Offset, KernelParams[I], P.Size);
    }
    return llvm::Error::success();
  }
  if (Extra) {
    const void *Pointer = nullptr;
    const size_t *Size = nullptr;
    for (size_t I = 0;; I += 2) {
      void *Key = Extra[I];
      if (Key == CU_LAUNCH_PARAM_END)
        break;
      if (Key == CU_LAUNCH_PARAM_BUFFER_POINTER)
        Pointer = Extra[I + 1];
      else if (Key == CU_LAUNCH_PARAM_BUFFER_SIZE)
        Size = static_cast<const size_t *>(Extra[I + 1]);
      else
        return makeError(CUDA_ERROR_INVALID_VALUE,
                         llvm::formatv("extra[{0}] ({1}) is not a "
                                       "CU_LAUNCH_PARAM_* key.",
                                       I, Key));
    }
    CU_INVALID_IF(!Pointer || !Size, CUDA_ERROR_INVALID_VALUE,
                  "extra must give both CU_LAUNCH_PARAM_BUFFER_POINTER and "
                  "CU_LAUNCH_PARAM_BUFFER_SIZE.");
    CU_INVALID_IF(*Size < Bytes, CUDA_ERROR_INVALID_VALUE,
                  "The parameter buffer of {0} bytes is smaller than the {1} "
                  "bytes kernel {2} takes.",
                  *Size, Bytes, F.name());
    CU_INVALID_IF(*Size > MaxParamBytes, CUDA_ERROR_INVALID_VALUE,
                  "The parameter buffer of {0} bytes exceeds the maximum "
                  "({1}).",
                  *Size, MaxParamBytes);
    std::memcpy(Buffer.data(), Pointer, Bytes);
    return llvm::Error::success();
  }
  CU_INVALID_IF(Info && !Info->Params.empty(), CUDA_ERROR_INVALID_VALUE,
                "Kernel {0} takes {1} parameters but neither kernelParams nor "
                "extra was given.",
                F.name(), Info->Params.size());
  return llvm::Error::success();
}

namespace {

/// Checks the attributes of a cuLaunchKernelEx launch. They are scheduling
/// hints on the CPU, except thread-block clusters, which need compute
/// capability 9.0 (cucpu's device has 7.5): a cluster of one block is a
/// plain block, larger ones are CUDA_ERROR_NOT_SUPPORTED.
llvm::Error checkLaunchAttributes(const CUlaunchConfig &Config) {
  // More than this is a garbage count, not an array to read.
  constexpr unsigned MaxLaunchAttributes = 64;
  CU_INVALID_IF(Config.numAttrs > MaxLaunchAttributes, CUDA_ERROR_INVALID_VALUE,
                "{0} launch attributes is more than any program passes (at "
                "most {1}).",
                Config.numAttrs, MaxLaunchAttributes);
  CU_INVALID_IF(Config.numAttrs > 0 && !Config.attrs, CUDA_ERROR_INVALID_VALUE,
                "{0} launch attributes were announced but the array is NULL.",
                Config.numAttrs);
  for (unsigned I = 0; I < Config.numAttrs; ++I) {
    const CUlaunchAttribute &A = Config.attrs[I];
    CU_INVALID_IF(A.id < 0 || A.id >= CU_LAUNCH_ATTRIBUTE_MAX,
                  CUDA_ERROR_INVALID_VALUE,
                  "Launch attribute {0} (index {1}) is not a "
                  "CUlaunchAttributeID.",
                  static_cast<int>(A.id), I);
    if (A.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      const auto &D = A.value.clusterDim;
      CU_INVALID_IF(D.x * D.y * D.z != 1, CUDA_ERROR_NOT_SUPPORTED,
                    "Thread-block clusters ({0}x{1}x{2}) need compute "
                    "capability 9.0; the device has {3}.{4}.",
                    D.x, D.y, D.z, ComputeCapabilityMajor,
                    ComputeCapabilityMinor);
    }
  }
  return llvm::Error::success();
}

/// Whether a launch of \p Config asks to be cooperative.
bool cooperativeAttribute(const CUlaunchConfig &Config) {
  for (unsigned I = 0; I < Config.numAttrs; ++I)
    if (Config.attrs[I].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE &&
        Config.attrs[I].value.cooperative)
      return true;
  return false;
}

/// cuLaunchKernel, cuLaunchKernelEx and cuLaunchCooperativeKernel. A
/// cooperative grid must fit on the device at once, as the occupancy
/// calculator counts it (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
llvm::Error launchKernel(CUfunction H, std::array<unsigned, 3> Grid,
                         std::array<unsigned, 3> Block, unsigned Shared,
                         CUstream Stream, void **KernelParams, void **Extra,
                         bool Cooperative = false) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Function> F, launchableFunction(H, Ctx));
  CU_TRY_ASSIGN(std::shared_ptr<cucpu::Stream> S, launchStream(Stream, Ctx));
  llvm::SmallVector<char, 128> Buffer;
  CU_TRY(gatherLaunchParams(*F, KernelParams, Extra, Buffer));
  LaunchRequest R;
  R.Grid = Grid;
  R.Block = Block;
  R.DynamicShared = Shared;
  R.Params = std::move(Buffer);
  R.Cooperative = Cooperative;
  if (Cooperative) {
    CU_TRY(checkGrid(Grid));
    CU_TRY(checkBlock(Block));
    CU_TRY(checkCooperativeFit(*F, Ctx->device(), R));
  }
  return launchOrCapture(F, Ctx, S, std::move(R));
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuFuncSetBlockShape(CUfunction H, int X, int Y,
                                                  int Z) {
  return CU_ENTRY(H, X, Y, Z).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setBlockShape(X, Y, Z);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncSetSharedSize(CUfunction H,
                                                  unsigned int Bytes) {
  return CU_ENTRY(H, Bytes).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setSharedSize(Bytes);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuParamSetSize(CUfunction H, unsigned int Bytes) {
  return CU_ENTRY(H, Bytes).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setParamSize(Bytes);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuParamSeti(CUfunction H, int Offset,
                                          unsigned int Value) {
  return CU_ENTRY(H, Offset, Value).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setParam(Offset, &Value, sizeof(Value));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuParamSetf(CUfunction H, int Offset,
                                          float Value) {
  return CU_ENTRY(H, Offset, Value).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setParam(Offset, &Value, sizeof(Value));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuParamSetv(CUfunction H, int Offset, void *Ptr,
                                          unsigned int Bytes) {
  return CU_ENTRY(H, Offset, Ptr, Bytes).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setParam(Offset, Ptr, Bytes);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLaunch(CUfunction H) {
  // "invokes the kernel func on a 1x1 grid of blocks" (E.7.8).
  return CU_ENTRY(H).run([&] { return legacyLaunch(H, 1, 1, nullptr, false); });
}

CUCPU_EXPORT CUresult CUDAAPI cuLaunchGrid(CUfunction H, int Width,
                                           int Height) {
  return CU_ENTRY(H, Width, Height).run([&] {
    return legacyLaunch(H, Width, Height, nullptr, false);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLaunchGridAsync(CUfunction H, int Width,
                                                int Height, CUstream Stream) {
  return CU_ENTRY(H, Width, Height, Stream).run([&] {
    return legacyLaunch(H, Width, Height, Stream, true);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLaunchKernel(
    CUfunction H, unsigned int GridX, unsigned int GridY, unsigned int GridZ,
    unsigned int BlockX, unsigned int BlockY, unsigned int BlockZ,
    unsigned int Shared, CUstream Stream, void **KernelParams, void **Extra) {
  return CU_ENTRY(H, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, Shared,
                  Stream, KernelParams, Extra)
      .run([&] {
        return launchKernel(H, {GridX, GridY, GridZ}, {BlockX, BlockY, BlockZ},
                            Shared, Stream, KernelParams, Extra);
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *Config,
                                               CUfunction H,
                                               void **KernelParams,
                                               void **Extra) {
  return CU_ENTRY(Config, H, KernelParams, Extra).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Config, CUDA_ERROR_INVALID_VALUE,
                  "The launch configuration pointer is NULL.");
    CU_TRY(checkLaunchAttributes(*Config));
    return launchKernel(
        H, {Config->gridDimX, Config->gridDimY, Config->gridDimZ},
        {Config->blockDimX, Config->blockDimY, Config->blockDimZ},
        Config->sharedMemBytes, Config->hStream, KernelParams, Extra,
        cooperativeAttribute(*Config));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLaunchCooperativeKernel(
    CUfunction H, unsigned int GridX, unsigned int GridY, unsigned int GridZ,
    unsigned int BlockX, unsigned int BlockY, unsigned int BlockZ,
    unsigned int Shared, CUstream Stream, void **KernelParams) {
  return CU_ENTRY(H, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, Shared,
                  Stream, KernelParams)
      .run([&] {
        return launchKernel(H, {GridX, GridY, GridZ}, {BlockX, BlockY, BlockZ},
                            Shared, Stream, KernelParams, nullptr,
                            /*Cooperative=*/true);
      });
}
