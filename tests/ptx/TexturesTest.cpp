//===- TexturesTest.cpp - PTX kernels: tex, tld4 and texture references ---===//
//
// nvcc's PTX of textures.cu (every fetch form through texture objects) runs
// beside cucc's image of the same source, over arrays of several formats,
// shapes and samplers, and each fetch must return the same bits through
// both. Hand-written PTX fetches through texture references bound with the
// driver API and is checked against the texels; unsupported forms must fail
// to load with a message.
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>

using namespace cucpu::test;

namespace {

/// The text of the file \p Path, or "" if it cannot be read.
std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// A texel format.
struct Format {
  CUarray_format Code;
  unsigned Channels;
  bool Integers; ///< Read with CU_TRSF_READ_AS_INTEGER (point sampling).
  const char *Name;
  unsigned bytes() const {
    unsigned Channel =
        Code == CU_AD_FORMAT_FLOAT || Code == CU_AD_FORMAT_SIGNED_INT32  ? 4
        : Code == CU_AD_FORMAT_SIGNED_INT16 || Code == CU_AD_FORMAT_HALF ? 2
                                                                         : 1;
    return Channel * Channels;
  }
};

const Format Formats[] = {
    {CU_AD_FORMAT_FLOAT, 1, false, "float"},
    {CU_AD_FORMAT_UNSIGNED_INT8, 4, false, "uchar4 as normalized floats"},
    {CU_AD_FORMAT_SIGNED_INT16, 2, true, "short2 as integers"},
};

/// Filter, address mode and coordinate normalization of a texture.
struct Sampling {
  CUfilter_mode Filter;
  CUaddress_mode Address;
  bool Normalized;
  const char *Name;
};

const Sampling Samplings[] = {
    {CU_TR_FILTER_MODE_POINT, CU_TR_ADDRESS_MODE_CLAMP, false, "point clamp"},
    {CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_WRAP, true, "linear wrap"},
    {CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_MIRROR, true,
     "linear mirror"},
    {CU_TR_FILTER_MODE_POINT, CU_TR_ADDRESS_MODE_BORDER, true, "point border"},
};

/// Where a form's coordinates come from.
struct Shape {
  unsigned Width, Height, Depth; ///< Of level 0; Depth counts layers/faces.
  unsigned Flags;                ///< CUDA_ARRAY3D_*.
  unsigned Levels;               ///< 0: an array, else a mipmapped one.
};

/// Threads (fetches) of each launch.
constexpr unsigned Fetches = 96;

class PtxTextures : public PtxKernelTest {
protected:
  void SetUp() override {
    PtxKernelTest::SetUp();
    std::string Ptx = readFile(CUCPU_PTX_TEST_SOURCE_DIR "/textures.sm_75.ptx");
    ASSERT_FALSE(Ptx.empty()) << "textures.sm_75.ptx is missing";
    ASSERT_TRUE(loads(Ptx));
    ASSERT_EQ(CUDA_SUCCESS,
              cuModuleLoad(&Cucc, CUCPU_PTX_TEST_BINARY_DIR "/textures.cubin"))
        << "cucc's image of textures.cu";
  }
  void TearDown() override {
    for (CUtexObject T : Objects)
      cuTexObjectDestroy(T);
    for (CUarray A : Arrays)
      cuArrayDestroy(A);
    for (CUmipmappedArray M : Mipmaps)
      cuMipmappedArrayDestroy(M);
    if (Cucc)
      cuModuleUnload(Cucc);
    PtxKernelTest::TearDown();
  }

  /// Fills \p A (an array of \p F) with texels from \p Seed: floats from a
  /// small range, integers from every bit pattern.
  void fill(CUarray A, const Format &F, uint32_t Seed) {
    CUDA_ARRAY3D_DESCRIPTOR D;
    ASSERT_EQ(CUDA_SUCCESS, cuArray3DGetDescriptor(&D, A));
    size_t Row = D.Width * F.bytes(), Rows = std::max<size_t>(1, D.Height),
           Slices = std::max<size_t>(1, D.Depth);
    std::vector<uint8_t> Bytes(Row * Rows * Slices);
    std::mt19937 Rng(Seed);
    if (F.Code == CU_AD_FORMAT_FLOAT) {
      for (size_t I = 0; I < Bytes.size(); I += 4) {
        float V = float(int(Rng() % 2001) - 1000) / 64.0f;
        std::memcpy(&Bytes[I], &V, 4);
      }
    } else {
      for (uint8_t &B : Bytes)
        B = uint8_t(Rng());
    }
    CUDA_MEMCPY3D C = {};
    C.srcMemoryType = CU_MEMORYTYPE_HOST;
    C.srcHost = Bytes.data();
    C.srcPitch = Row;
    C.srcHeight = Rows;
    C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    C.dstArray = A;
    C.WidthInBytes = Row;
    C.Height = Rows;
    C.Depth = Slices;
    ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3D(&C));
  }

  /// A texture object of \p F and \p S reading an array (or mipmapped
  /// array) of shape \p Sh filled from \p Seed.
  CUtexObject texture(const Shape &Sh, const Format &F, const Sampling &S,
                      uint32_t Seed) {
    CUDA_ARRAY3D_DESCRIPTOR D = {};
    D.Width = Sh.Width;
    D.Height = Sh.Height;
    D.Depth = Sh.Depth;
    D.Format = F.Code;
    D.NumChannels = F.Channels;
    D.Flags = Sh.Flags;
    CUDA_RESOURCE_DESC R = {};
    if (Sh.Levels) {
      CUmipmappedArray M;
      EXPECT_EQ(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, Sh.Levels));
      Mipmaps.push_back(M);
      for (unsigned L = 0; L < Sh.Levels; ++L) {
        CUarray A;
        EXPECT_EQ(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&A, M, L));
        fill(A, F, Seed + L);
      }
      R.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
      R.res.mipmap.hMipmappedArray = M;
    } else {
      CUarray A;
      EXPECT_EQ(CUDA_SUCCESS, cuArray3DCreate(&A, &D));
      Arrays.push_back(A);
      fill(A, F, Seed);
      R.resType = CU_RESOURCE_TYPE_ARRAY;
      R.res.array.hArray = A;
    }
    return object(R, F, S);
  }

  CUtexObject object(const CUDA_RESOURCE_DESC &R, const Format &F,
                     const Sampling &S) {
    CUDA_TEXTURE_DESC T = {};
    for (CUaddress_mode &M : T.addressMode)
      M = S.Address;
    T.filterMode = F.Integers ? CU_TR_FILTER_MODE_POINT : S.Filter;
    T.mipmapFilterMode = T.filterMode;
    T.flags = (S.Normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
              (F.Integers ? CU_TRSF_READ_AS_INTEGER : 0);
    T.maxMipmapLevelClamp = 16;
    T.borderColor[0] = 0.25f;
    T.borderColor[3] = 1;
    CUtexObject O = 0;
    EXPECT_EQ(CUDA_SUCCESS, cuTexObjectCreate(&O, &R, &T, nullptr));
    Objects.push_back(O);
    return O;
  }

  /// Coordinates of \p N fetches from a texture of shape \p Sh: x, y, z
  /// around and beyond [0, 1] (in texels unless \p Normalized), levels
  /// below, within and above the chain, layers (or linear-memory indices)
  /// from -1 past the last, gradients of several lengths.
  std::vector<float> coordinates(const Shape &Sh, bool Normalized,
                                 uint32_t Seed) {
    std::mt19937 Rng(Seed);
    auto Uniform = [&](float Lo, float Hi) {
      return Lo + (Hi - Lo) * float(Rng() % 65536) / 65536.0f;
    };
    const float Sizes[3] = {float(Sh.Width), float(std::max(1u, Sh.Height)),
                            float(std::max(1u, Sh.Depth))};
    std::vector<float> C(12 * Fetches);
    for (unsigned I = 0; I < Fetches; ++I) {
      float *P = &C[12 * I];
      for (unsigned D = 0; D < 3; ++D) {
        float V = Uniform(-0.3f, 1.3f);
        if (Sh.Flags & CUDA_ARRAY3D_CUBEMAP)
          V = Uniform(-1.0f, 1.0f); // A direction.
        else if (!Normalized)
          V *= Sizes[D];
        P[D] = V;
      }
      P[3] = Uniform(-1.0f, float(Sh.Levels) + 1.0f);
      // Gradients 2^-1 ... 2^4 texels long, either sign.
      for (unsigned G = 0; G < 2; ++G)
        for (unsigned D = 0; D < 3; ++D) {
          float Length = std::ldexp(1.0f, int(Rng() % 6) - 1) / Sizes[0];
          P[4 + 4 * G + D] = (Rng() & 1 ? -Length : Length) *
                             Uniform(0.5f, 1.0f) *
                             (Normalized ? 1.0f : Sizes[0]);
        }
      unsigned Layers = Sh.Flags & CUDA_ARRAY3D_CUBEMAP   ? Sh.Depth / 6
                        : Sh.Flags & CUDA_ARRAY3D_LAYERED ? Sh.Depth
                                                          : Sh.Width;
      int32_t Layer = int32_t(Rng() % (Layers + 3)) - 1;
      std::memcpy(&P[7], &Layer, 4);
      P[11] = 0;
    }
    return C;
  }

  /// The words of \p Kernel of module \p M fetching through \p T at \p C.
  std::vector<uint32_t> fetch(CUmodule M, const std::string &Kernel,
                              CUtexObject T, const std::vector<float> &C) {
    CUfunction F;
    EXPECT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&F, M, Kernel.c_str()))
        << Kernel;
    CUdeviceptr Out = upload(std::vector<uint32_t>(4 * Fetches, 0xdeadbeef));
    CUdeviceptr Coords = upload(C);
    unsigned N = Fetches;
    void *Params[] = {&Out, &Coords, &N, &T};
    EXPECT_EQ(CUDA_SUCCESS, cuLaunchKernel(F, Fetches / 32, 1, 1, 32, 1, 1, 0,
                                           nullptr, Params, nullptr))
        << Kernel;
    EXPECT_EQ(CUDA_SUCCESS, cuCtxSynchronize()) << Kernel;
    return download<uint32_t>(Out, 4 * Fetches);
  }

  /// Runs the float and integer kernels of \p Form through nvcc's PTX and
  /// through cucc's image and expects the same bits from every fetch;
  /// returns how many words were not 0.
  unsigned compare(const std::string &Form, CUtexObject T,
                   const std::vector<float> &C, const std::string &What) {
    unsigned NonZero = 0;
    for (const char *Variant : {"f", "i"}) {
      std::string Kernel = Form + Variant;
      std::vector<uint32_t> Ptx = fetch(Module, Kernel, T, C);
      std::vector<uint32_t> Cucc = fetch(this->Cucc, Kernel, T, C);
      unsigned Different = 0;
      for (unsigned I = 0; I < Fetches; ++I) {
        bool Same = std::equal(&Ptx[4 * I], &Ptx[4 * I + 4], &Cucc[4 * I]);
        if (!Same && ++Different <= 3) {
          char Line[256];
          std::snprintf(
              Line, sizeof Line,
              "at (%a, %a, %a) level %a: PTX %08x %08x %08x %08x, cucc %08x "
              "%08x %08x %08x",
              C[12 * I], C[12 * I + 1], C[12 * I + 2], C[12 * I + 3],
              Ptx[4 * I], Ptx[4 * I + 1], Ptx[4 * I + 2], Ptx[4 * I + 3],
              Cucc[4 * I], Cucc[4 * I + 1], Cucc[4 * I + 2], Cucc[4 * I + 3]);
          ADD_FAILURE() << Kernel << ", " << What << ": " << Line;
        }
      }
      EXPECT_EQ(0u, Different) << Kernel << ", " << What << ": fetches that "
                               << "differ from cucc's";
      for (uint32_t W : Ptx)
        NonZero += W != 0;
    }
    return NonZero;
  }

  /// Compares every form in \p Forms on textures of shape \p Sh in each
  /// format and sampling.
  void compareForms(const Shape &Sh, std::initializer_list<const char *> Forms,
                    const char *ShapeName) {
    uint32_t Seed = 1;
    for (const Format &F : Formats)
      for (const Sampling &S : Samplings) {
        bool Normalized = S.Normalized || (Sh.Flags & CUDA_ARRAY3D_CUBEMAP);
        CUtexObject T = texture(Sh, F, S, Seed++);
        std::vector<float> C = coordinates(Sh, Normalized, Seed++);
        std::string What =
            std::string(ShapeName) + ", " + F.Name + ", " + S.Name;
        unsigned NonZero = 0;
        for (const char *Form : Forms)
          NonZero += compare(Form, T, C, What);
        EXPECT_GT(NonZero, 0u) << What << ": every fetch read zeros";
      }
  }

  CUmodule Cucc = nullptr;
  std::vector<CUtexObject> Objects;
  std::vector<CUarray> Arrays;
  std::vector<CUmipmappedArray> Mipmaps;
};

TEST_F(PtxTextures, OneTwoAndThreeDimensionalFetchesMatchCucc) {
  compareForms({13, 0, 0, 0, 0}, {"plain1"}, "1D");
  compareForms({7, 5, 0, 0, 0}, {"plain2"}, "2D");
  compareForms({5, 4, 3, 0, 0}, {"plain3"}, "3D");
}

TEST_F(PtxTextures, LayeredAndCubemapFetchesMatchCucc) {
  compareForms({9, 0, 3, CUDA_ARRAY3D_LAYERED, 0}, {"layered1"}, "1D layered");
  compareForms({6, 5, 3, CUDA_ARRAY3D_LAYERED, 0}, {"layered2"}, "2D layered");
  compareForms({4, 4, 6, CUDA_ARRAY3D_CUBEMAP, 0}, {"cubemap"}, "cubemap");
  compareForms({4, 4, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 0},
               {"cubemaplayered"}, "cubemap layered");
}

TEST_F(PtxTextures, GatherMatchesCucc) {
  compareForms({7, 5, 0, CUDA_ARRAY3D_TEXTURE_GATHER, 0},
               {"gather0", "gather1", "gather2", "gather3"}, "2D gather");
}

TEST_F(PtxTextures, LevelAndGradientFetchesMatchCucc) {
  compareForms({16, 0, 0, 0, 4}, {"lod1", "grad1"}, "1D mipmapped");
  compareForms({16, 8, 0, 0, 4}, {"lod2", "grad2"}, "2D mipmapped");
  compareForms({8, 8, 4, 0, 3}, {"lod3", "grad3"}, "3D mipmapped");
  compareForms({16, 0, 3, CUDA_ARRAY3D_LAYERED, 3}, {"lodlayered1"},
               "1D layered mipmapped");
  compareForms({8, 8, 2, CUDA_ARRAY3D_LAYERED, 3},
               {"lodlayered2", "gradlayered2"}, "2D layered mipmapped");
  compareForms({8, 8, 6, CUDA_ARRAY3D_CUBEMAP, 3}, {"lodcubemap"},
               "cubemap mipmapped");
}

TEST_F(PtxTextures, LinearMemoryFetchMatchesCucc) {
  // tex1Dfetch: tex.1d with an integer coordinate (the index in X.w).
  for (const Format &F : Formats) {
    std::vector<uint8_t> Bytes(40 * F.bytes());
    std::mt19937 Rng(7);
    for (uint8_t &B : Bytes)
      B = uint8_t(Rng() % 64); // No NaNs among the floats.
    CUDA_RESOURCE_DESC R = {};
    R.resType = CU_RESOURCE_TYPE_LINEAR;
    R.res.linear.devPtr = upload(Bytes);
    R.res.linear.format = F.Code;
    R.res.linear.numChannels = F.Channels;
    R.res.linear.sizeInBytes = Bytes.size();
    Sampling Point = {CU_TR_FILTER_MODE_POINT, CU_TR_ADDRESS_MODE_CLAMP, false,
                      "point"};
    CUtexObject T = object(R, F, Point);
    std::vector<float> C = coordinates({40, 0, 0, 0, 0}, false, 3);
    EXPECT_GT(compare("fetch", T, C, F.Name), 0u) << F.Name;
  }
}

/// The kernels of the reference tests: out[i] = the fetch at coords[i].
const char *const ReferenceKernels = R"(
.global .texref tex2;
.global .texref layers;
.global .texref linear;

.visible .entry fetch2d(.param .u64 out, .param .u64 coords)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<9>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [coords];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  tex.2d.v4.f32.f32 {%f5, %f6, %f7, _}, [tex2, {%f1, %f2}];
  add.s64 %rd5, %rd1, %rd3;
  st.global.v4.f32 [%rd5], {%f5, %f6, %f7, %f4};
  ret;
}

.visible .entry fetchlayer(.param .u64 out, .param .u64 coords)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<9>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [coords];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  mov.b32 %r2, %f3;
  tex.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [layers, {%r2, %f1, %f2, %f2}];
  add.s64 %rd5, %rd1, %rd3;
  st.global.v4.f32 [%rd5], {%f5, %f6, %f7, %f8};
  ret;
}

.visible .entry fetchindex(.param .u64 out, .param .u64 index)
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [index];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [linear, {%r2}];
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd5, %rd1, %rd3;
  st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r6};
  ret;
}
)";

using PtxTextureReferences = PtxKernelTest;

TEST_F(PtxTextureReferences, TwoDimensionalReferenceReadsItsArray) {
  ASSERT_TRUE(loads(ptxHeader() + ReferenceKernels));
  CUtexref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetTexRef(&Ref, Module, "tex2"))
      << "the PTX module's .texref is a texture reference";
  CUsurfref Surf;
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND, cuModuleGetSurfRef(&Surf, Module, "tex2"))
      << "a .texref is no surface reference";
  // A 6 x 4 array of float2 texels (x + 10 y, -(x + 10 y)).
  CUDA_ARRAY_DESCRIPTOR D = {6, 4, CU_AD_FORMAT_FLOAT, 2};
  CUarray A;
  ASSERT_EQ(CUDA_SUCCESS, cuArrayCreate(&A, &D));
  std::vector<float> Texels;
  for (int Y = 0; Y < 4; ++Y)
    for (int X = 0; X < 6; ++X) {
      Texels.push_back(float(X + 10 * Y));
      Texels.push_back(-float(X + 10 * Y));
    }
  CUDA_MEMCPY2D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Texels.data();
  C.srcPitch = 6 * 8;
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = A;
  C.WidthInBytes = 6 * 8;
  C.Height = 4;
  ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&C));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetArray(Ref, A, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFilterMode(Ref, CU_TR_FILTER_MODE_POINT));
  for (int Dim = 0; Dim < 2; ++Dim)
    ASSERT_EQ(CUDA_SUCCESS,
              cuTexRefSetAddressMode(Ref, Dim, CU_TR_ADDRESS_MODE_CLAMP));
  // Texel centres, inside a texel, and outside (clamped to the edge).
  const float Points[][2] = {{0.5f, 0.5f}, {3.5f, 2.5f}, {5.9f, 3.1f},
                             {-4, 1.5f},   {9, 9},       {2.25f, -1}};
  std::vector<float> Coords;
  for (auto &P : Points)
    Coords.insert(Coords.end(), {P[0], P[1], 0, 7});
  CUdeviceptr Out = upload(std::vector<float>(Coords.size(), -1));
  CUdeviceptr In = upload(Coords);
  ASSERT_EQ(CUDA_SUCCESS, run("fetch2d", 1, 6, {&Out, &In}));
  std::vector<float> R = download<float>(Out, Coords.size());
  for (size_t I = 0; I < 6; ++I) {
    int X = std::clamp(int(std::floor(Points[I][0])), 0, 5);
    int Y = std::clamp(int(std::floor(Points[I][1])), 0, 3);
    float Expected = float(X + 10 * Y);
    EXPECT_EQ(Expected, R[4 * I]) << "point " << I;
    EXPECT_EQ(-Expected, R[4 * I + 1]) << "point " << I;
    EXPECT_EQ(0.0f, R[4 * I + 2]) << "a channel the texture lacks reads 0";
    EXPECT_EQ(7.0f, R[4 * I + 3]) << "a sink (_) leaves the register alone";
  }
  // Linear filtering halfway between texel centres averages them.
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFilterMode(Ref, CU_TR_FILTER_MODE_LINEAR));
  Coords = {1.0f, 0.5f, 0, 0};
  In = upload(Coords);
  ASSERT_EQ(CUDA_SUCCESS, run("fetch2d", 1, 1, {&Out, &In}));
  EXPECT_EQ(0.5f, download<float>(Out, 1)[0]) << "(0 + 1) / 2";
  cuArrayDestroy(A);
}

TEST_F(PtxTextureReferences, LayeredReferenceReadsTheLayer) {
  ASSERT_TRUE(loads(ptxHeader() + ReferenceKernels));
  CUtexref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetTexRef(&Ref, Module, "layers"));
  // 3 layers of 4 x 2 int32 texels 100 layer + 10 y + x, read as integers
  // (the .f32 destination holds their bits).
  CUDA_ARRAY3D_DESCRIPTOR D = {
      4, 2, 3, CU_AD_FORMAT_SIGNED_INT32, 1, CUDA_ARRAY3D_LAYERED};
  CUarray A;
  ASSERT_EQ(CUDA_SUCCESS, cuArray3DCreate(&A, &D));
  std::vector<int32_t> Texels;
  for (int L = 0; L < 3; ++L)
    for (int Y = 0; Y < 2; ++Y)
      for (int X = 0; X < 4; ++X)
        Texels.push_back(100 * L + 10 * Y + X);
  CUDA_MEMCPY3D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Texels.data();
  C.srcPitch = 16;
  C.srcHeight = 2;
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = A;
  C.WidthInBytes = 16;
  C.Height = 2;
  C.Depth = 3;
  ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3D(&C));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetArray(Ref, A, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFlags(Ref, CU_TRSF_READ_AS_INTEGER));
  // (x, y, layer bits): a layer past the last reads the last, as does -1.
  const int Points[][3] = {
      {0, 0, 0}, {3, 1, 1}, {2, 0, 2}, {1, 1, 5}, {0, 1, -1}};
  std::vector<float> Coords;
  for (auto &P : Points) {
    float Layer;
    std::memcpy(&Layer, &P[2], 4);
    Coords.insert(Coords.end(), {P[0] + 0.5f, P[1] + 0.5f, Layer, 0});
  }
  CUdeviceptr Out = upload(std::vector<int32_t>(Coords.size(), -1));
  CUdeviceptr In = upload(Coords);
  ASSERT_EQ(CUDA_SUCCESS, run("fetchlayer", 1, 5, {&Out, &In}));
  std::vector<int32_t> R = download<int32_t>(Out, Coords.size());
  for (size_t I = 0; I < 5; ++I) {
    int Layer = std::min<unsigned>(unsigned(Points[I][2]), 2);
    EXPECT_EQ(100 * Layer + 10 * Points[I][1] + Points[I][0], R[4 * I])
        << "point " << I;
  }
  cuArrayDestroy(A);
}

TEST_F(PtxTextureReferences, IndexFetchFromLinearMemory) {
  ASSERT_TRUE(loads(ptxHeader() + ReferenceKernels));
  CUtexref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetTexRef(&Ref, Module, "linear"));
  std::vector<int32_t> Texels;
  for (int I = 0; I < 32; ++I)
    Texels.insert(Texels.end(), {I, -I, 1000 + I, 7 * I});
  CUdeviceptr P = upload(Texels);
  size_t Offset = 1;
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, Ref, P, 32 * 16));
  EXPECT_EQ(0u, Offset);
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFormat(Ref, CU_AD_FORMAT_SIGNED_INT32, 4));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFlags(Ref, CU_TRSF_READ_AS_INTEGER));
  std::vector<int32_t> Index = {0, 5, 31, 32, -1, 17};
  CUdeviceptr Out = upload(std::vector<int32_t>(4 * Index.size(), -1));
  CUdeviceptr In = upload(Index);
  ASSERT_EQ(CUDA_SUCCESS, run("fetchindex", 1, 6, {&Out, &In}));
  std::vector<int32_t> R = download<int32_t>(Out, 4 * Index.size());
  for (size_t I = 0; I < Index.size(); ++I) {
    int X = Index[I];
    bool Inside = X >= 0 && X < 32;
    EXPECT_EQ(Inside ? X : 0, R[4 * I]) << "index " << X;
    EXPECT_EQ(Inside ? -X : 0, R[4 * I + 1]) << "index " << X;
    EXPECT_EQ(Inside ? 1000 + X : 0, R[4 * I + 2]) << "index " << X;
    EXPECT_EQ(Inside ? 7 * X : 0, R[4 * I + 3]) << "index " << X;
  }
}

/// A kernel around \p Instruction, with registers %f1-%f8, %r1-%r8, %rd1.
std::string kernelWith(const std::string &Instruction) {
  return ".global .texref t;\n.global .surfref s;\n"
         ".visible .entry k(.param .u64 h)\n{\n"
         "  .reg .f32 %f<9>;\n  .reg .b32 %r<9>;\n  .reg .b64 %rd<2>;\n"
         "  ld.param.u64 %rd1, [h];\n  " +
         Instruction + ";\n  ret;\n}\n";
}

class PtxTextureErrors : public PtxKernelTest {
protected:
  /// Loads \p Body after the header and expects CUDA_ERROR_INVALID_PTX with
  /// \p Message in the log.
  void expectRefused(const std::string &Body, const std::string &Message) {
    std::string Log;
    EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load(ptxHeader() + Body, &Log)) << Body;
    EXPECT_NE(std::string::npos, Log.find(Message)) << Log;
  }
};

TEST_F(PtxTextureErrors, UnsupportedFormsAreRefusedWithAMessage) {
  expectRefused(".global .samplerref smp;\n", "sampler references");
  expectRefused(kernelWith("tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t, {%r1, "
                           "%r2}]"),
                "integer coordinates");
  expectRefused(kernelWith("tld4.r.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, "
                           "{%r1, %f1, %f2, %f3}]"),
                ".2d textures only");
  expectRefused(kernelWith("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f1, "
                           "%f2}], {%r1, %r2}"),
                "texel offsets");
  expectRefused(kernelWith("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [s, {%f1, "
                           "%f2}]"),
                "s is not a texture reference");
  expectRefused(kernelWith("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, %rd1, "
                           "{%f1, %f2}]"),
                "independent texture mode");
  expectRefused(
      kernelWith("tex.2dms.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t, {%r1, "
                 "%r2, %r3, %r4}]"),
      "multisample");
  expectRefused(kernelWith("tex.2d.v2.f16x2.f32 {%r1, %r2}, [t, {%f1, %f2}]"),
                "half-precision results");
  expectRefused(
      kernelWith("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f1, "
                 "%f2}]"),
      "not a 64-bit register");
}

TEST_F(PtxTextureReferences, TexStateSpaceVariableIsAReference) {
  // PTX 1.x's .tex .u32 declaration is a texture reference as .texref is.
  ASSERT_TRUE(loads(ptxHeader() + R"(
.tex .u32 legacy;
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 2;
  tex.1d.v4.u32.s32 {%r2, %r3, %r4, %r5}, [legacy, {%r1}];
  st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
  ret;
}
)"));
  CUtexref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetTexRef(&Ref, Module, "legacy"));
  CUdeviceptr P = upload(std::vector<uint32_t>{10, 11, 12, 13});
  size_t Offset;
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, Ref, P, 16));
  ASSERT_EQ(CUDA_SUCCESS,
            cuTexRefSetFormat(Ref, CU_AD_FORMAT_UNSIGNED_INT32, 1));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFlags(Ref, CU_TRSF_READ_AS_INTEGER));
  CUdeviceptr Out = upload(std::vector<uint32_t>(4, 99));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 1, {&Out}));
  EXPECT_EQ((std::vector<uint32_t>{12, 0, 0, 0}), download<uint32_t>(Out, 4));
}

TEST_F(PtxTextureReferences, SparseFetchesReportResidentTexels) {
  // nvcc's tex2D(..., &isResident) and tex2Dgather(..., &isResident):
  // d|p destinations; cucpu's arrays are never sparse.
  ASSERT_TRUE(loads(ptxHeader() + R"(
.global .texref s;
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .f32 %f<9>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f3FC00000;
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}|%p1, [s, {%f1, %f1}];
  tld4.r.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}|%p2, [s, {%f1, %f1}];
  selp.u32 %r1, 1, 0, %p1;
  selp.u32 %r2, 1, 0, %p2;
  st.global.v2.f32 [%rd1], {%f2, %f5};
  st.global.v2.u32 [%rd1+8], {%r1, %r2};
  ret;
}
)"));
  CUtexref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetTexRef(&Ref, Module, "s"));
  // 4 x 4 floats 10 y + x, point sampled at (1.5, 1.5).
  std::vector<float> Texels;
  for (int I = 0; I < 16; ++I)
    Texels.push_back(float(10 * (I / 4) + I % 4));
  CUDA_ARRAY_DESCRIPTOR D = {4, 4, CU_AD_FORMAT_FLOAT, 1};
  CUarray A;
  ASSERT_EQ(CUDA_SUCCESS, cuArrayCreate(&A, &D));
  CUDA_MEMCPY2D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Texels.data();
  C.srcPitch = 16;
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = A;
  C.WidthInBytes = 16;
  C.Height = 4;
  ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&C));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetArray(Ref, A, CU_TRSA_OVERRIDE_FORMAT));
  CUdeviceptr Out = upload(std::vector<uint32_t>(4, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 1, {&Out}));
  std::vector<uint32_t> R = download<uint32_t>(Out, 4);
  float Fetched, Gathered;
  std::memcpy(&Fetched, &R[0], 4);
  std::memcpy(&Gathered, &R[1], 4);
  EXPECT_EQ(11.0f, Fetched) << "texel (1, 1)";
  EXPECT_EQ(21.0f, Gathered) << "the first gathered texel, (x, y + 1)";
  EXPECT_EQ(1u, R[2]) << "tex's texel is resident";
  EXPECT_EQ(1u, R[3]) << "tld4's texels are resident";
  cuArrayDestroy(A);
}

TEST_F(PtxTextureReferences, FetchInADeviceFunction) {
  // A .func fetching through a reference and through an object handle it
  // is passed, called (not inlined by nvcc) from the kernel.
  ASSERT_TRUE(loads(ptxHeader() + R"(
.global .texref f;
.func (.param .b32 ret) fetch(.param .b64 obj, .param .b32 i)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [obj];
  ld.param.b32 %r1, [i];
  tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [f, {%r1}];
  tex.1d.v4.s32.s32 {%r6, %r3, %r4, %r5}, [%rd1, {%r1}];
  add.s32 %r7, %r2, %r6;
  st.param.b32 [ret], %r7;
  ret;
}
.visible .entry k(.param .u64 out, .param .u64 obj)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [obj];
  mov.u32 %r1, %tid.x;
  {
    .param .b64 p0;
    st.param.b64 [p0], %rd2;
    .param .b32 p1;
    st.param.b32 [p1], %r1;
    .param .b32 r;
    call.uni (r), fetch, (p0, p1);
    ld.param.b32 %r2, [r];
  }
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd1, %rd3;
  st.global.u32 [%rd3], %r2;
  ret;
}
)"));
  CUtexref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetTexRef(&Ref, Module, "f"));
  std::vector<int32_t> A = {1, 2, 3, 4}, B = {100, 200, 300, 400};
  CUdeviceptr PA = upload(A), PB = upload(B);
  size_t Offset;
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, Ref, PA, 16));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFormat(Ref, CU_AD_FORMAT_SIGNED_INT32, 1));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFlags(Ref, CU_TRSF_READ_AS_INTEGER));
  CUDA_RESOURCE_DESC R = {};
  R.resType = CU_RESOURCE_TYPE_LINEAR;
  R.res.linear.devPtr = PB;
  R.res.linear.format = CU_AD_FORMAT_SIGNED_INT32;
  R.res.linear.numChannels = 1;
  R.res.linear.sizeInBytes = 16;
  CUDA_TEXTURE_DESC T = {};
  T.flags = CU_TRSF_READ_AS_INTEGER;
  CUtexObject O;
  ASSERT_EQ(CUDA_SUCCESS, cuTexObjectCreate(&O, &R, &T, nullptr));
  CUdeviceptr Out = upload(std::vector<int32_t>(4, -1));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 4, {&Out, &O}));
  EXPECT_EQ((std::vector<int32_t>{101, 202, 303, 404}),
            download<int32_t>(Out, 4));
  cuTexObjectDestroy(O);
}

/// out[0..2]: txq.level.width/height/depth at lod; out[3..5]: txq.width/
/// height/depth; through the object h (sizes) or the reference r (refsizes).
const char *const QueryKernels = R"(
.global .texref r;

.visible .entry sizes(.param .u64 out, .param .u64 h, .param .u32 lod)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [h];
  ld.param.u32 %r7, [lod];
  txq.level.width.b32 %r1, [%rd2], %r7;
  txq.level.height.b32 %r2, [%rd2], %r7;
  txq.level.depth.b32 %r3, [%rd2], %r7;
  txq.width.b32 %r4, [%rd2];
  txq.height.b32 %r5, [%rd2];
  txq.depth.b32 %r6, [%rd2];
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v2.u32 [%rd1+16], {%r5, %r6};
  ret;
}

.visible .entry refsizes(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  txq.width.b32 %r4, [r];
  txq.height.b32 %r5, [r];
  txq.depth.b32 %r6, [r];
  mov.u32 %r7, 0;
  txq.level.width.b32 %r1, [r], %r7;
  txq.level.height.b32 %r2, [r], %r7;
  txq.level.depth.b32 %r3, [r], %r7;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v2.u32 [%rd1+16], {%r5, %r6};
  ret;
}
)";

class PtxTextureQueries : public PtxKernelTest {
protected:
  /// txq's six answers through \p Handle (0: through the reference r).
  std::vector<uint32_t> sizes(CUtexObject Handle, int Lod, bool Reference) {
    CUdeviceptr Out = upload(std::vector<uint32_t>(6, 0xeeeeeeee));
    EXPECT_EQ(CUDA_SUCCESS, Reference
                                ? run("refsizes", 1, 1, {&Out})
                                : run("sizes", 1, 1, {&Out, &Handle, &Lod}));
    return download<uint32_t>(Out, 6);
  }
  CUtexObject object(const CUDA_RESOURCE_DESC &R) {
    CUDA_TEXTURE_DESC T = {};
    T.flags = CU_TRSF_NORMALIZED_COORDINATES;
    CUtexObject O = 0;
    EXPECT_EQ(CUDA_SUCCESS, cuTexObjectCreate(&O, &R, &T, nullptr));
    return O;
  }
};

TEST_F(PtxTextureQueries, SizesAreTheH200s) {
  ASSERT_TRUE(loads(ptxHeader() + QueryKernels));
  // The H200's answers (driver 580): width, height, depth of each shape.
  struct Case {
    unsigned W, H, D, Flags;
    uint32_t Expected[3];
  } Cases[] = {
      {13, 0, 0, 0, {13, 1, 0}},
      {7, 5, 0, 0, {7, 5, 0}},
      {5, 4, 3, 0, {5, 4, 3}},
      {9, 0, 3, CUDA_ARRAY3D_LAYERED, {9, 3, 0}},
      {6, 5, 3, CUDA_ARRAY3D_LAYERED, {6, 5, 3}},
      {4, 4, 6, CUDA_ARRAY3D_CUBEMAP, {4, 4, 0}},
      {4, 4, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, {4, 4, 2}},
  };
  for (const Case &C : Cases) {
    CUDA_ARRAY3D_DESCRIPTOR D = {C.W, C.H, C.D, CU_AD_FORMAT_FLOAT, 1, C.Flags};
    CUarray A;
    ASSERT_EQ(CUDA_SUCCESS, cuArray3DCreate(&A, &D));
    CUDA_RESOURCE_DESC R = {};
    R.resType = CU_RESOURCE_TYPE_ARRAY;
    R.res.array.hArray = A;
    CUtexObject O = object(R);
    std::string What = std::to_string(C.W) + "x" + std::to_string(C.H) + "x" +
                       std::to_string(C.D) + " flags " +
                       std::to_string(C.Flags);
    std::vector<uint32_t> S = sizes(O, 0, false);
    for (int Q = 0; Q < 3; ++Q) {
      EXPECT_EQ(C.Expected[Q], S[Q]) << What << ", level 0, query " << Q;
      EXPECT_EQ(C.Expected[Q], S[3 + Q]) << What << ", query " << Q;
    }
    S = sizes(O, 1, false);
    for (int Q = 0; Q < 3; ++Q)
      EXPECT_EQ(0u, S[Q]) << What << ": an array has no level 1";
    cuTexObjectDestroy(O);
    cuArrayDestroy(A);
  }
  // Mipmapped: each level's size; none past the last or below 0.
  CUDA_ARRAY3D_DESCRIPTOR D = {9, 5, 3, CU_AD_FORMAT_FLOAT, 1, 0};
  CUmipmappedArray M;
  ASSERT_EQ(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, 4));
  CUDA_RESOURCE_DESC R = {};
  R.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  R.res.mipmap.hMipmappedArray = M;
  CUtexObject O = object(R);
  const uint32_t Levels[][3] = {{9, 5, 3}, {4, 2, 1}, {2, 1, 1},
                                {1, 1, 1}, {0, 0, 0}, {0, 0, 0}};
  for (int L = -1; L < 5; ++L) {
    std::vector<uint32_t> S = sizes(O, L, false);
    for (int Q = 0; Q < 3; ++Q)
      EXPECT_EQ(L < 0 ? 0u : Levels[L][Q], S[Q]) << "level " << L;
  }
  cuTexObjectDestroy(O);
  cuMipmappedArrayDestroy(M);
  // Linear memory: its texels, 0 rows; handle 0 and an unbound reference: 0.
  CUdeviceptr P = upload(std::vector<float>(80));
  R = {};
  R.resType = CU_RESOURCE_TYPE_LINEAR;
  R.res.linear.devPtr = P;
  R.res.linear.format = CU_AD_FORMAT_FLOAT;
  R.res.linear.numChannels = 2;
  R.res.linear.sizeInBytes = 40 * 8;
  O = object(R);
  EXPECT_EQ((std::vector<uint32_t>{40, 0, 0, 40, 0, 0}), sizes(O, 0, false));
  cuTexObjectDestroy(O);
  EXPECT_EQ(std::vector<uint32_t>(6, 0), sizes(0, 0, false)) << "handle 0";
  EXPECT_EQ(std::vector<uint32_t>(6, 0), sizes(0, 0, true)) << "unbound";
  CUtexref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetTexRef(&Ref, Module, "r"));
  size_t Offset;
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, Ref, P, 40 * 8));
  ASSERT_EQ(CUDA_SUCCESS, cuTexRefSetFormat(Ref, CU_AD_FORMAT_FLOAT, 2));
  EXPECT_EQ((std::vector<uint32_t>{40, 0, 0, 40, 0, 0}), sizes(0, 0, true))
      << "a reference bound to linear memory";
}

TEST_F(PtxTextureQueries, OtherQueriesAreRefused) {
  std::string Log;
  EXPECT_EQ(
      CUDA_ERROR_INVALID_PTX,
      load(ptxHeader() + kernelWith("txq.filter_mode.b32 %r1, [t]"), &Log));
  EXPECT_NE(std::string::npos, Log.find("filter_mode is not supported")) << Log;
}

} // namespace
