//===- SurfacesTest.cpp - PTX kernels: suld, sust and surface references --===//
//
// nvcc's PTX of surfaces.cu (surface reads and writes of every geometry
// through surface objects) runs beside cucc's image of the same source, and
// every read must return, and every write leave, the same bytes through
// both. Hand-written PTX reads and writes through a surface reference bound
// with the driver API; unsupported forms must fail to load with a message.
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>

using namespace cucpu::test;

namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// A surface geometry of surfaces.cu and the array it accesses.
struct Geometry {
  const char *Name;
  unsigned Width, Height, Depth, Flags;
  unsigned Dims;   ///< Coordinates the access takes (x, y, z).
  unsigned Slices; ///< Of z (layers, faces, 3D slices); 1 if none.
};

const Geometry Geometries[] = {
    {"1d", 41, 0, 0, 0, 1, 1},
    {"2d", 37, 5, 0, 0, 2, 1},
    {"3d", 21, 4, 3, 0, 3, 3},
    {"l1d", 41, 0, 3, CUDA_ARRAY3D_LAYERED, 1, 3},
    {"l2d", 21, 5, 3, CUDA_ARRAY3D_LAYERED, 2, 3},
    {"cube", 20, 20, 6, CUDA_ARRAY3D_CUBEMAP, 2, 6},
};

/// An element type of surfaces.cu and its size.
struct Type {
  const char *Name;
  unsigned Bytes;
};

/// Element formats: 1-byte and 16-byte elements (accesses smaller and
/// larger than an element).
const std::pair<CUarray_format, unsigned> Elements[] = {
    {CU_AD_FORMAT_UNSIGNED_INT8, 1}, {CU_AD_FORMAT_UNSIGNED_INT32, 4}};

constexpr unsigned Threads = 64;

class PtxSurfaces : public PtxKernelTest {
protected:
  void SetUp() override {
    PtxKernelTest::SetUp();
    std::string Ptx = readFile(CUCPU_PTX_TEST_SOURCE_DIR "/surfaces.sm_75.ptx");
    ASSERT_FALSE(Ptx.empty()) << "surfaces.sm_75.ptx is missing";
    ASSERT_TRUE(loads(Ptx));
    ASSERT_EQ(CUDA_SUCCESS,
              cuModuleLoad(&Cucc, CUCPU_PTX_TEST_BINARY_DIR "/surfaces.cubin"))
        << "cucc's image of surfaces.cu";
  }
  void TearDown() override {
    for (CUsurfObject S : Objects)
      cuSurfObjectDestroy(S);
    for (CUarray A : Arrays)
      cuArrayDestroy(A);
    if (Cucc)
      cuModuleUnload(Cucc);
    PtxKernelTest::TearDown();
  }

  /// An array of \p G with \p Channels of \p Format holding \p Bytes.
  CUarray array(const Geometry &G, CUarray_format Format, unsigned Channels,
                const std::vector<uint8_t> &Bytes) {
    CUDA_ARRAY3D_DESCRIPTOR D = {G.Width,  G.Height,
                                 G.Depth,  Format,
                                 Channels, G.Flags | CUDA_ARRAY3D_SURFACE_LDST};
    CUarray A = nullptr;
    EXPECT_EQ(CUDA_SUCCESS, cuArray3DCreate(&A, &D));
    Arrays.push_back(A);
    copy(A, G, rowBytes(G, Format, Channels),
         const_cast<uint8_t *>(Bytes.data()),
         /*ToArray=*/true);
    return A;
  }

  static size_t rowBytes(const Geometry &G, CUarray_format Format,
                         unsigned Channels) {
    return G.Width * Channels * (Format == CU_AD_FORMAT_UNSIGNED_INT8 ? 1 : 4);
  }
  static size_t totalBytes(const Geometry &G, size_t Row) {
    return Row * std::max(1u, G.Height) * std::max(1u, G.Depth);
  }

  /// Copies the whole array \p A to or from \p Host.
  void copy(CUarray A, const Geometry &G, size_t Row, uint8_t *Host,
            bool ToArray) {
    CUDA_MEMCPY3D C = {};
    if (ToArray) {
      C.srcMemoryType = CU_MEMORYTYPE_HOST;
      C.srcHost = Host;
      C.srcPitch = Row;
      C.srcHeight = std::max(1u, G.Height);
      C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
      C.dstArray = A;
    } else {
      C.srcMemoryType = CU_MEMORYTYPE_ARRAY;
      C.srcArray = A;
      C.dstMemoryType = CU_MEMORYTYPE_HOST;
      C.dstHost = Host;
      C.dstPitch = Row;
      C.dstHeight = std::max(1u, G.Height);
    }
    C.WidthInBytes = Row;
    C.Height = std::max(1u, G.Height);
    C.Depth = std::max(1u, G.Depth);
    EXPECT_EQ(CUDA_SUCCESS, cuMemcpy3D(&C));
  }

  CUsurfObject surface(CUarray A) {
    CUDA_RESOURCE_DESC R = {};
    R.resType = CU_RESOURCE_TYPE_ARRAY;
    R.res.array.hArray = A;
    CUsurfObject S = 0;
    EXPECT_EQ(CUDA_SUCCESS, cuSurfObjectCreate(&S, &R));
    Objects.push_back(S);
    return S;
  }

  /// Coordinates (x in bytes, y, z) of accesses of \p Bytes to a row of
  /// \p Row bytes: aligned x from two accesses before the row to two past
  /// it, y and z from -1 to one past the last.
  std::vector<int32_t> coordinates(const Geometry &G, size_t Row,
                                   unsigned Bytes, uint32_t Seed) {
    std::mt19937 Rng(Seed);
    std::vector<int32_t> C(4 * Threads);
    int32_t Units = int32_t(Row / Bytes) + 4;
    for (unsigned I = 0; I < Threads; ++I) {
      C[4 * I] = (int32_t(Rng() % Units) - 2) * int32_t(Bytes);
      C[4 * I + 1] = int32_t(Rng() % (std::max(1u, G.Height) + 2)) - 1;
      C[4 * I + 2] = int32_t(Rng() % (G.Slices + 2)) - 1;
      C[4 * I + 3] = 0;
    }
    return C;
  }

  CUresult launch(CUmodule M, const std::string &Kernel,
                  std::vector<void *> Params) {
    CUfunction F;
    CUresult R = cuModuleGetFunction(&F, M, Kernel.c_str());
    if (R != CUDA_SUCCESS)
      return R;
    R = cuLaunchKernel(F, Threads / 32, 1, 1, 32, 1, 1, 0, nullptr,
                       Params.data(), nullptr);
    return R != CUDA_SUCCESS ? R : cuCtxSynchronize();
  }

  /// Reads with r_<G>_<T>_<Mode> and writes with w_<G>_<T>_<Mode> through
  /// nvcc's PTX and cucc's image, on arrays of equal bytes, and expects the
  /// same bytes from every read and in the arrays after the writes.
  void compare(const Geometry &G, const Type &T, const char *Mode,
               uint32_t Seed) {
    for (auto [Format, Channels] : Elements) {
      size_t Row = rowBytes(G, Format, Channels);
      std::vector<uint8_t> Bytes(totalBytes(G, Row));
      std::mt19937 Rng(Seed);
      for (uint8_t &B : Bytes)
        B = uint8_t(Rng());
      std::vector<int32_t> Coords = coordinates(G, Row, T.Bytes, Seed + 1);
      std::vector<uint8_t> Values(16 * Threads);
      for (uint8_t &B : Values)
        B = uint8_t(Rng());
      CUdeviceptr C = upload(Coords), V = upload(Values);
      unsigned N = Threads;
      std::string What = std::string(G.Name) + " " + T.Name + " " + Mode +
                         ", " + std::to_string(Channels) + "-channel " +
                         (Format == CU_AD_FORMAT_UNSIGNED_INT8 ? "u8" : "u32");
      std::vector<uint8_t> Read[2], Written[2];
      CUmodule Modules[2] = {Module, Cucc};
      for (int M = 0; M < 2; ++M) {
        CUsurfObject S = surface(array(G, Format, Channels, Bytes));
        CUdeviceptr Out = upload(std::vector<uint8_t>(16 * Threads, 0xa5));
        std::string Reader =
                        std::string("r_") + G.Name + "_" + T.Name + "_" + Mode,
                    Writer = "w" + Reader.substr(1);
        ASSERT_EQ(CUDA_SUCCESS, launch(Modules[M], Reader, {&Out, &C, &N, &S}))
            << Reader;
        Read[M] = download<uint8_t>(Out, 16 * Threads);
        ASSERT_EQ(CUDA_SUCCESS, launch(Modules[M], Writer, {&C, &V, &N, &S}))
            << Writer;
        Written[M].resize(Bytes.size());
        copy(Arrays.back(), G, Row, Written[M].data(), /*ToArray=*/false);
      }
      for (unsigned I = 0; I < Threads; ++I)
        EXPECT_TRUE(std::equal(&Read[0][16 * I], &Read[0][16 * I + 16],
                               &Read[1][16 * I]))
            << What << ": read " << I << " at (" << Coords[4 * I] << ", "
            << Coords[4 * I + 1] << ", " << Coords[4 * I + 2]
            << ") differs from cucc's";
      EXPECT_TRUE(Written[0] == Written[1])
          << What << ": the writes left other bytes than cucc's";
      EXPECT_TRUE(Written[0] != Bytes) << What << ": no write landed";
      EXPECT_TRUE(Read[0] != std::vector<uint8_t>(16 * Threads, 0xa5))
          << What << ": no read stored anything";
    }
  }

  CUmodule Cucc = nullptr;
  std::vector<CUsurfObject> Objects;
  std::vector<CUarray> Arrays;
};

TEST_F(PtxSurfaces, EveryGeometryMatchesCucc) {
  const Type Types[] = {{"uchar1", 1}, {"uint1", 4}, {"uint4", 16}};
  uint32_t Seed = 1;
  for (const Geometry &G : Geometries)
    for (const Type &T : Types)
      for (const char *Mode : {"zero", "clamp"})
        compare(G, T, Mode, Seed += 7);
}

TEST_F(PtxSurfaces, EveryAccessShapeMatchesCucc) {
  // .b16, .v2.b32, .v4.b8, .v2.b16, .b64 and .v2.b64 accesses in 2D.
  const Type Types[] = {{"ushort1", 2}, {"uint2", 8},      {"uchar4", 4},
                        {"ushort2", 4}, {"ulonglong1", 8}, {"ulonglong2", 16}};
  uint32_t Seed = 5;
  for (const Type &T : Types)
    for (const char *Mode : {"zero", "clamp"})
      compare(Geometries[1], T, Mode, Seed += 11);
}

TEST_F(PtxSurfaces, TrapModeFailsTheLaunchOutside) {
  std::vector<uint8_t> Bytes(37 * 5 * 4);
  for (size_t I = 0; I < Bytes.size(); ++I)
    Bytes[I] = uint8_t(I);
  CUsurfObject S =
      surface(array(Geometries[1], CU_AD_FORMAT_UNSIGNED_INT32, 1, Bytes));
  // Inside: the element at byte 8 of row 2.
  std::vector<int32_t> Coords = {8, 2, 0, 0};
  CUdeviceptr C = upload(Coords);
  CUdeviceptr Out = upload(std::vector<uint32_t>(4, 0));
  unsigned N = 1;
  ASSERT_EQ(CUDA_SUCCESS,
            launch(Module, "r_2d_uint1_trap", {&Out, &C, &N, &S}));
  uint32_t Expected;
  std::memcpy(&Expected, &Bytes[2 * 148 + 8], 4);
  EXPECT_EQ(Expected, download<uint32_t>(Out, 1)[0]);
  // Outside: the launch fails.
  Coords = {148, 0, 0, 0};
  C = upload(Coords);
  EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS,
            launch(Module, "r_2d_uint1_trap", {&Out, &C, &N, &S}))
      << "x 148 is past the last 4-byte access of a 148-byte row";
}

/// Copies the uint at the byte offset at coords[i] of row coords[i + 1] of
/// surface s to column x + 4 of the same row.
const char *const ReferenceKernel = R"(
.global .surfref s;
.global .texref t;

.visible .entry copy(.param .u64 coords)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [coords];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.v2.u32 {%r2, %r3}, [%rd3];
  suld.b.2d.b32.trap {%r4}, [s, {%r2, %r3}];
  add.s32 %r5, %r2, 16;
  sust.b.2d.b32.zero [s, {%r5, %r3}], {%r4};
  ret;
}
)";

using PtxSurfaceReferences = PtxKernelTest;

TEST_F(PtxSurfaceReferences, ReferenceReadsAndWritesItsArray) {
  ASSERT_TRUE(loads(ptxHeader() + ReferenceKernel));
  CUsurfref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetSurfRef(&Ref, Module, "s"))
      << "the PTX module's .surfref is a surface reference";
  CUtexref Tex;
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND, cuModuleGetTexRef(&Tex, Module, "s"))
      << "a .surfref is no texture reference";
  // 8 x 3 uint32 elements, 100 y + x.
  CUDA_ARRAY3D_DESCRIPTOR D = {
      8, 3, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST};
  CUarray A;
  ASSERT_EQ(CUDA_SUCCESS, cuArray3DCreate(&A, &D));
  std::vector<uint32_t> Elements;
  for (uint32_t Y = 0; Y < 3; ++Y)
    for (uint32_t X = 0; X < 8; ++X)
      Elements.push_back(100 * Y + X);
  auto Copy = [&](uint32_t *Host, bool ToArray) {
    CUDA_MEMCPY2D C = {};
    C.srcMemoryType = ToArray ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_ARRAY;
    C.srcHost = Host;
    C.srcArray = A;
    C.srcPitch = 32;
    C.dstMemoryType = ToArray ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_HOST;
    C.dstHost = Host;
    C.dstArray = A;
    C.dstPitch = 32;
    C.WidthInBytes = 32;
    C.Height = 3;
    return cuMemcpy2D(&C);
  };
  ASSERT_EQ(CUDA_SUCCESS, Copy(Elements.data(), true));
  ASSERT_EQ(CUDA_SUCCESS, cuSurfRefSetArray(Ref, A, 0));
  // Elements (0, 0), (2, 1), (3, 2) copied four to the right; (6, 2) would
  // land past the row (zero mode drops it).
  std::vector<int32_t> Coords = {0, 0, 8, 1, 12, 2, 24, 2};
  CUdeviceptr C = upload(Coords);
  ASSERT_EQ(CUDA_SUCCESS, run("copy", 1, 4, {&C}));
  std::vector<uint32_t> After(8 * 3);
  ASSERT_EQ(CUDA_SUCCESS, Copy(After.data(), false));
  std::vector<uint32_t> Expected = Elements;
  Expected[4] = 0;
  Expected[8 + 6] = 102;
  Expected[16 + 7] = 203;
  EXPECT_EQ(Expected, After);
  cuArrayDestroy(A);
}

/// out[0..2]: suq.width/height/depth through the object h (sizes) or the
/// reference r (refsizes).
const char *const QueryKernels = R"(
.global .surfref r;

.visible .entry sizes(.param .u64 out, .param .u64 h)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [h];
  suq.width.b32 %r1, [%rd2];
  suq.height.b32 %r2, [%rd2];
  suq.depth.b32 %r3, [%rd2];
  st.global.v2.u32 [%rd1], {%r1, %r2};
  st.global.u32 [%rd1+8], %r3;
  ret;
}

.visible .entry refsizes(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  suq.width.b32 %r1, [r];
  suq.height.b32 %r2, [r];
  suq.depth.b32 %r3, [r];
  st.global.v2.u32 [%rd1], {%r1, %r2};
  st.global.u32 [%rd1+8], %r3;
  ret;
}
)";

using PtxSurfaceQueries = PtxKernelTest;

TEST_F(PtxSurfaceQueries, SizesAreTheH200s) {
  ASSERT_TRUE(loads(ptxHeader() + QueryKernels));
  auto Sizes = [&](CUsurfObject H, bool Reference) {
    CUdeviceptr Out = upload(std::vector<uint32_t>(3, 0xeeeeeeee));
    EXPECT_EQ(CUDA_SUCCESS, Reference ? run("refsizes", 1, 1, {&Out})
                                      : run("sizes", 1, 1, {&Out, &H}));
    return download<uint32_t>(Out, 3);
  };
  // The H200's answers (driver 580): sizes in elements; a 1D surface has
  // 0 rows, a 1D layered one its layers as rows, cubemaps their faces.
  struct Case {
    unsigned W, H, D, Flags;
    std::vector<uint32_t> Expected;
  } Cases[] = {
      {13, 0, 0, 0, {13, 0, 0}},
      {7, 5, 0, 0, {7, 5, 0}},
      {5, 4, 3, 0, {5, 4, 3}},
      {9, 0, 3, CUDA_ARRAY3D_LAYERED, {9, 3, 0}},
      {6, 5, 3, CUDA_ARRAY3D_LAYERED, {6, 5, 3}},
      {4, 4, 6, CUDA_ARRAY3D_CUBEMAP, {4, 4, 6}},
      {4, 4, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, {4, 4, 12}},
  };
  CUsurfref Ref;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetSurfRef(&Ref, Module, "r"));
  EXPECT_EQ(std::vector<uint32_t>(3, 0), Sizes(0, true)) << "unbound";
  EXPECT_EQ(std::vector<uint32_t>(3, 0), Sizes(0, false)) << "handle 0";
  std::vector<CUarray> Arrays;
  for (const Case &C : Cases) {
    CUDA_ARRAY3D_DESCRIPTOR D = {C.W, C.H,
                                 C.D, CU_AD_FORMAT_SIGNED_INT16,
                                 2,   C.Flags | CUDA_ARRAY3D_SURFACE_LDST};
    CUarray A;
    ASSERT_EQ(CUDA_SUCCESS, cuArray3DCreate(&A, &D));
    Arrays.push_back(A);
    CUDA_RESOURCE_DESC R = {};
    R.resType = CU_RESOURCE_TYPE_ARRAY;
    R.res.array.hArray = A;
    CUsurfObject S;
    ASSERT_EQ(CUDA_SUCCESS, cuSurfObjectCreate(&S, &R));
    std::string What = std::to_string(C.W) + "x" + std::to_string(C.H) + "x" +
                       std::to_string(C.D) + " flags " +
                       std::to_string(C.Flags);
    EXPECT_EQ(C.Expected, Sizes(S, false)) << What;
    ASSERT_EQ(CUDA_SUCCESS, cuSurfRefSetArray(Ref, A, 0));
    EXPECT_EQ(C.Expected, Sizes(0, true)) << What << " through a reference";
    cuSurfObjectDestroy(S);
  }
  for (CUarray A : Arrays)
    cuArrayDestroy(A);
}

std::string kernelWith(const std::string &Instruction) {
  return ".global .texref t;\n.global .surfref s;\n"
         ".visible .entry k(.param .u64 h)\n{\n"
         "  .reg .b32 %r<9>;\n  .reg .b64 %rd<2>;\n"
         "  ld.param.u64 %rd1, [h];\n  " +
         Instruction + ";\n  ret;\n}\n";
}

class PtxSurfaceErrors : public PtxKernelTest {
protected:
  void expectRefused(const std::string &Body, const std::string &Message) {
    std::string Log;
    EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load(ptxHeader() + Body, &Log)) << Body;
    EXPECT_NE(std::string::npos, Log.find(Message)) << Log;
  }
};

TEST_F(PtxSurfaceErrors, UnsupportedFormsAreRefusedWithAMessage) {
  expectRefused(kernelWith("sust.p.2d.v4.b32.trap [s, {%r1, %r2}], {%r3, %r4, "
                           "%r5, %r6}"),
                "formatted surface accesses");
  expectRefused(kernelWith("suld.b.2d.b32.trap {%r1}, [t, {%r1, %r2}]"),
                "t is not a surface reference");
  expectRefused(kernelWith("suld.b.2d.v4.b64.trap {%rd1, %rd1, %rd1, %rd1}, "
                           "[s, {%r1, %r2}]"),
                "at most 16 bytes");
  expectRefused(kernelWith("suld.b.2d.v2.b32.trap {%r1}, [s, {%r1, %r2}]"),
                "2 elements");
  expectRefused(kernelWith("sust.b.3d.b32.trap [s, {%r1, %r2}], {%r3}"),
                "takes 3 coordinates");
  // NVIDIA's driver refuses these too (CUDA_ERROR_NOT_SUPPORTED).
  expectRefused(kernelWith("suq.channel_order.b32 %r1, [s]"),
                "channel_order is not supported");
}

} // namespace
