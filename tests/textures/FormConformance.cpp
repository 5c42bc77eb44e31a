//===- FormConformance.cpp - Texture fetch forms compared with an H200 ----===//
//
// The fetch forms beyond tex1D/2D/3D, through texture objects: layered
// (tex1DLayered, tex2DLayered), cubemap (texCubemap, texCubemapLayered),
// gather (tex2Dgather), mipmapped arrays read by level (tex*Lod) and by
// gradients (tex*Grad), and sRGB conversion.
//
//   texture_forms MODULE GROUP --record FILE   writes every result
//   texture_forms MODULE GROUP --check FILE    compares with FILE
//
// GROUP is layered, cubemap, gather, mipmap, srgb or all. MODULE holds the
// kernels of forms.cu: built by nvcc for NVIDIA's driver, by cucc for cucpu.
// Only <cuda.h> is used, so the same program runs on both drivers. A result
// is four 32-bit words, compared exactly.
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
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace fetchrecords;

const Format &format(const char *Name) {
  for (const Format &F : Formats)
    if (std::strcmp(F.Name, Name) == 0)
      return F;
  std::fprintf(stderr, "no format %s\n", Name);
  std::exit(2);
}

const float Border[4] = {0.25f, -0.5f, 0.75f, 1.0f};

/// The inputs of one fetch: (x, y, z, level), (dPdx, layer),
/// (dPdy, component), as forms.cu reads them.
struct Fetch {
  float V[12] = {};
  float &x() { return V[0]; }
  float &y() { return V[1]; }
  float &z() { return V[2]; }
  float &level() { return V[3]; }
  float *dPdx() { return V + 4; }
  float &layer() { return V[7]; }
  float *dPdy() { return V + 8; }
  float &component() { return V[11]; }
};

/// One configuration's identity, inputs and results.
struct Case {
  std::string Id;
  std::vector<Fetch> Fetches;
  Results Values;
};

/// Float texels that name their own position: layer · 1000 + face · 100 +
/// y · 10 + x (face 0 for arrays that are no cubemaps).
std::vector<unsigned char> positionTexels(size_t Width, size_t Height,
                                          size_t Slices) {
  std::vector<unsigned char> Out(Width * Height * Slices * 4);
  size_t I = 0;
  for (size_t S = 0; S < Slices; ++S)
    for (size_t Y = 0; Y < Height; ++Y)
      for (size_t X = 0; X < Width; ++X, ++I) {
        float V = float((S / 6) * 1000 + (S % 6) * 100 + Y * 10 + X);
        std::memcpy(Out.data() + I * 4, &V, 4);
      }
  return Out;
}

/// Copies \p Data (packed rows) into array \p A of \p Width x \p Height x
/// \p Slices elements of \p ElementBytes.
void fill(CUarray A, const std::vector<unsigned char> &Data, size_t Width,
          size_t Height, size_t Slices, size_t ElementBytes) {
  CUDA_MEMCPY3D Copy{};
  Copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  Copy.srcHost = Data.data();
  Copy.srcPitch = Width * ElementBytes;
  Copy.srcHeight = Height;
  Copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  Copy.dstArray = A;
  Copy.WidthInBytes = Copy.srcPitch;
  Copy.Height = Height;
  Copy.Depth = Slices;
  CHECK(cuMemcpy3D(&Copy));
}

/// An array of \p Desc filled with \p Data, which holds every element.
CUarray makeArray(const CUDA_ARRAY3D_DESCRIPTOR &Desc,
                  const std::vector<unsigned char> &Data) {
  CUarray A = nullptr;
  CHECK(cuArray3DCreate(&A, &Desc));
  size_t Rows = Desc.Height ? Desc.Height : 1;
  size_t Slices = Desc.Depth ? Desc.Depth : 1;
  fill(A, Data, Desc.Width, Rows, Slices,
       Data.size() / (Desc.Width * Rows * Slices));
  return A;
}

/// How a texture object reads.
struct Sampling {
  const Format *F = nullptr;
  int Filter = 0;
  int Address = 1;
  bool Normalized = false;
  bool Srgb = false;
  int MipmapFilter = 0;
  float LevelBias = 0, MinLevel = 0, MaxLevel = 0;
  unsigned MaxAnisotropy = 0;

  std::string name() const {
    std::string N = std::string(Filter ? "linear" : "point") + " " +
                    AddressNames[Address] +
                    (Normalized ? " normalized" : " unnormalized");
    if (Srgb)
      N += " srgb";
    return N;
  }

  CUDA_TEXTURE_DESC desc() const {
    CUDA_TEXTURE_DESC Tex{};
    for (int D = 0; D < 3; ++D)
      Tex.addressMode[D] = CUaddress_mode(Address);
    Tex.filterMode = CUfilter_mode(Filter);
    Tex.flags = (F->ReadAsInteger ? CU_TRSF_READ_AS_INTEGER : 0) |
                (Normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
                (Srgb ? CU_TRSF_SRGB : 0);
    std::memcpy(Tex.borderColor, Border, sizeof(Border));
    Tex.mipmapFilterMode = CUfilter_mode(MipmapFilter);
    Tex.mipmapLevelBias = LevelBias;
    Tex.minMipmapLevelClamp = MinLevel;
    Tex.maxMipmapLevelClamp = MaxLevel;
    Tex.maxAnisotropy = MaxAnisotropy;
    return Tex;
  }
};

/// Every filter (linear only for float results), address mode and
/// coordinate normalization of format \p F, in the order the record files
/// hold them.
std::vector<Sampling> everySampling(const Format &F) {
  std::vector<Sampling> All;
  for (int Filter = 0; Filter < (F.IntegerResult ? 1 : 2); ++Filter)
    for (int Mode = 0; Mode < 4; ++Mode)
      for (int Normalized = 0; Normalized < 2; ++Normalized) {
        Sampling S;
        S.F = &F;
        S.Filter = Filter;
        S.Address = Mode;
        S.Normalized = Normalized;
        All.push_back(S);
      }
  return All;
}

class Harness {
public:
  explicit Harness(const char *Path) {
    std::ifstream In(Path, std::ios::binary);
    if (!In) {
      std::fprintf(stderr, "cannot read %s\n", Path);
      std::exit(2);
    }
    std::string Image((std::istreambuf_iterator<char>(In)),
                      std::istreambuf_iterator<char>());
    CHECK(cuModuleLoadData(&Module, Image.c_str()));
  }
  ~Harness() { cuModuleUnload(Module); }

  /// Runs kernel \p Form (with the f or i suffix \p F asks for) over \p C's
  /// fetches through \p Object and stores the results in \p C, which is
  /// then added to the list.
  void run(const char *Form, const Format &F, CUtexObject Object, Case C) {
    std::string Name = std::string(Form) + (F.IntegerResult ? "i" : "f");
    CUfunction Fn = nullptr;
    CHECK(cuModuleGetFunction(&Fn, Module, Name.c_str()));
    unsigned N = unsigned(C.Fetches.size());
    CUdeviceptr In = 0, Out = 0;
    CHECK(cuMemAlloc(&In, size_t(N) * sizeof(Fetch)));
    CHECK(cuMemAlloc(&Out, size_t(N) * 16));
    CHECK(cuMemcpyHtoD(In, C.Fetches.data(), size_t(N) * sizeof(Fetch)));
    CHECK(cuMemsetD8(Out, 0xee, size_t(N) * 16));
    void *Args[] = {&Out, &In, &N, &Object};
    CHECK(cuLaunchKernel(Fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, Args,
                         nullptr));
    CHECK(cuCtxSynchronize());
    C.Values.resize(N);
    CHECK(cuMemcpyDtoH(C.Values.data(), Out, size_t(N) * 16));
    CHECK(cuMemFree(In));
    CHECK(cuMemFree(Out));
    Cases.push_back(std::move(C));
  }

  /// An object over array \p A read as \p S says; run \p Form with it.
  void runArray(const char *Form, CUarray A, const Sampling &S, Case C) {
    CUDA_RESOURCE_DESC Res{};
    Res.resType = CU_RESOURCE_TYPE_ARRAY;
    Res.res.array.hArray = A;
    CUDA_TEXTURE_DESC Tex = S.desc();
    CUtexObject Obj = 0;
    CHECK(cuTexObjectCreate(&Obj, &Res, &Tex, nullptr));
    run(Form, *S.F, Obj, std::move(C));
    CHECK(cuTexObjectDestroy(Obj));
  }

  void runMipmapped(const char *Form, CUmipmappedArray A, const Sampling &S,
                    Case C) {
    CUDA_RESOURCE_DESC Res{};
    Res.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    Res.res.mipmap.hMipmappedArray = A;
    CUDA_TEXTURE_DESC Tex = S.desc();
    CUtexObject Obj = 0;
    CHECK(cuTexObjectCreate(&Obj, &Res, &Tex, nullptr));
    run(Form, *S.F, Obj, std::move(C));
    CHECK(cuTexObjectDestroy(Obj));
  }

  std::vector<Case> Cases;

private:
  CUmodule Module = nullptr;
};

/// Fetches over a Width x Height texture: the axis coordinates, rotated
/// per axis, each with a layer from \p Layers (rotated too).
std::vector<Fetch> planeFetches(size_t Width, size_t Height, bool Normalized,
                                const std::vector<int> &Layers) {
  std::vector<float> Xs = axisCoordinates(Width), Ys = axisCoordinates(Height);
  std::vector<Fetch> Out;
  for (size_t I = 0; I < Xs.size(); ++I) {
    Fetch F;
    F.x() = Xs[I];
    F.y() = Ys[(I + 7) % Ys.size()];
    if (Normalized) {
      F.x() /= float(Width);
      F.y() /= float(Height);
    }
    F.layer() = float(Layers[I % Layers.size()]);
    Out.push_back(F);
  }
  return Out;
}

std::string caseName(const char *Group, const Format &F, unsigned Channels,
                     const std::string &Rest) {
  return std::string(Group) + " " + F.Name + " ch" + std::to_string(Channels) +
         " " + Rest;
}

// --- Layered -----------------------------------------------------------

void runLayered(Harness &H) {
  const char *Names[] = {"u8n", "s8n", "u16i", "s16n", "f16", "f32", "u32i"};
  const std::vector<int> Layers = {0, 1, 2, -1, 3, 7, -5, 100000};
  uint32_t Seed = 100;
  for (const char *Name : Names)
    for (unsigned Channels : {1u, 4u})
      for (int Dims = 1; Dims <= 2; ++Dims) {
        const Format &F = format(Name);
        CUDA_ARRAY3D_DESCRIPTOR Desc{};
        Desc.Width = Dims == 1 ? 7 : 5;
        Desc.Height = Dims == 1 ? 0 : 4;
        Desc.Depth = 3;
        Desc.Format = F.Code;
        Desc.NumChannels = Channels;
        Desc.Flags = CUDA_ARRAY3D_LAYERED;
        size_t Rows = Desc.Height ? Desc.Height : 1;
        CUarray A = makeArray(
            Desc, texels(F, Desc.Width * Rows * 3 * Channels, Seed++));
        for (const Sampling &S : everySampling(F)) {
          Case C;
          C.Id = caseName("layered", F, Channels,
                          (Dims == 1 ? "1d " : "2d ") + S.name());
          C.Fetches = planeFetches(Desc.Width, Rows, S.Normalized, Layers);
          H.runArray(Dims == 1 ? "layered1" : "layered2", A, S, C);
        }
        CHECK(cuArrayDestroy(A));
      }
}

// --- Cubemaps ----------------------------------------------------------

/// Directions that reach every face: the axes, texel centres and edges of
/// each face, ties between the major axes, random directions, and
/// non-finite and zero vectors.
std::vector<Fetch> cubemapFetches(size_t Width) {
  std::vector<std::array<float, 3>> Dirs;
  for (int Axis = 0; Axis < 3; ++Axis)
    for (float Sign : {1.0f, -1.0f})
      for (float Scale : {1.0f, 3.7f}) {
        std::array<float, 3> D = {0, 0, 0};
        D[Axis] = Sign * Scale;
        Dirs.push_back(D);
      }
  // Face positions: texel centres, edges and fractions, on each face.
  const float W = float(Width);
  const float Positions[] = {0.5f, 1.0f, 1.25f, W - 0.5f, 0.0f,
                             W,    0.1f, 2.7f,  W - 0.02f};
  int I = 0;
  for (int Axis = 0; Axis < 3; ++Axis)
    for (float Sign : {1.0f, -1.0f})
      for (float U : Positions) {
        float V = Positions[(I++ * 5 + 3) % 9];
        float S = 2 * U / W - 1, T = 2 * V / W - 1;
        std::array<float, 3> D = {0, 0, 0};
        D[Axis] = Sign * 2.0f;
        D[(Axis + 1) % 3] = S * 2.0f;
        D[(Axis + 2) % 3] = T * 2.0f;
        Dirs.push_back(D);
      }
  const std::array<float, 3> Specials[] = {
      {1, 1, 0.5f},      {1, -1, 0.5f},       {-1, 1, -0.25f},
      {0.5f, 1, 1},      {1, 0.5f, -1},       {1, 1, 1},
      {-1, -1, -1},      {1, 0.999f, 0.3f},   {0.999f, 1, 0.3f},
      {2, -2, 2},        {0, 0, 0},           {-0.0f, 0, 0},
      {0, -0.0f, 0},     {1e-30f, 0, 0},      {1e30f, 2e30f, -1e30f},
      {NAN, 1, 0},       {INFINITY, 1, 0},    {1, INFINITY, -INFINITY},
      {0.75f, 0.75f, 0}, {-0.3f, 0.9f, -0.9f}};
  for (const auto &D : Specials)
    Dirs.push_back(D);
  uint32_t State = 99;
  for (int K = 0; K < 24; ++K) {
    std::array<float, 3> D;
    for (float &V : D) {
      State = State * 1664525u + 1013904223u;
      V = float(int(State >> 16) - 32768) / 16384.0f;
    }
    Dirs.push_back(D);
  }
  std::vector<Fetch> Out;
  const int Layers[] = {0, 1, -1, 2, 5};
  for (size_t K = 0; K < Dirs.size(); ++K) {
    Fetch F;
    F.x() = Dirs[K][0];
    F.y() = Dirs[K][1];
    F.z() = Dirs[K][2];
    F.layer() = float(Layers[K % 5]);
    Out.push_back(F);
  }
  return Out;
}

void runCubemaps(Harness &H) {
  struct Content {
    const char *Format;
    unsigned Channels;
    bool Positions; ///< Texels name their position (f32 ch1 only).
  };
  const Content Contents[] = {{"f32", 1, true},
                              {"u8n", 4, false},
                              {"s8n", 1, false},
                              {"u16i", 1, false}};
  const size_t Width = 4;
  uint32_t Seed = 200;
  for (const Content &Ct : Contents)
    for (int Layered = 0; Layered < 2; ++Layered) {
      const Format &F = format(Ct.Format);
      CUDA_ARRAY3D_DESCRIPTOR Desc{};
      Desc.Width = Desc.Height = Width;
      Desc.Depth = Layered ? 12 : 6;
      Desc.Format = F.Code;
      Desc.NumChannels = Ct.Channels;
      Desc.Flags = CUDA_ARRAY3D_CUBEMAP | (Layered ? CUDA_ARRAY3D_LAYERED : 0);
      std::vector<unsigned char> Data =
          Ct.Positions
              ? positionTexels(Width, Width, Desc.Depth)
              : texels(F, Width * Width * Desc.Depth * Ct.Channels, Seed++);
      CUarray A = makeArray(Desc, Data);
      for (const Sampling &S : everySampling(F)) {
        Case C;
        C.Id = caseName("cubemap", F, Ct.Channels,
                        std::string(Ct.Positions ? "positions " : "") +
                            (Layered ? "layered " : "") + S.name());
        C.Fetches = cubemapFetches(Width);
        H.runArray(Layered ? "cubemaplayered" : "cubemap", A, S, C);
      }
      CHECK(cuArrayDestroy(A));
    }
}

// --- Gather ------------------------------------------------------------

void runGather(Harness &H) {
  uint32_t Seed = 300;
  const size_t Width = 5, Height = 4;
  for (const Format &F : Formats)
    for (unsigned Channels : {1u, 2u, 4u}) {
      CUDA_ARRAY3D_DESCRIPTOR Desc{};
      Desc.Width = Width;
      Desc.Height = Height;
      Desc.Format = F.Code;
      Desc.NumChannels = Channels;
      Desc.Flags = CUDA_ARRAY3D_TEXTURE_GATHER;
      CUarray A = makeArray(Desc, texels(F, Width * Height * Channels, Seed++));
      bool Sweep = (F.Code == CU_AD_FORMAT_FLOAT && Channels == 4) ||
                   (std::strcmp(F.Name, "u8n") == 0 && Channels == 4) ||
                   (std::strcmp(F.Name, "s8i") == 0 && Channels == 2);
      for (int Filter = 0; Filter < 2; ++Filter)
        for (int Mode = 0; Mode < 4; ++Mode)
          for (int Normalized = 0; Normalized < 2; ++Normalized) {
            bool Base = Filter == 0 && Mode == 1 && !Normalized;
            if (!Base && !Sweep)
              continue;
            if (Filter && (Mode != 1 || Normalized || F.IntegerResult))
              continue;
            Sampling S;
            S.F = &F;
            S.Filter = Filter;
            S.Address = Mode;
            S.Normalized = Normalized;
            Case C;
            C.Id = caseName("gather", F, Channels, S.name());
            for (int Component = 0; Component < 4; ++Component)
              for (Fetch Ft : planeFetches(Width, Height, Normalized, {0})) {
                Ft.component() = float(Component);
                C.Fetches.push_back(Ft);
              }
            H.runArray("gather", A, S, C);
          }
      CHECK(cuArrayDestroy(A));
    }
}

// --- Mipmaps -------------------------------------------------------------

/// A mipmapped array of \p Levels levels whose level L is filled by
/// \p Texels(L, element count).
template <class Fill>
CUmipmappedArray makeMipmapped(const CUDA_ARRAY3D_DESCRIPTOR &Desc,
                               unsigned Levels, size_t ElementBytes,
                               Fill Texels) {
  CUmipmappedArray M = nullptr;
  CHECK(cuMipmappedArrayCreate(&M, &Desc, Levels));
  for (unsigned L = 0; L < Levels; ++L) {
    CUarray A = nullptr;
    CHECK(cuMipmappedArrayGetLevel(&A, M, L));
    CUDA_ARRAY3D_DESCRIPTOR D{};
    CHECK(cuArray3DGetDescriptor(&D, A));
    size_t Rows = D.Height ? D.Height : 1, Slices = D.Depth ? D.Depth : 1;
    fill(A, Texels(L, D.Width * Rows * Slices), D.Width, Rows, Slices,
         ElementBytes);
  }
  return M;
}

/// Float texels of value \p Value.
std::vector<unsigned char> constantTexels(float Value, size_t Count) {
  std::vector<unsigned char> Out(Count * 4);
  for (size_t I = 0; I < Count; ++I)
    std::memcpy(Out.data() + I * 4, &Value, 4);
  return Out;
}

/// Levels to fetch at: every 1/64 from -0.5 to 6.5, and values around the
/// level boundaries and outside.
std::vector<float> levelList() {
  std::vector<float> L;
  for (int K = -32; K <= 416; ++K)
    L.push_back(float(K) / 64.0f);
  for (float V : {1.0f / 512, 1.0f / 256, 0.4999f, 0.5001f, 0.99999f, 1.00001f,
                  -100.0f, 100.0f, NAN, INFINITY, -INFINITY})
    L.push_back(V);
  return L;
}

/// Gradient lengths (in texels of level 0): 2^(K/32) for K from -96 to 256.
std::vector<float> gradientLengths() {
  std::vector<float> G;
  for (int K = -96; K <= 256; ++K)
    G.push_back(std::exp2(float(K) / 32.0f));
  return G;
}

/// The level-of-detail probes: every level holds its own number, so a
/// fetch returns the level it read (or the blend of two).
void runLevelProbes(Harness &H) {
  const Format &F = format("f32");
  struct Shape {
    const char *Name;
    size_t Width, Height, Depth;
    unsigned Levels;
  };
  const Shape Shapes[] = {{"1d", 64, 0, 0, 7},
                          {"2d", 64, 32, 0, 7},
                          {"3d", 32, 16, 8, 6},
                          {"2d-square", 32, 32, 0, 6}};
  for (const Shape &Sh : Shapes) {
    CUDA_ARRAY3D_DESCRIPTOR Desc{};
    Desc.Width = Sh.Width;
    Desc.Height = Sh.Height;
    Desc.Depth = Sh.Depth;
    Desc.Format = F.Code;
    Desc.NumChannels = 1;
    CUmipmappedArray M =
        makeMipmapped(Desc, Sh.Levels, 4, [](unsigned L, size_t Count) {
          return constantTexels(float(L), Count);
        });
    int Dims = Sh.Depth ? 3 : Sh.Height ? 2 : 1;
    const char *LodForm = Dims == 1 ? "lod1" : Dims == 2 ? "lod2" : "lod3";
    const char *GradForm = Dims == 1 ? "grad1" : Dims == 2 ? "grad2" : "grad3";
    struct Setting {
      int MipmapFilter;
      float Bias, Min, Max;
      unsigned Anisotropy;
    };
    const Setting Settings[] = {{1, 0, 0, 1000, 0},    {0, 0, 0, 1000, 0},
                                {1, 0.4f, 0, 1000, 0}, {1, 0, 0.5f, 3.25f, 0},
                                {1, 0, 0, 1000, 16},   {1, -1.5f, 0, 1000, 0}};
    for (const Setting &St : Settings) {
      if (Dims != 2 && (St.Anisotropy || St.Bias < 0))
        continue;
      Sampling S;
      S.F = &F;
      S.Filter = 1;
      S.Normalized = true;
      S.MipmapFilter = St.MipmapFilter;
      S.LevelBias = St.Bias;
      S.MinLevel = St.Min;
      S.MaxLevel = St.Max;
      S.MaxAnisotropy = St.Anisotropy;
      char Rest[160];
      std::snprintf(Rest, sizeof(Rest),
                    "%s mip-%s bias %g clamp %g..%g aniso %u", Sh.Name,
                    St.MipmapFilter ? "linear" : "point", St.Bias, St.Min,
                    St.Max, St.Anisotropy);
      // By level.
      Case C;
      C.Id = caseName("mipmap-level", F, 1, Rest);
      for (float L : levelList()) {
        Fetch Ft;
        Ft.x() = Ft.y() = Ft.z() = 0.5f;
        Ft.level() = L;
        C.Fetches.push_back(Ft);
      }
      H.runMipmapped(LodForm, M, S, C);
      // By gradients: isotropic along the axes, along a diagonal, and
      // anisotropic.
      Case G;
      G.Id = caseName("mipmap-gradient", F, 1, Rest);
      const float Sizes[3] = {float(Sh.Width), float(Sh.Height ? Sh.Height : 1),
                              float(Sh.Depth ? Sh.Depth : 1)};
      for (float Len : gradientLengths()) {
        Fetch Ft;
        Ft.x() = Ft.y() = Ft.z() = 0.5f;
        Ft.dPdx()[0] = Len / Sizes[0];
        Ft.dPdy()[1 % Dims] += Len / Sizes[1 % Dims];
        G.Fetches.push_back(Ft);
      }
      if (Dims >= 2) {
        const float Ratios[] = {1.5f, 2.0f, 3.3f, 8.0f, 20.0f};
        const float Lengths[] = {0.7f, 1.0f, 2.5f, 6.0f, 13.0f};
        for (float R : Ratios)
          for (float Len : Lengths) {
            Fetch Ft;
            Ft.x() = Ft.y() = Ft.z() = 0.5f;
            Ft.dPdx()[0] = Len / Sizes[0];
            Ft.dPdy()[1] = Len * R / Sizes[1];
            G.Fetches.push_back(Ft);
            Fetch D = Ft;
            D.dPdx()[0] = Len * 0.6f / Sizes[0];
            D.dPdx()[1] = Len * 0.8f / Sizes[1];
            D.dPdy()[0] = -Len * R * 0.8f / Sizes[0];
            D.dPdy()[1] = Len * R * 0.6f / Sizes[1];
            G.Fetches.push_back(D);
            Fetch Z = Ft; // Swapped axes.
            Z.dPdx()[0] = Len * R / Sizes[0];
            Z.dPdy()[1] = Len / Sizes[1];
            G.Fetches.push_back(Z);
          }
        Fetch Zero;
        Zero.x() = Zero.y() = 0.5f;
        G.Fetches.push_back(Zero);
      }
      H.runMipmapped(GradForm, M, S, G);
    }
    CHECK(cuMipmappedArrayDestroy(M));
  }
}

/// Filtered content across levels: random texels at each level, fetched
/// by level with every filter pair and address mode.
void runLevelContent(Harness &H) {
  uint32_t Seed = 400;
  for (const char *Name : {"u8n", "f32", "u16i"})
    for (int Dims = 1; Dims <= 3; ++Dims) {
      const Format &F = format(Name);
      unsigned Channels = F.IntegerResult ? 1 : 4;
      CUDA_ARRAY3D_DESCRIPTOR Desc{};
      Desc.Width = 8;
      Desc.Height = Dims >= 2 ? 6 : 0;
      Desc.Depth = Dims == 3 ? 4 : 0;
      Desc.Format = F.Code;
      Desc.NumChannels = Channels;
      CUmipmappedArray M = makeMipmapped(
          Desc, 4, F.Bytes * Channels, [&](unsigned, size_t Count) {
            return texels(F, Count * Channels, Seed++);
          });
      const char *Form = Dims == 1 ? "lod1" : Dims == 2 ? "lod2" : "lod3";
      for (int Filter = 0; Filter < (F.IntegerResult ? 1 : 2); ++Filter)
        for (int MipFilter = 0; MipFilter < 2; ++MipFilter)
          for (int Mode : {0, 1, 3}) {
            Sampling S;
            S.F = &F;
            S.Filter = Filter;
            S.Address = Mode;
            S.Normalized = true;
            S.MipmapFilter = MipFilter;
            S.MaxLevel = 1000;
            Case C;
            C.Id = caseName("mipmap-content", F, Channels,
                            std::to_string(Dims) + "d mip-" +
                                (MipFilter ? "linear " : "point ") + S.name());
            const float Levels[] = {0, 0.3f, 0.5f, 1, 1.7f, 2.25f, 3, 3.9f};
            std::vector<Fetch> Plane =
                planeFetches(8, Dims >= 2 ? 6 : 1, true, {0});
            for (size_t K = 0; K < Plane.size(); ++K)
              for (float L : Levels) {
                Fetch Ft = Plane[K];
                if (Dims < 2)
                  Ft.y() = 0;
                Ft.z() = Dims == 3 ? Plane[(K + 5) % Plane.size()].x() : 0;
                Ft.level() = L;
                C.Fetches.push_back(Ft);
              }
            H.runMipmapped(Form, M, S, C);
          }
      CHECK(cuMipmappedArrayDestroy(M));
    }
}

/// Mipmapped layered and cubemap arrays read by level.
void runLevelShapes(Harness &H) {
  const Format &F = format("f32");
  struct Shape {
    const char *Name, *Form;
    size_t Width, Height, Depth;
    unsigned Flags;
  };
  const Shape Shapes[] = {
      {"1d-layered", "lodlayered1", 16, 0, 3, CUDA_ARRAY3D_LAYERED},
      {"2d-layered", "lodlayered2", 16, 8, 3, CUDA_ARRAY3D_LAYERED},
      {"cubemap", "lodcubemap", 8, 8, 6, CUDA_ARRAY3D_CUBEMAP}};
  for (const Shape &Sh : Shapes) {
    CUDA_ARRAY3D_DESCRIPTOR Desc{};
    Desc.Width = Sh.Width;
    Desc.Height = Sh.Height;
    Desc.Depth = Sh.Depth;
    Desc.Format = F.Code;
    Desc.NumChannels = 1;
    Desc.Flags = Sh.Flags;
    CUmipmappedArray M =
        makeMipmapped(Desc, 3, 4, [&](unsigned L, size_t Count) {
          std::vector<unsigned char> Out(Count * 4);
          for (size_t I = 0; I < Count; ++I) {
            float V = float(L * 10000 + I);
            std::memcpy(Out.data() + I * 4, &V, 4);
          }
          return Out;
        });
    for (int Filter = 0; Filter < 2; ++Filter)
      for (int MipFilter = 0; MipFilter < 2; ++MipFilter) {
        Sampling S;
        S.F = &F;
        S.Filter = Filter;
        S.Normalized = true;
        S.MipmapFilter = MipFilter;
        S.MaxLevel = 1000;
        Case C;
        C.Id = caseName("mipmap-shape", F, 1,
                        std::string(Sh.Name) + " mip-" +
                            (MipFilter ? "linear " : "point ") + S.name());
        std::vector<Fetch> Base =
            std::strcmp(Sh.Name, "cubemap") == 0
                ? cubemapFetches(8)
                : planeFetches(Sh.Width, Sh.Height ? Sh.Height : 1, true,
                               {0, 1, 2, -1, 3});
        const float Levels[] = {0, 0.5f, 1, 1.25f, 2, 2.5f};
        for (size_t K = 0; K < Base.size(); ++K) {
          Fetch Ft = Base[K];
          Ft.level() = Levels[K % 6];
          if (std::strcmp(Sh.Name, "1d-layered") == 0)
            Ft.y() = 0;
          C.Fetches.push_back(Ft);
        }
        H.runMipmapped(Sh.Form, M, S, C);
      }
    CHECK(cuMipmappedArrayDestroy(M));
  }
}

// --- sRGB ----------------------------------------------------------------

void runSrgb(Harness &H) {
  // Every byte value in every channel: texel I holds (I, 255 - I, 37 I, I).
  for (const char *Name : {"u8n", "u8i", "u16n", "s8n", "f32"}) {
    const Format &F = format(Name);
    const size_t Width = 256;
    CUDA_ARRAY3D_DESCRIPTOR Desc{};
    Desc.Width = Width;
    Desc.Format = F.Code;
    Desc.NumChannels = 4;
    std::vector<unsigned char> Data;
    if (F.Bytes == 1) {
      for (size_t I = 0; I < Width; ++I)
        for (unsigned V : {unsigned(I), unsigned(255 - I),
                           unsigned((37 * I) % 256), unsigned(I)})
          Data.push_back((unsigned char)V);
    } else {
      Data = texels(F, Width * 4, 500);
    }
    CUarray A = makeArray(Desc, Data);
    for (int Filter = 0; Filter < (F.IntegerResult ? 1 : 2); ++Filter)
      for (int Srgb = 0; Srgb < 2; ++Srgb) {
        if (!Srgb && F.Bytes != 1)
          continue;
        Sampling S;
        S.F = &F;
        S.Filter = Filter;
        S.Srgb = Srgb;
        Case C;
        C.Id = caseName("srgb", F, 4, S.name());
        for (size_t I = 0; I < Width; ++I) {
          Fetch Ft;
          Ft.x() = float(I) + 0.5f;
          C.Fetches.push_back(Ft);
          if (Filter) {
            Ft.x() = float(I) + 1.0f;
            C.Fetches.push_back(Ft);
            Ft.x() = float(I) + 0.5f + 37.0f / 256;
            C.Fetches.push_back(Ft);
          }
        }
        H.runArray("plain1", A, S, C);
      }
    CHECK(cuArrayDestroy(A));
  }
}

// --- Recording and checking ------------------------------------------------

void record(const std::vector<Case> &Cases, const char *Path) {
  std::ofstream Out(Path);
  for (const Case &C : Cases)
    writeCase(Out, C.Id, C.Values);
  std::printf("recorded %zu cases in %s\n", Cases.size(), Path);
}

/// How closely cucpu must agree with the H200 on a case: exactly, within
/// \p Bound of each float result, or not at all (cucpu does not filter
/// anisotropically). docs/textures.md states why.
struct Agreement {
  enum { Exact, Within, Unchecked } Kind = Exact;
  float Bound = 0;
};

Agreement agreement(const std::string &Id) {
  Agreement A;
  if (Id.rfind("mipmap-gradient", 0) == 0) {
    // Levels of detail from gradients: the H200's logarithm and vector
    // lengths are approximations cucpu matches along the axes; other
    // directions and 1D gradients read up to 3/256 of a level away.
    A.Kind = Id.find("aniso 16") != std::string::npos ? Agreement::Unchecked
                                                      : Agreement::Within;
    A.Bound = 3.0f / 256;
  } else if (Id.rfind("srgb u8n", 0) == 0 &&
             Id.find("linear") != std::string::npos &&
             Id.compare(Id.size() - 5, 5, " srgb") == 0) {
    // Linear filtering of sRGB texels: the H200 filters with more
    // precision than its point-sampled table shows.
    A.Kind = Agreement::Within;
    A.Bound = 0.004f;
  }
  return A;
}

float wordFloat(uint32_t W) {
  float F;
  std::memcpy(&F, &W, 4);
  return F;
}

int check(const std::vector<Case> &Cases, const char *Path) {
  std::optional<std::map<std::string, Results>> Records = readRecords(Path);
  if (!Records)
    return 2;
  const std::map<std::string, Results> &Expected = *Records;
  size_t Exact = 0, Close = 0, Unchecked = 0, Wrong = 0, Missing = 0, Shown = 0;
  for (const Case &C : Cases) {
    auto It = Expected.find(C.Id);
    if (It == Expected.end() || It->second.size() != C.Values.size()) {
      ++Missing;
      std::printf("MISSING %s\n", C.Id.c_str());
      continue;
    }
    Agreement A = agreement(C.Id);
    for (size_t I = 0; I < C.Values.size(); ++I) {
      const auto &Got = C.Values[I], &Want = It->second[I];
      if (Got == Want) {
        ++Exact;
        continue;
      }
      if (A.Kind == Agreement::Unchecked) {
        ++Unchecked;
        continue;
      }
      if (A.Kind == Agreement::Within) {
        bool Near = true;
        for (int K = 0; K < 4; ++K)
          Near = Near &&
                 std::fabs(wordFloat(Got[K]) - wordFloat(Want[K])) <= A.Bound;
        if (Near) {
          ++Close;
          continue;
        }
      }
      ++Wrong;
      if (Shown++ < 40) {
        const float *V = C.Fetches[I].V;
        std::printf("MISMATCH %s at (%a, %a, %a) level %a layer %g dPdx (%a, "
                    "%a, %a) dPdy (%a, %a, %a) component %g: got %08x %08x "
                    "%08x %08x, H200 %08x %08x %08x %08x\n",
                    C.Id.c_str(), V[0], V[1], V[2], V[3], V[7], V[4], V[5],
                    V[6], V[8], V[9], V[10], V[11], Got[0], Got[1], Got[2],
                    Got[3], Want[0], Want[1], Want[2], Want[3]);
      }
    }
  }
  std::printf("%zu cases, %zu fetches: %zu identical, %zu within their "
              "bound, %zu not compared (anisotropic), %zu different, %zu "
              "cases missing\n",
              Cases.size(), Exact + Close + Unchecked + Wrong, Exact, Close,
              Unchecked, Wrong, Missing);
  return Wrong || Missing ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5 || (std::strcmp(argv[3], "--record") != 0 &&
                    std::strcmp(argv[3], "--check") != 0)) {
    std::fprintf(stderr,
                 "usage: %s MODULE layered|cubemap|gather|mipmap|srgb|all "
                 "--record FILE | --check FILE\n",
                 argv[0]);
    return 2;
  }
  std::string Group = argv[2];
  bool All = Group == "all";
  CHECK(cuInit(0));
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CHECK(cuCtxSetCurrent(Ctx));
  int Rc = 0;
  {
    Harness H(argv[1]);
    bool Known = false;
    if (All || Group == "layered")
      runLayered(H), Known = true;
    if (All || Group == "cubemap")
      runCubemaps(H), Known = true;
    if (All || Group == "gather")
      runGather(H), Known = true;
    if (All || Group == "mipmap") {
      runLevelProbes(H);
      runLevelContent(H);
      runLevelShapes(H);
      Known = true;
    }
    if (All || Group == "srgb")
      runSrgb(H), Known = true;
    if (!Known) {
      std::fprintf(stderr, "no group %s\n", Group.c_str());
      return 2;
    }
    if (std::strcmp(argv[3], "--record") == 0)
      record(H.Cases, argv[4]);
    else
      Rc = check(H.Cases, argv[4]);
  }
  CHECK(cuDevicePrimaryCtxRelease(Dev));
  return Rc;
}
