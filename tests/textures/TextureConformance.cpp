//===- TextureConformance.cpp - Texture fetches compared with an H200 -----===//
//
// Fetches through texture references (and texture objects) in every
// combination of array format, channel count, read mode, filter, address
// mode, coordinate normalization and dimension, at coordinates that include
// texel centres, exact texel edges, fractions and out-of-range values.
//
//   texture_conformance MODULE --record FILE   writes every result (a
//                                              "case" line, then the four
//                                              words of each fetch in hex)
//   texture_conformance MODULE --check FILE    compares with FILE
//   texture_conformance MODULE --weights FILE  measures the filter weights
//
// MODULE holds the fetch kernels: fetch.ptx (written by hand: nvcc no longer
// compiles texture references) on NVIDIA's driver, fetch.cubin (cucc) on
// cucpu. Only <cuda.h> is used, so the same program runs on both drivers.
// Pitched memory (references and objects) and linear memory read through
// objects are fetched too. A result is four 32-bit words, compared exactly.
//
//===----------------------------------------------------------------------===//
#include "FetchRecords.h"

#include <cuda.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace fetchrecords;

/// The extent of the array of each dimension count.
const size_t Extents[4][3] = {{0, 0, 0}, {7, 0, 0}, {5, 4, 0}, {4, 3, 3}};

/// The coordinates of a fetch test: axis lists, rotated per axis so that
/// the axes do not move together.
std::vector<std::array<float, 4>> coordinates(unsigned Dims, bool Normalized) {
  std::vector<std::array<float, 4>> Out;
  std::vector<float> Axes[3];
  for (unsigned D = 0; D < Dims; ++D)
    Axes[D] = axisCoordinates(Extents[Dims][D]);
  size_t Count = Axes[0].size();
  for (size_t I = 0; I < Count; ++I) {
    std::array<float, 4> C = {0, 0, 0, 0};
    for (unsigned D = 0; D < Dims; ++D) {
      float V = Axes[D][(I + 7 * D) % Count];
      C[D] = Normalized ? V / float(Extents[Dims][D]) : V;
    }
    Out.push_back(C);
  }
  return Out;
}

/// Kernels and texture references of the module.
struct Module {
  CUmodule Handle = nullptr;
  CUfunction Fetch[4][2] = {}; ///< [dims][integer result]
  CUtexref Ref[4][2] = {};
  CUfunction FetchIndex[2] = {};         ///< tex1Dfetch from linear memory.
  CUfunction FetchObject = nullptr;      ///< tex2D through a texture object.
  CUfunction FetchObjectIndex = nullptr; ///< tex1Dfetch through an object.
};

Module loadModule(const char *Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    std::fprintf(stderr, "cannot read %s\n", Path);
    std::exit(2);
  }
  std::string Image((std::istreambuf_iterator<char>(In)),
                    std::istreambuf_iterator<char>());
  Module M;
  CHECK(cuModuleLoadData(&M.Handle, Image.c_str()));
  for (unsigned D = 1; D <= 3; ++D)
    for (int I = 0; I < 2; ++I) {
      std::string Suffix = std::to_string(D) + (I ? "i" : "f");
      CHECK(cuModuleGetFunction(&M.Fetch[D][I], M.Handle,
                                ("fetch" + Suffix).c_str()));
      CHECK(cuModuleGetTexRef(&M.Ref[D][I], M.Handle, ("t" + Suffix).c_str()));
    }
  CHECK(cuModuleGetFunction(&M.FetchIndex[0], M.Handle, "fetchindexf"));
  CHECK(cuModuleGetFunction(&M.FetchIndex[1], M.Handle, "fetchindexi"));
  CHECK(cuModuleGetFunction(&M.FetchObject, M.Handle, "fetchobject"));
  CHECK(cuModuleGetFunction(&M.FetchObjectIndex, M.Handle, "fetchobjectindex"));
  return M;
}

/// Launches \p F over \p Coords (float4 each) with \p Extra after them.
Results launch(CUfunction F, const std::vector<std::array<float, 4>> &Coords,
               CUtexObject *Object = nullptr) {
  unsigned N = unsigned(Coords.size());
  CUdeviceptr In = 0, Out = 0;
  CHECK(cuMemAlloc(&In, N * 16));
  CHECK(cuMemAlloc(&Out, N * 16));
  CHECK(cuMemcpyHtoD(In, Coords.data(), N * 16));
  CHECK(cuMemsetD8(Out, 0xee, N * 16));
  std::vector<void *> Args = {&Out, &In, &N};
  if (Object)
    Args.push_back(Object);
  CHECK(cuLaunchKernel(F, 1, 1, 1, 64, 1, 1, 0, nullptr, Args.data(), nullptr));
  CHECK(cuCtxSynchronize());
  Results R(N);
  CHECK(cuMemcpyDtoH(R.data(), Out, N * 16));
  CHECK(cuMemFree(In));
  CHECK(cuMemFree(Out));
  return R;
}

/// One configuration's identity and results.
struct Case {
  std::string Id;
  bool Filtered = false;
  std::vector<std::array<float, 4>> Coords;
  Results Values;
};

std::vector<Case> runArrayCases(const Module &M) {
  std::vector<Case> Cases;
  uint32_t Seed = 1;
  for (const Format &F : Formats)
    for (unsigned Channels : {1u, 2u, 4u})
      for (unsigned Dims = 1; Dims <= 3; ++Dims) {
        const size_t *E = Extents[Dims];
        CUDA_ARRAY3D_DESCRIPTOR Desc{};
        Desc.Width = E[0];
        Desc.Height = E[1];
        Desc.Depth = E[2];
        Desc.Format = F.Code;
        Desc.NumChannels = Channels;
        CUarray A = nullptr;
        CHECK(cuArray3DCreate(&A, &Desc));
        size_t Count = E[0] * (E[1] ? E[1] : 1) * (E[2] ? E[2] : 1);
        std::vector<unsigned char> Data = texels(F, Count * Channels, Seed++);
        CUDA_MEMCPY3D Copy{};
        Copy.srcMemoryType = CU_MEMORYTYPE_HOST;
        Copy.srcHost = Data.data();
        Copy.srcPitch = E[0] * Channels * F.Bytes;
        Copy.srcHeight = E[1] ? E[1] : 1;
        Copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        Copy.dstArray = A;
        Copy.WidthInBytes = Copy.srcPitch;
        Copy.Height = Copy.srcHeight;
        Copy.Depth = E[2] ? E[2] : 1;
        CHECK(cuMemcpy3D(&Copy));
        CUtexref T = M.Ref[Dims][F.IntegerResult];
        CHECK(cuTexRefSetArray(T, A, CU_TRSA_OVERRIDE_FORMAT));
        for (int Filter = 0; Filter < (F.IntegerResult ? 1 : 2); ++Filter)
          for (int Mode = 0; Mode < 4; ++Mode)
            for (int Normalized = 0; Normalized < 2; ++Normalized) {
              Case C;
              C.Id = std::string(F.Name) + " ch" + std::to_string(Channels) +
                     " " + std::to_string(Dims) + "d " +
                     (Filter ? "linear" : "point") + " " + AddressNames[Mode] +
                     (Normalized ? " normalized" : " unnormalized");
              C.Filtered = Filter;
              C.Coords = coordinates(Dims, Normalized);
              for (int D = 0; D < 3; ++D)
                CHECK(cuTexRefSetAddressMode(T, D, CUaddress_mode(Mode)));
              CHECK(cuTexRefSetFilterMode(T, CUfilter_mode(Filter)));
              unsigned Flags =
                  (F.ReadAsInteger ? CU_TRSF_READ_AS_INTEGER : 0) |
                  (Normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0);
              CHECK(cuTexRefSetFlags(T, Flags));
              float Border[4] = {0.25f, -0.5f, 0.75f, 1.0f};
              CHECK(cuTexRefSetBorderColor(T, Border));
              C.Values = launch(M.Fetch[Dims][F.IntegerResult], C.Coords);
              Cases.push_back(C);

              // The same fetch through a texture object (2D float results).
              if (Dims != 2 || F.IntegerResult)
                continue;
              CUDA_RESOURCE_DESC Res{};
              Res.resType = CU_RESOURCE_TYPE_ARRAY;
              Res.res.array.hArray = A;
              CUDA_TEXTURE_DESC Tex{};
              for (int D = 0; D < 3; ++D)
                Tex.addressMode[D] = CUaddress_mode(Mode);
              Tex.filterMode = CUfilter_mode(Filter);
              Tex.flags = Flags;
              std::memcpy(Tex.borderColor, Border, sizeof(Border));
              CUtexObject Obj = 0;
              CHECK(cuTexObjectCreate(&Obj, &Res, &Tex, nullptr));
              Case O = C;
              O.Id += " object";
              O.Values = launch(M.FetchObject, O.Coords, &Obj);
              CHECK(cuTexObjectDestroy(Obj));
              Cases.push_back(O);
            }
        CHECK(cuArrayDestroy(A));
      }
  return Cases;
}

/// tex1Dfetch from linear memory: integer coordinates, no filtering.
std::vector<Case> runLinearCases(const Module &M) {
  std::vector<Case> Cases;
  uint32_t Seed = 1000;
  for (const Format &F : Formats)
    for (unsigned Channels : {1u, 2u, 4u}) {
      const size_t Count = 9;
      std::vector<unsigned char> Data = texels(F, Count * Channels, Seed++);
      CUdeviceptr P = 0;
      CHECK(cuMemAlloc(&P, 4096));
      CHECK(cuMemsetD8(P, 0x5a, 4096));
      CHECK(cuMemcpyHtoD(P, Data.data(), Data.size()));
      CUtexref T = M.Ref[1][F.IntegerResult];
      CHECK(cuTexRefSetFormat(T, F.Code, int(Channels)));
      size_t Offset = 1;
      CHECK(cuTexRefSetAddress(&Offset, T, P, Data.size()));
      if (Offset != 0) {
        std::fprintf(stderr, "cuTexRefSetAddress: offset %zu for cuMemAlloc\n",
                     Offset);
        std::exit(2);
      }
      CHECK(cuTexRefSetFlags(T, F.ReadAsInteger ? CU_TRSF_READ_AS_INTEGER : 0));
      Case C;
      C.Id = std::string(F.Name) + " ch" + std::to_string(Channels) +
             " linear-memory tex1Dfetch";
      for (int X : {0, 1, 4, 8, -1, -7, 9, 10, 1000})
        C.Coords.push_back({float(X), 0, 0, 0});
      C.Values = launch(M.FetchIndex[F.IntegerResult], C.Coords);
      Cases.push_back(C);
      CHECK(cuMemFree(P));
    }
  return Cases;
}

/// Pitched linear memory (cuTexRefSetAddress2D and PITCH2D texture
/// objects) and linear memory through texture objects.
std::vector<Case> runPitchedCases(const Module &M) {
  std::vector<Case> Cases;
  uint32_t Seed = 2000;
  const size_t Width = 5, Height = 4, Pitch = 128;
  for (const Format &F : Formats)
    for (unsigned Channels : {1u, 2u, 4u}) {
      size_t Row = Width * Channels * F.Bytes;
      std::vector<unsigned char> Data =
          texels(F, Width * Height * Channels, Seed++);
      CUdeviceptr P = 0;
      CHECK(cuMemAlloc(&P, Pitch * Height));
      CHECK(cuMemsetD8(P, 0x5a, Pitch * Height));
      CUDA_MEMCPY2D Copy{};
      Copy.srcMemoryType = CU_MEMORYTYPE_HOST;
      Copy.srcHost = Data.data();
      Copy.srcPitch = Row;
      Copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
      Copy.dstDevice = P;
      Copy.dstPitch = Pitch;
      Copy.WidthInBytes = Row;
      Copy.Height = Height;
      CHECK(cuMemcpy2D(&Copy));
      CUtexref T = M.Ref[2][F.IntegerResult];
      CUDA_ARRAY_DESCRIPTOR Desc{};
      Desc.Width = Width;
      Desc.Height = Height;
      Desc.Format = F.Code;
      Desc.NumChannels = Channels;
      CHECK(cuTexRefSetAddress2D(T, &Desc, P, Pitch));
      for (int Filter = 0; Filter < (F.IntegerResult ? 1 : 2); ++Filter)
        for (int Mode : {0, 1, 3})
          for (int Normalized = 0; Normalized < 2; ++Normalized) {
            Case C;
            C.Id = std::string(F.Name) + " ch" + std::to_string(Channels) +
                   " pitch2d " + (Filter ? "linear" : "point") + " " +
                   AddressNames[Mode] +
                   (Normalized ? " normalized" : " unnormalized");
            C.Filtered = Filter;
            C.Coords = coordinates(2, Normalized);
            for (int D = 0; D < 3; ++D)
              CHECK(cuTexRefSetAddressMode(T, D, CUaddress_mode(Mode)));
            CHECK(cuTexRefSetFilterMode(T, CUfilter_mode(Filter)));
            unsigned Flags = (F.ReadAsInteger ? CU_TRSF_READ_AS_INTEGER : 0) |
                             (Normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0);
            CHECK(cuTexRefSetFlags(T, Flags));
            float Border[4] = {0.25f, -0.5f, 0.75f, 1.0f};
            CHECK(cuTexRefSetBorderColor(T, Border));
            C.Values = launch(M.Fetch[2][F.IntegerResult], C.Coords);
            Cases.push_back(C);
            if (F.IntegerResult)
              continue;
            CUDA_RESOURCE_DESC Res{};
            Res.resType = CU_RESOURCE_TYPE_PITCH2D;
            Res.res.pitch2D.devPtr = P;
            Res.res.pitch2D.format = F.Code;
            Res.res.pitch2D.numChannels = Channels;
            Res.res.pitch2D.width = Width;
            Res.res.pitch2D.height = Height;
            Res.res.pitch2D.pitchInBytes = Pitch;
            CUDA_TEXTURE_DESC Tex{};
            for (int D = 0; D < 3; ++D)
              Tex.addressMode[D] = CUaddress_mode(Mode);
            Tex.filterMode = CUfilter_mode(Filter);
            Tex.flags = Flags;
            std::memcpy(Tex.borderColor, Border, sizeof(Border));
            CUtexObject Obj = 0;
            CHECK(cuTexObjectCreate(&Obj, &Res, &Tex, nullptr));
            Case O = C;
            O.Id += " object";
            O.Values = launch(M.FetchObject, O.Coords, &Obj);
            CHECK(cuTexObjectDestroy(Obj));
            Cases.push_back(O);
          }
      if (!F.IntegerResult) {
        // The same memory as a linear texture object read by tex1Dfetch.
        CUDA_RESOURCE_DESC Res{};
        Res.resType = CU_RESOURCE_TYPE_LINEAR;
        Res.res.linear.devPtr = P;
        Res.res.linear.format = F.Code;
        Res.res.linear.numChannels = Channels;
        Res.res.linear.sizeInBytes = Row;
        CUDA_TEXTURE_DESC Tex{};
        CUtexObject Obj = 0;
        CHECK(cuTexObjectCreate(&Obj, &Res, &Tex, nullptr));
        Case C;
        C.Id = std::string(F.Name) + " ch" + std::to_string(Channels) +
               " linear-memory object tex1Dfetch";
        for (int X : {0, 1, 4, 5, -1, 40})
          C.Coords.push_back({float(X), 0, 0, 0});
        C.Values = launch(M.FetchObjectIndex, C.Coords, &Obj);
        CHECK(cuTexObjectDestroy(Obj));
        Cases.push_back(C);
      }
      CHECK(cuMemFree(P));
    }
  return Cases;
}

void record(const std::vector<Case> &Cases, const char *Path) {
  std::ofstream Out(Path);
  for (const Case &C : Cases)
    writeCase(Out, C.Id, C.Values);
  std::printf("recorded %zu cases in %s\n", Cases.size(), Path);
}

int check(const std::vector<Case> &Cases, const char *Path) {
  std::optional<std::map<std::string, Results>> Records = readRecords(Path);
  if (!Records)
    return 2;
  const std::map<std::string, Results> &Expected = *Records;
  size_t Exact = 0, Wrong = 0, Missing = 0, Shown = 0;
  for (const Case &C : Cases) {
    auto It = Expected.find(C.Id);
    if (It == Expected.end() || It->second.size() != C.Values.size()) {
      ++Missing;
      std::printf("MISSING %s\n", C.Id.c_str());
      continue;
    }
    for (size_t I = 0; I < C.Values.size(); ++I) {
      const auto &Got = C.Values[I], &Want = It->second[I];
      if (Got == Want) {
        ++Exact;
        continue;
      }
      ++Wrong;
      if (Shown++ < 40)
        std::printf("MISMATCH %s at (%a, %a, %a): got %08x %08x %08x %08x, "
                    "H200 %08x %08x %08x %08x\n",
                    C.Id.c_str(), C.Coords[I][0], C.Coords[I][1],
                    C.Coords[I][2], Got[0], Got[1], Got[2], Got[3], Want[0],
                    Want[1], Want[2], Want[3]);
    }
  }
  std::printf("%zu cases, %zu fetches: %zu identical, %zu different, %zu "
              "cases missing\n",
              Cases.size(), Exact + Wrong, Exact, Wrong, Missing);
  return Wrong || Missing ? 1 : 0;
}

/// Measures the hardware's filter weights: a 2x2x2 float texture whose
/// texels are one-hot in their channels is fetched at 0.5 + (A, B, C) / 256,
/// so each result channel is the weight of one texel. Writes "A B C" and the
/// eight weights (in 1/256) per line, for every 2D pair (C = 0) and for
/// pseudo-random 3D triples.
void measureWeights(const Module &M, const char *Path) {
  CUDA_ARRAY3D_DESCRIPTOR Desc{};
  Desc.Width = Desc.Height = Desc.Depth = 2;
  Desc.Format = CU_AD_FORMAT_FLOAT;
  Desc.NumChannels = 4;
  CUarray Arrays[2];
  for (int Half = 0; Half < 2; ++Half) {
    float Texels[8][4] = {};
    for (int T = 0; T < 4; ++T)
      Texels[Half * 4 + T][T] = 1.0f;
    CHECK(cuArray3DCreate(&Arrays[Half], &Desc));
    CUDA_MEMCPY3D Copy{};
    Copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    Copy.srcHost = Texels;
    Copy.srcPitch = 32;
    Copy.srcHeight = 2;
    Copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    Copy.dstArray = Arrays[Half];
    Copy.WidthInBytes = 32;
    Copy.Height = 2;
    Copy.Depth = 2;
    CHECK(cuMemcpy3D(&Copy));
  }
  std::vector<std::array<float, 4>> Coords;
  std::vector<std::array<int, 3>> Fractions;
  for (int A = 0; A < 256; ++A)
    for (int B = 0; B < 256; ++B)
      Fractions.push_back({A, B, 0});
  uint32_t State = 7;
  for (int I = 0; I < 200000; ++I) {
    std::array<int, 3> F;
    for (int &V : F) {
      State = State * 1664525u + 1013904223u;
      V = int(State >> 24);
    }
    Fractions.push_back(F);
  }
  for (const auto &F : Fractions)
    Coords.push_back(
        {0.5f + F[0] / 256.0f, 0.5f + F[1] / 256.0f, 0.5f + F[2] / 256.0f, 0});
  CUtexref T = M.Ref[3][0];
  for (int D = 0; D < 3; ++D)
    CHECK(cuTexRefSetAddressMode(T, D, CU_TR_ADDRESS_MODE_CLAMP));
  CHECK(cuTexRefSetFilterMode(T, CU_TR_FILTER_MODE_LINEAR));
  CHECK(cuTexRefSetFlags(T, 0));
  Results Halves[2];
  for (int Half = 0; Half < 2; ++Half) {
    CHECK(cuTexRefSetArray(T, Arrays[Half], CU_TRSA_OVERRIDE_FORMAT));
    unsigned N = unsigned(Coords.size());
    CUdeviceptr In = 0, Out = 0;
    CHECK(cuMemAlloc(&In, size_t(N) * 16));
    CHECK(cuMemAlloc(&Out, size_t(N) * 16));
    CHECK(cuMemcpyHtoD(In, Coords.data(), size_t(N) * 16));
    void *Args[] = {&Out, &In, &N};
    CHECK(cuLaunchKernel(M.Fetch[3][0], (N + 63) / 64, 1, 1, 64, 1, 1, 0,
                         nullptr, Args, nullptr));
    CHECK(cuCtxSynchronize());
    Halves[Half].resize(N);
    CHECK(cuMemcpyDtoH(Halves[Half].data(), Out, size_t(N) * 16));
    CHECK(cuMemFree(In));
    CHECK(cuMemFree(Out));
  }
  std::ofstream Out(Path);
  for (size_t I = 0; I < Fractions.size(); ++I) {
    Out << Fractions[I][0] << ' ' << Fractions[I][1] << ' ' << Fractions[I][2];
    for (int Half = 0; Half < 2; ++Half)
      for (int K = 0; K < 4; ++K) {
        float W;
        std::memcpy(&W, &Halves[Half][I][K], 4);
        Out << ' ' << W * 256.0f;
      }
    Out << '\n';
  }
  for (CUarray A : Arrays)
    CHECK(cuArrayDestroy(A));
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4 || (std::strcmp(argv[2], "--record") != 0 &&
                    std::strcmp(argv[2], "--check") != 0 &&
                    std::strcmp(argv[2], "--weights") != 0)) {
    std::fprintf(stderr,
                 "usage: %s MODULE --record FILE | --check FILE | --weights "
                 "FILE\n",
                 argv[0]);
    return 2;
  }
  CHECK(cuInit(0));
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CHECK(cuCtxSetCurrent(Ctx));
  Module M = loadModule(argv[1]);
  if (std::strcmp(argv[2], "--weights") == 0) {
    measureWeights(M, argv[3]);
    CHECK(cuModuleUnload(M.Handle));
    CHECK(cuDevicePrimaryCtxRelease(Dev));
    return 0;
  }
  std::vector<Case> Cases = runArrayCases(M);
  std::vector<Case> Linear = runLinearCases(M);
  Cases.insert(Cases.end(), Linear.begin(), Linear.end());
  std::vector<Case> Pitched = runPitchedCases(M);
  Cases.insert(Cases.end(), Pitched.begin(), Pitched.end());
  int Rc = 0;
  if (std::strcmp(argv[2], "--record") == 0)
    record(Cases, argv[3]);
  else
    Rc = check(Cases, argv[3]);
  CHECK(cuModuleUnload(M.Handle));
  CHECK(cuDevicePrimaryCtxRelease(Dev));
  return Rc;
}
