//===- diffrun.cpp - Runs one generated kernel and digests its outputs ----===//
//
// Uses only <cuda.h> and the C++ standard library, so that it also builds
// against NVIDIA's driver (g++ -std=c++17 -I<toolkit>/include diffrun.cpp
// -lcuda). Command line (tools/kernelgen/campaign.py passes the launch of a
// kernel's .json sidecar):
//
//   diffrun CUBIN GX,GY,GZ BX,BY,BZ N_IN N_OUT N_FOUT [--dump FILE]
//
// launches `k(const int *in, int *out, float *fout, unsigned n)` with
// in[i] = hash(i) (N_IN elements, n = N_IN) and out, fout zeroed, then prints
// one line: `ok <digest of out> <digest of fout>` (FNV-1a, 64-bit, of the
// bytes), or `error <CUresult name> in <call>` when a call fails. --dump
// writes every element of out and fout to FILE.
//
// Exit status: 0 for `ok`, 1 for `error`, 2 for a bad command line.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// The launch and buffer sizes read from the command line.
struct Launch {
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {1, 1, 1};
  size_t NIn = 0, NOut = 0, NFout = 0;
  const char *Cubin = nullptr;
  const char *DumpPath = nullptr;
};

/// Parses "X,Y,Z" (Y and Z may be left out) into Dims.
bool parseDims(const char *Text, unsigned Dims[3]) {
  char *End = nullptr;
  for (int I = 0; I < 3; ++I) {
    unsigned long V = std::strtoul(Text, &End, 10);
    if (End == Text || V == 0)
      return false;
    Dims[I] = static_cast<unsigned>(V);
    if (*End == '\0')
      return true;
    if (*End != ',')
      return false;
    Text = End + 1;
  }
  return *End == '\0';
}

/// Parses a positive element count.
bool parseCount(const char *Text, size_t &Out) {
  char *End = nullptr;
  unsigned long long V = std::strtoull(Text, &End, 10);
  Out = static_cast<size_t>(V);
  return End != Text && *End == '\0' && V > 0;
}

/// Parses the command line; false on a malformed one.
bool parseArgs(int Argc, char **Argv, Launch &L) {
  std::vector<const char *> Pos;
  for (int I = 1; I < Argc; ++I) {
    if (std::strcmp(Argv[I], "--dump") == 0 && I + 1 < Argc)
      L.DumpPath = Argv[++I];
    else
      Pos.push_back(Argv[I]);
  }
  if (Pos.size() != 6)
    return false;
  L.Cubin = Pos[0];
  return parseDims(Pos[1], L.Grid) && parseDims(Pos[2], L.Block) &&
         parseCount(Pos[3], L.NIn) && parseCount(Pos[4], L.NOut) &&
         parseCount(Pos[5], L.NFout);
}

/// The input element I: a hash of I (murmur3's finalizer), so that the
/// kernels' data-dependent branches go both ways.
int inputValue(uint32_t I) {
  uint32_t X = I * 0x9e3779b1u + 0x7f4a7c15u;
  X ^= X >> 16;
  X *= 0x85ebca6bu;
  X ^= X >> 13;
  X *= 0xc2b2ae35u;
  X ^= X >> 16;
  return static_cast<int>(X);
}

/// FNV-1a over the bytes of a buffer.
uint64_t digest(const void *Data, size_t Bytes) {
  uint64_t H = 0xcbf29ce484222325ull;
  const auto *P = static_cast<const unsigned char *>(Data);
  for (size_t I = 0; I < Bytes; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}

/// Writes both output buffers, one element a line, as integers (the bits
/// of the floats too, so that a dump compares exactly).
bool dump(const char *Path, const std::vector<int> &Out,
          const std::vector<float> &Fout) {
  FILE *F = std::fopen(Path, "w");
  if (!F)
    return false;
  for (size_t I = 0; I < Out.size(); ++I)
    std::fprintf(F, "out[%zu] = %d\n", I, Out[I]);
  for (size_t I = 0; I < Fout.size(); ++I) {
    uint32_t Bits;
    std::memcpy(&Bits, &Fout[I], sizeof Bits);
    std::fprintf(F, "fout[%zu] = %.9g (0x%08x)\n", I,
                 static_cast<double>(Fout[I]), Bits);
  }
  return std::fclose(F) == 0;
}

/// Prints the failure of Call and returns the exit status for it.
int fail(CUresult R, const char *Call) {
  const char *Name = nullptr;
  if (cuGetErrorName(R, &Name) != CUDA_SUCCESS || !Name)
    Name = "unknown CUresult";
  std::printf("error %s in %s\n", Name, Call);
  return 1;
}

/// Runs one call of the driver API; on failure, leaves run() with its name.
#define CHECK(Call)                                                            \
  do {                                                                         \
    CUresult R_ = (Call);                                                      \
    if (R_ != CUDA_SUCCESS)                                                    \
      return fail(R_, #Call);                                                  \
  } while (0)

/// Loads the kernel, launches it once and prints the digest line.
int run(const Launch &L) {
  CHECK(cuInit(0));
  CUdevice Dev;
  CHECK(cuDeviceGet(&Dev, 0));
  // The primary context: cuCtxCreate's signature differs between versions
  // of cuda.h.
  CUcontext Ctx;
  CHECK(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CHECK(cuCtxSetCurrent(Ctx));
  CUmodule Mod;
  CHECK(cuModuleLoad(&Mod, L.Cubin));
  CUfunction Fn;
  CHECK(cuModuleGetFunction(&Fn, Mod, "k"));

  std::vector<int> In(L.NIn);
  for (size_t I = 0; I < L.NIn; ++I)
    In[I] = inputValue(static_cast<uint32_t>(I));
  CUdeviceptr DIn, DOut, DFout;
  CHECK(cuMemAlloc(&DIn, L.NIn * sizeof(int)));
  CHECK(cuMemAlloc(&DOut, L.NOut * sizeof(int)));
  CHECK(cuMemAlloc(&DFout, L.NFout * sizeof(float)));
  CHECK(cuMemcpyHtoD(DIn, In.data(), L.NIn * sizeof(int)));
  CHECK(cuMemsetD32(DOut, 0, L.NOut));
  CHECK(cuMemsetD32(DFout, 0, L.NFout));

  unsigned N = static_cast<unsigned>(L.NIn);
  void *Params[] = {&DIn, &DOut, &DFout, &N};
  CHECK(cuLaunchKernel(Fn, L.Grid[0], L.Grid[1], L.Grid[2], L.Block[0],
                       L.Block[1], L.Block[2], 0, nullptr, Params, nullptr));
  CHECK(cuCtxSynchronize());

  std::vector<int> Out(L.NOut);
  std::vector<float> Fout(L.NFout);
  CHECK(cuMemcpyDtoH(Out.data(), DOut, L.NOut * sizeof(int)));
  CHECK(cuMemcpyDtoH(Fout.data(), DFout, L.NFout * sizeof(float)));
  std::printf("ok %016llx %016llx\n",
              static_cast<unsigned long long>(
                  digest(Out.data(), Out.size() * sizeof(int))),
              static_cast<unsigned long long>(
                  digest(Fout.data(), Fout.size() * sizeof(float))));
  if (L.DumpPath && !dump(L.DumpPath, Out, Fout)) {
    std::fprintf(stderr, "diffrun: cannot write %s\n", L.DumpPath);
    return 2;
  }
  CHECK(cuMemFree(DIn));
  CHECK(cuMemFree(DOut));
  CHECK(cuMemFree(DFout));
  CHECK(cuModuleUnload(Mod));
  CHECK(cuDevicePrimaryCtxRelease(Dev));
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Launch L;
  if (!parseArgs(Argc, Argv, L)) {
    std::fprintf(stderr, "usage: diffrun CUBIN GX,GY,GZ BX,BY,BZ N_IN N_OUT "
                         "N_FOUT [--dump FILE]\n");
    return 2;
  }
  int Status = run(L);
  std::fflush(stdout);
  return Status;
}
