//===- SurfaceTest.cpp - Surface objects and surface references -----------===//
//
// The CUDA 4 guide's 3.2.10.2 and the driver API's cuSurfObject* and
// cuSurfRef*: validation as NVIDIA's driver answers it on an H200 (including
// what it accepts: arrays without CUDA_ARRAY3D_SURFACE_LDST for objects, any
// value for cuSurfObjectDestroy), and kernels reading and writing through
// both. tests/textures/SurfaceConformance.cpp covers the accesses themselves.
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"

#include <cstring>
#include <vector>

using namespace cuapi;

namespace {

class SurfaceTest : public DriverTest {
protected:
  void TearDown() override {
    for (CUsurfObject O : Objects)
      EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(O));
    for (CUarray A : Arrays)
      EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
    if (Mod) {
      EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
    }
    DriverTest::TearDown();
  }

  /// A Width x Height (x Depth) array of 32-bit words, destroyed by
  /// TearDown unless \p Keep is false.
  CUarray array(unsigned Flags, size_t Width = 8, size_t Height = 4,
                size_t Depth = 0, bool Keep = true) {
    CUDA_ARRAY3D_DESCRIPTOR D{};
    D.Width = Width;
    D.Height = Height;
    D.Depth = Depth;
    D.Format = CU_AD_FORMAT_UNSIGNED_INT32;
    D.NumChannels = 1;
    D.Flags = Flags;
    CUarray A = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuArray3DCreate(&A, &D));
    if (Keep)
      Arrays.push_back(A);
    return A;
  }
  static CUDA_RESOURCE_DESC arrayResource(CUarray A) {
    CUDA_RESOURCE_DESC R{};
    R.resType = CU_RESOURCE_TYPE_ARRAY;
    R.res.array.hArray = A;
    return R;
  }
  /// A surface object for \p A, destroyed by TearDown.
  CUsurfObject object(CUarray A) {
    CUDA_RESOURCE_DESC R = arrayResource(A);
    CUsurfObject O = 0;
    EXPECT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&O, &R));
    Objects.push_back(O);
    return O;
  }
  /// Fills the first 8 x 4 words of \p A with 100, 101, ...
  static void fill(CUarray A, std::vector<unsigned> &Words) {
    Words.resize(32);
    for (unsigned I = 0; I < 32; ++I)
      Words[I] = 100 + I;
    CUDA_MEMCPY2D C{};
    C.srcMemoryType = CU_MEMORYTYPE_HOST;
    C.srcHost = Words.data();
    C.srcPitch = 32;
    C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    C.dstArray = A;
    C.WidthInBytes = 32;
    C.Height = 4;
    ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C));
  }
  static std::vector<unsigned> contents(CUarray A) {
    std::vector<unsigned> Words(32);
    CUDA_MEMCPY2D C{};
    C.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    C.srcArray = A;
    C.dstMemoryType = CU_MEMORYTYPE_HOST;
    C.dstHost = Words.data();
    C.dstPitch = 32;
    C.WidthInBytes = 32;
    C.Height = 4;
    EXPECT_CU(CUDA_SUCCESS, cuMemcpy2D(&C));
    return Words;
  }
  void load(const char *Path) {
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&Mod, Path))
        << "setup: the test kernels (" << Path << ")";
  }

  std::vector<CUarray> Arrays;
  std::vector<CUsurfObject> Objects;
  CUmodule Mod = nullptr;
};

TEST_F(SurfaceTest, ObjectOfAnArrayDescribesIt) {
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST);
  CUsurfObject O = object(A);
  EXPECT_NE(0u, O) << "a surface object's handle is never 0";
  CUDA_RESOURCE_DESC R;
  std::memset(&R, 0xab, sizeof(R));
  ASSERT_CU(CUDA_SUCCESS, cuSurfObjectGetResourceDesc(&R, O));
  EXPECT_EQ(CU_RESOURCE_TYPE_ARRAY, R.resType);
  EXPECT_EQ(A, R.res.array.hArray) << "the array the object was made for";
  EXPECT_EQ(0u, R.flags);
  EXPECT_EQ(0xab, reinterpret_cast<unsigned char *>(&R)[20])
      << "NVIDIA's driver writes the type, the array and the flags only";
  CUsurfObject Other = object(A);
  EXPECT_NE(O, Other) << "two objects of one array have their own handles";
}

TEST_F(SurfaceTest, ObjectTakesArraysWithoutSurfaceLoadStore) {
  // NVIDIA's driver makes the object; only surface references need the flag.
  CUDA_ARRAY_DESCRIPTOR D{};
  D.Width = 8;
  D.Height = 4;
  D.Format = CU_AD_FORMAT_FLOAT;
  D.NumChannels = 1;
  CUarray Plain = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&Plain, &D));
  Arrays.push_back(Plain);
  CUDA_RESOURCE_DESC R = arrayResource(Plain);
  CUsurfObject O = 0;
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&O, &R))
      << "an array of cuArrayCreate (no flags) takes a surface object";
  Objects.push_back(O);
  R = arrayResource(array(0, 8, 4, 2));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&O, &R)) << "a 3D array";
  Objects.push_back(O);
  R = arrayResource(array(CUDA_ARRAY3D_CUBEMAP, 8, 8, 6));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&O, &R)) << "a cubemap";
  Objects.push_back(O);
}

TEST_F(SurfaceTest, ObjectNeedsAnArrayResource) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1 << 16));
  CUsurfObject O = 77;
  CUDA_RESOURCE_DESC R{};
  R.resType = CU_RESOURCE_TYPE_LINEAR;
  R.res.linear.devPtr = P;
  R.res.linear.format = CU_AD_FORMAT_FLOAT;
  R.res.linear.numChannels = 1;
  R.res.linear.sizeInBytes = 1024;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&O, &R))
      << "linear memory has no surface";
  R = {};
  R.resType = CU_RESOURCE_TYPE_PITCH2D;
  R.res.pitch2D.devPtr = P;
  R.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
  R.res.pitch2D.numChannels = 1;
  R.res.pitch2D.width = 16;
  R.res.pitch2D.height = 16;
  R.res.pitch2D.pitchInBytes = 512;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&O, &R))
      << "nor has pitched memory";
  R = {};
  R.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&O, &R))
      << "nor a mipmapped array";
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST);
  R = arrayResource(A);
  R.resType = CUresourcetype(99);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&O, &R))
      << "99 is no resource type";
  R = arrayResource(A);
  R.flags = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&O, &R))
      << "the resource's flags must be 0";
  R = arrayResource(nullptr);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&O, &R))
      << "a NULL array";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&O, nullptr))
      << "a NULL resource description";
  EXPECT_EQ(77u, O) << "a failed creation leaves the result alone";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

TEST_F(SurfaceTest, ObjectCreateNullResultRejected) {
#if CUCPU_ONLY
  CUDA_RESOURCE_DESC R = arrayResource(array(CUDA_ARRAY3D_SURFACE_LDST));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(nullptr, &R))
      << "the result pointer is NULL";
#else
  GTEST_SKIP() << "cucpu-only: cuSurfObjectCreate(NULL, ...) segfaults";
#endif
}

TEST_F(SurfaceTest, ResourceDescOfNoObjectIsInvalidValue) {
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST);
  CUsurfObject O = object(A);
  CUDA_RESOURCE_DESC R;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(nullptr, O))
      << "the result pointer is NULL";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(&R, 0))
      << "handle 0 is no surface object";
  CUtexObject T = 0;
  CUDA_RESOURCE_DESC TexRes = arrayResource(A);
  CUDA_TEXTURE_DESC Tex{};
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&T, &TexRes, &Tex, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(&R, T))
      << "a texture object is no surface object";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&R, O))
      << "a surface object is no texture object";
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(T));
  CUsurfObject Gone = 0;
  ASSERT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&Gone, &TexRes));
  ASSERT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(Gone));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(&R, Gone))
      << "a destroyed surface object";
}

TEST_F(SurfaceTest, DestroyAnswersSuccessForAnyValue) {
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(0)) << "handle 0";
  CUDA_RESOURCE_DESC R = arrayResource(array(CUDA_ARRAY3D_SURFACE_LDST));
  CUsurfObject O = 0;
  ASSERT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&O, &R));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(O));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(O))
      << "destroying it again does nothing";
  CUtexObject T = 0;
  CUDA_TEXTURE_DESC Tex{};
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&T, &R, &Tex, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(T))
      << "a texture object's handle: success, and nothing happens";
  CUDA_RESOURCE_DESC Back;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectGetResourceDesc(&Back, T))
      << "the texture object lives on";
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(T));
}

TEST_F(SurfaceTest, ObjectOutlivesItsArray) {
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST, 8, 4, 0, /*Keep=*/false);
  CUDA_RESOURCE_DESC R = arrayResource(A);
  CUsurfObject O = 0;
  ASSERT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&O, &R));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A))
      << "an array with a surface object can be destroyed";
  CUDA_RESOURCE_DESC Back;
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectGetResourceDesc(&Back, O))
      << "the object still describes its resource";
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(O));
}

TEST_F(SurfaceTest, KernelReadsAndWritesThroughAnObject) {
  load(CUCPU_API_SURFACE_MODULE);
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST);
  std::vector<unsigned> Words;
  fill(A, Words);
  CUsurfObject O = object(A);
  CUfunction F = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&F, Mod, "incrementSurface"));
  int Width = 8, Height = 4;
  void *Args[] = {&O, &Width, &Height};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(F, 1, 4, 1, 8, 1, 1, 0, nullptr, Args, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  std::vector<unsigned> After = contents(A);
  for (unsigned I = 0; I < 32; ++I)
    EXPECT_EQ(Words[I] + 1, After[I]) << "word " << I << " read, written + 1";

  // Element 1 of row 0 (x = 4 bytes): read, then overwritten.
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&F, Mod, "readThenWrite"));
  CUdeviceptr Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, 4));
  int X = 4;
  void *Args2[] = {&Out, &O, &X};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args2, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  unsigned Read = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Read, Out, 4));
  EXPECT_EQ(102u, Read) << "x is in bytes: x = 4 is the second word";
  EXPECT_EQ(0x01020304u, contents(A)[1]) << "and was written";

  // Handle 0 reads zeros and takes writes, even in trap mode.
  CUsurfObject Null = 0;
  Read = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(Out, &Read, 4));
  void *Args3[] = {&Out, &Null, &X};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args3, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize())
      << "accesses through handle 0 do not fault";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Read, Out, 4));
  EXPECT_EQ(0u, Read) << "handle 0 reads zeros";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Out));
}

TEST_F(SurfaceTest, KernelThroughAGarbageHandleFails) {
#if CUCPU_ONLY
  load(CUCPU_API_SURFACE_MODULE);
  CUfunction F = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&F, Mod, "readThenWrite"));
  CUdeviceptr Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, 4));
  CUsurfObject Garbage = 0x12340;
  int X = 0;
  void *Args[] = {&Out, &Garbage, &X};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args, nullptr));
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize())
      << "a handle that is no surface fails the launch";
  // The context is faulted: only destroying it is left.
  Mod = nullptr;
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's answer to a garbage handle was not "
                  "measured (a fault would end the process's contexts)";
#endif
}

// --- Surface references (a module's surface<void, Type> variables) --------

class SurfRefTest : public SurfaceTest {
protected:
  void SetUp() override {
    SurfaceTest::SetUp();
    if (HasFatalFailure())
      return;
    load(CUCPU_API_SURFREF_MODULE);
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetSurfRef(&Ref, Mod, "sref"));
  }
  CUsurfref Ref = nullptr;
};

TEST_F(SurfRefTest, ModuleGivesItsSurfaceReferences) {
  CUsurfref Again = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetSurfRef(&Again, Mod, "sref"));
  EXPECT_EQ(Ref, Again) << "the same name gives the same handle";
  CUsurfref Other = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetSurfRef(&Other, Mod, "sref1"));
  EXPECT_NE(Ref, Other);
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetSurfRef(&Other, Mod, "nope"))
      << "no such variable";
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetSurfRef(&Other, Mod, "tref"))
      << "a texture reference is no surface reference";
  CUtexref T = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetTexRef(&T, Mod, "sref"))
      << "a surface reference is no texture reference";
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&T, Mod, "tref"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetSurfRef(nullptr, Mod, "sref"))
      << "a NULL result pointer";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetSurfRef(&Other, Mod, nullptr))
      << "a NULL name";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuModuleGetSurfRef(&Other, nullptr, "sref"))
      << "a NULL module";
}

TEST_F(SurfRefTest, SetArrayNeedsSurfaceLoadStore) {
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST);
  CUarray Got = reinterpret_cast<CUarray>(uintptr_t(0x1234));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefGetArray(&Got, Ref))
      << "nothing is bound yet";
  EXPECT_EQ(reinterpret_cast<CUarray>(uintptr_t(0x1234)), Got)
      << "and the result is left alone";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefGetArray(nullptr, Ref))
      << "a NULL result pointer";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSurfRefGetArray(&Got, nullptr))
      << "a NULL reference";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefSetArray(Ref, array(0), 0))
      << "an array without CUDA_ARRAY3D_SURFACE_LDST";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefSetArray(Ref, A, 1))
      << "the flags must be 0";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSurfRefSetArray(Ref, nullptr, 0))
      << "a NULL array";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSurfRefSetArray(nullptr, A, 0))
      << "a NULL reference";
  ASSERT_CU(CUDA_SUCCESS, cuSurfRefSetArray(Ref, A, 0));
  ASSERT_CU(CUDA_SUCCESS, cuSurfRefGetArray(&Got, Ref));
  EXPECT_EQ(A, Got) << "the bound array";
  CUarray Cube = array(CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED |
                           CUDA_ARRAY3D_SURFACE_LDST,
                       8, 8, 12);
  EXPECT_CU(CUDA_SUCCESS, cuSurfRefSetArray(Ref, Cube, 0))
      << "any array with the flag, a layered cubemap too";
}

TEST_F(SurfRefTest, GetArrayOfABoundReferenceChecksTheResultPointer) {
#if CUCPU_ONLY
  ASSERT_CU(CUDA_SUCCESS,
            cuSurfRefSetArray(Ref, array(CUDA_ARRAY3D_SURFACE_LDST), 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefGetArray(nullptr, Ref))
      << "a NULL result pointer";
#else
  GTEST_SKIP() << "cucpu-only: a run that asked this crashed (SIGSEGV)";
#endif
}

TEST_F(SurfRefTest, KernelReadsAndWritesThroughAReference) {
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST);
  std::vector<unsigned> Words;
  fill(A, Words);
  ASSERT_CU(CUDA_SUCCESS, cuSurfRefSetArray(Ref, A, 0));
  CUfunction F = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&F, Mod, "inc2d"));
  unsigned X = 12, Y = 2;
  void *Args[] = {&X, &Y};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  std::vector<unsigned> After = contents(A);
  for (unsigned I = 0; I < 32; ++I)
    EXPECT_EQ(Words[I] + (I == 2 * 8 + 3), After[I])
        << "word " << I << ": only byte 12 of row 2 (word 3) changed";
}

TEST_F(SurfRefTest, UnboundReferenceReadsZeros) {
  CUfunction F = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&F, Mod, "read1d"));
  CUdeviceptr Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(Out, 0xee, 4));
  unsigned X = 0;
  void *Args[] = {&Out, &X};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "an unbound reference";
  unsigned Read = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Read, Out, 4));
  EXPECT_EQ(0u, Read) << "reads zeros";

  // Bound to an array that is then destroyed: unbound again.
  CUsurfref Ref1 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetSurfRef(&Ref1, Mod, "sref1"));
  CUarray A = array(CUDA_ARRAY3D_SURFACE_LDST, 8, 0, 0, /*Keep=*/false);
  std::vector<unsigned> Ones(8, 1);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(A, 0, Ones.data(), 32));
  ASSERT_CU(CUDA_SUCCESS, cuSurfRefSetArray(Ref1, A, 0));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A)) << "a bound array";
  CUarray Got = reinterpret_cast<CUarray>(uintptr_t(0x1234));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefGetArray(&Got, Ref1))
      << "its array is gone";
  EXPECT_EQ(reinterpret_cast<CUarray>(uintptr_t(0x1234)), Got)
      << "and the result is left alone";
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  Read = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Read, Out, 4));
  EXPECT_EQ(0u, Read) << "a reference whose array was destroyed reads zeros";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Out));
}

} // namespace
