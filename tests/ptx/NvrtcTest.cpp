//===- NvrtcTest.cpp - PTX from NVIDIA's NVRTC, run on cucpu --------------===//
//
// Programs that compile CUDA C at run time with NVIDIA's NVRTC
// (nvrtcCompileProgram + nvrtcGetPTX) and load the PTX with
// cuModuleLoadDataEx run unchanged. NVRTC is a compiler that needs no GPU;
// it comes with NVIDIA's toolkit, which this test looks for (CUDA_HOME,
// CUDA_PATH, /usr/local/cuda) and skips, saying so, where it is absent.
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>

using namespace cucpu::test;

namespace {

/// The NVRTC calls the test uses, resolved from libnvrtc.so at run time so
/// that the build needs no NVIDIA header or library.
struct Nvrtc {
  using Program = void *;
  int (*Create)(Program *, const char *, const char *, int, const char *const *,
                const char *const *) = nullptr;
  int (*Compile)(Program, int, const char *const *) = nullptr;
  int (*PtxSize)(Program, size_t *) = nullptr;
  int (*Ptx)(Program, char *) = nullptr;
  int (*LogSize)(Program, size_t *) = nullptr;
  int (*Log)(Program, char *) = nullptr;
  int (*Destroy)(Program *) = nullptr;
  void *Library = nullptr;

  /// Loads libnvrtc from the toolkit; false if there is none.
  bool load() {
    std::vector<std::string> Dirs;
    for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
      if (const char *V = std::getenv(Var))
        Dirs.push_back(std::string(V) + "/lib64/");
    Dirs.push_back("/usr/local/cuda/lib64/");
    Dirs.push_back("");
    for (const std::string &D : Dirs)
      for (const char *Name :
           {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"})
        if ((Library = dlopen((D + Name).c_str(), RTLD_NOW | RTLD_LOCAL)))
          return resolve();
    return false;
  }

  /// The PTX of \p Source compiled for \p Arch, or an empty string with
  /// \p Log holding NVRTC's log.
  std::string compile(const char *Source, const char *Arch, std::string &Log) {
    Program P = nullptr;
    if (Create(&P, Source, "kernel.cu", 0, nullptr, nullptr) != 0)
      return "";
    std::string ArchOption = std::string("--gpu-architecture=") + Arch;
    const char *Options[] = {ArchOption.c_str(), "--std=c++17"};
    int Compiled = Compile(P, 2, Options);
    size_t Size = 0;
    LogSize(P, &Size);
    Log.assign(Size, '\0');
    this->Log(P, Log.data());
    std::string Text;
    if (Compiled == 0 && PtxSize(P, &Size) == 0) {
      Text.assign(Size, '\0');
      Ptx(P, Text.data());
    }
    Destroy(&P);
    return Text;
  }

private:
  template <class F> bool get(F &Out, const char *Name) {
    Out = reinterpret_cast<F>(dlsym(Library, Name));
    return Out != nullptr;
  }
  bool resolve() {
    return get(Create, "nvrtcCreateProgram") &&
           get(Compile, "nvrtcCompileProgram") &&
           get(PtxSize, "nvrtcGetPTXSize") && get(Ptx, "nvrtcGetPTX") &&
           get(LogSize, "nvrtcGetProgramLogSize") &&
           get(Log, "nvrtcGetProgramLog") &&
           get(Destroy, "nvrtcDestroyProgram");
  }
};

class PtxFromNvrtc : public PtxKernelTest {
protected:
  void SetUp() override {
    PtxKernelTest::SetUp();
    if (!Compiler.load())
      GTEST_SKIP() << "NVIDIA's NVRTC (libnvrtc.so of the CUDA toolkit) is "
                      "not installed here: nothing to compile with.";
  }

  /// The PTX NVRTC makes of \p Source for compute_75 (what a program
  /// asking for the device's compute capability gets).
  std::string ptxOf(const char *Source) {
    std::string Log;
    std::string Text = Compiler.compile(Source, "compute_75", Log);
    EXPECT_FALSE(Text.empty()) << "NVRTC failed: " << Log;
    return Text;
  }

  Nvrtc Compiler;
};

TEST_F(PtxFromNvrtc, MathAndSharedMemoryReduction) {
  // Full-precision math (libdevice inlined into the PTX), a shared-memory
  // tree and a warp-shuffle finish.
  std::string Ptx = ptxOf(R"(
extern "C" __global__ void reduce(const float *in, float *out, int n) {
  __shared__ float part[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? expf(sinf(in[i])) + sqrtf(fabsf(in[i])) : 0.0f;
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s >= 32; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float w = part[threadIdx.x];
    for (int d = 16; d > 0; d >>= 1) w += __shfl_down_sync(0xffffffffu, w, d);
    if (threadIdx.x == 0) out[blockIdx.x] = w;
  }
}
)");
  ASSERT_FALSE(Ptx.empty());
  ASSERT_TRUE(loads(Ptx));
  const int N = 4 * 256;
  std::vector<float> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I % 97) * 0.37f - 12.0f;
  CUdeviceptr InP = upload(In), OutP = upload(std::vector<float>(4, 0.0f));
  int Count = N;
  ASSERT_EQ(CUDA_SUCCESS, run("reduce", 4, 256, {&InP, &OutP, &Count}));
  auto Out = download<float>(OutP, 4);
  for (int B = 0; B < 4; ++B) {
    double Expected = 0;
    for (int I = B * 256; I < (B + 1) * 256; ++I)
      Expected += std::exp(std::sin(In[I])) + std::sqrt(std::fabs(In[I]));
    EXPECT_NEAR(Expected, Out[B], 1e-4 * Expected) << "block " << B;
  }
}

TEST_F(PtxFromNvrtc, AtomicsAndIntegerMath) {
  std::string Ptx = ptxOf(R"(
extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = in[i];
    unsigned h = (__popc(v) + __clz(v | 1) + (v % 7u) + __brev(v) % 5u) % 16u;
    atomicAdd(&bins[h], 1u);
  }
}
)");
  ASSERT_FALSE(Ptx.empty());
  ASSERT_TRUE(loads(Ptx));
  const int N = 5000;
  std::vector<unsigned> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<unsigned>(I) * 2654435761u;
  CUdeviceptr InP = upload(In), BinsP = upload(std::vector<unsigned>(16, 0));
  int Count = N;
  ASSERT_EQ(CUDA_SUCCESS,
            run("histogram", (N + 127) / 128, 128, {&InP, &BinsP, &Count}));
  std::vector<unsigned> Expected(16, 0);
  for (unsigned V : In) {
    unsigned Clz = __builtin_clz(V | 1);
    unsigned Brev = 0;
    for (int B = 0; B < 32; ++B)
      Brev |= ((V >> B) & 1u) << (31 - B);
    ++Expected[(__builtin_popcount(V) + Clz + V % 7u + Brev % 5u) % 16u];
  }
  EXPECT_EQ(Expected, download<unsigned>(BinsP, 16));
}

} // namespace
