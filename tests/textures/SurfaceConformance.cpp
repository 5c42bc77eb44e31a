//===- SurfaceConformance.cpp - Surface accesses compared with an H200 ----===//
//
// Reads and writes through surface objects of every array format (8-, 16-
// and 32-bit integers, half and float) with 1, 2 and 4 channels, in every
// geometry (1D, 2D, 3D, 1D and 2D layered, cubemap, layered cubemap), with
// every access size (1, 2, 4, 8 and 16 bytes) and boundary mode, at
// coordinates in range, at the edges, misaligned (x, in bytes, not a multiple
// of the element or access size) and out of range.
//
//   surface_conformance MODULE --record FILE [--isolate JOBS]
//       writes every result
//   surface_conformance MODULE --check FILE [--isolate JOBS]
//       compares with FILE
//
// MODULE holds surface.cu's kernels: nvcc's cubin on NVIDIA's driver, cucc's
// on cucpu. Only <cuda.h> is used, so the same program runs on both drivers.
// A read records the 16 bytes at its result slot (0xee where it stored
// nothing); a write records the bytes of the array it changed ("offset:byte"
// in the array's packed order, x fastest) or "-". A launch that fails records
// "fault" and the error's name: each coordinate of a case whose launch
// failed runs again on its own, so each line says what that coordinate alone
// does. In one process a failed launch's context is replaced by a new one;
// NVIDIA's driver makes no new context after a fault, so there --isolate
// runs the cases in child processes (JOBS at a time for the coordinates of a
// failed case).
//
//===----------------------------------------------------------------------===//
#include "FetchRecords.h"

#include <cuda.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

std::string errorName(CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  return Name ? Name : "CUDA_ERROR_" + std::to_string(int(R));
}

struct Format {
  const char *Name;
  CUarray_format Code;
  unsigned Bytes;
};

/// The eight formats, with channel counts, in an order whose first five
/// entries have elements of 1, 2, 4, 8 and 16 bytes.
struct FormatChannels {
  Format F;
  unsigned Channels;
};
const Format U8{"u8", CU_AD_FORMAT_UNSIGNED_INT8, 1},
    S8{"s8", CU_AD_FORMAT_SIGNED_INT8, 1},
    U16{"u16", CU_AD_FORMAT_UNSIGNED_INT16, 2},
    S16{"s16", CU_AD_FORMAT_SIGNED_INT16, 2},
    U32{"u32", CU_AD_FORMAT_UNSIGNED_INT32, 4},
    S32{"s32", CU_AD_FORMAT_SIGNED_INT32, 4}, F16{"f16", CU_AD_FORMAT_HALF, 2},
    F32{"f32", CU_AD_FORMAT_FLOAT, 4};
const FormatChannels Configs[] = {
    {U8, 1},  {U16, 1}, {U32, 1}, {U32, 2}, {U32, 4}, {U8, 2},
    {U8, 4},  {U16, 2}, {U16, 4}, {S8, 1},  {S8, 2},  {S8, 4},
    {S16, 1}, {S16, 2}, {S16, 4}, {S32, 1}, {S32, 2}, {S32, 4},
    {F16, 1}, {F16, 2}, {F16, 4}, {F32, 1}, {F32, 2}, {F32, 4}};

/// A geometry: its kernel name part, extent (Height and Depth as
/// cuArray3DCreate takes them) and array flags.
struct Geometry {
  const char *Name;
  size_t Width, Height, Depth;
  unsigned Flags;
};
const Geometry Geometries[] = {
    {"1d", 5, 0, 0, 0},
    {"2d", 5, 3, 0, 0},
    {"3d", 4, 3, 2, 0},
    {"l1d", 5, 0, 3, CUDA_ARRAY3D_LAYERED},
    {"l2d", 4, 3, 2, CUDA_ARRAY3D_LAYERED},
    {"cube", 3, 3, 6, CUDA_ARRAY3D_CUBEMAP},
    {"lcube", 2, 2, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED}};

const unsigned AccessSizes[] = {1, 2, 4, 8, 16};
const char *ModeNames[] = {"zero", "clamp", "trap"};

using Coord = std::array<int, 4>;

void addUnique(std::vector<int> &List, int V) {
  if (std::find(List.begin(), List.end(), V) == List.end())
    List.push_back(V);
}

/// Rounds \p V down to a multiple of \p L.
int roundDown(int V, int L) {
  return V >= 0 ? V / L * L : -((-V + L - 1) / L * L);
}

/// The coordinates of a case: x (bytes, a multiple of both the element and
/// the access size) inside, at the edges and out of range, with y and z
/// inside; then y and z likewise; then corners. Trap mode gets a short list
/// (each fault costs a context).
std::vector<Coord> coordinates(const Geometry &G, unsigned E, unsigned A,
                               bool Trap) {
  int N = int(G.Width), H = int(G.Height ? G.Height : 1),
      D = int(G.Depth ? G.Depth : 1), Row = N * int(E), L = int(std::max(A, E));
  std::vector<int> X, Y, Z;
  if (Trap) {
    for (int V :
         {0, roundDown((N - 1) * int(E), L), roundDown(Row + L - 1, L), -L})
      addUnique(X, V);
    for (int V : {0, H})
      addUnique(Y, V);
    for (int V : {0, D})
      addUnique(Z, V);
  } else {
    for (int V : {0, L, 2 * L, (N - 1) * int(E), Row - L, Row - 1, Row, Row + L,
                  2 * Row, -1, -L, -2 * L, -Row, 1 << 20, -(1 << 20)})
      addUnique(X, roundDown(V, L));
    for (int V : {0, 1, H - 1, H, H + 1, -1, -H, 1000})
      addUnique(Y, V);
    for (int V : {0, D - 1, D, -1, D + 3})
      addUnique(Z, V);
  }
  bool HasY = G.Height != 0, HasZ = G.Depth != 0;
  int YMid = H > 1 ? 1 : 0, ZLast = D - 1, XIn = roundDown(int(E), L);
  std::vector<Coord> Out;
  for (int V : X)
    Out.push_back({V, YMid, ZLast, 0});
  if (HasY)
    for (int V : Y)
      if (V != YMid)
        Out.push_back({XIn, V, 0, 0});
  if (HasZ)
    for (int V : Z)
      if (V != ZLast)
        Out.push_back({XIn, YMid, V, 0});
  if (!Trap) {
    Out.push_back({roundDown(Row + L - 1, L), HasY ? H : 0, HasZ ? D : 0, 0});
    Out.push_back({-L, HasY ? -1 : 0, HasZ ? -1 : 0, 0});
    Out.push_back({roundDown(Row - 1, L), H - 1, D - 1, 0});
  }
  return Out;
}

/// Coordinates whose x is not a multiple of the element size \p E or of
/// the access size \p A (in a 2D array of \p N elements per row), inside
/// and outside the row.
std::vector<Coord> misalignedCoordinates(unsigned N, unsigned E, unsigned A) {
  int Row = int(N * E);
  std::vector<Coord> Out;
  for (int V : {1, 2, 4, 8, Row + 1, -1})
    if (V % int(A) != 0 || V % int(E) != 0)
      Out.push_back({V, 1, 0, 0});
  return Out;
}

/// The bytes an array starts with: below 0x80, so that every byte a write
/// stores (0x80 and up) shows.
std::vector<unsigned char> initialBytes(size_t Size, unsigned Seed) {
  std::vector<unsigned char> B(Size);
  for (size_t I = 0; I < Size; ++I)
    B[I] = (unsigned char)((I * 7 + Seed * 13 + (I >> 4)) & 0x7f);
  return B;
}

/// The 16 bytes coordinate \p I writes.
std::array<unsigned char, 16> writtenBytes(size_t I) {
  std::array<unsigned char, 16> B;
  for (unsigned K = 0; K < 16; ++K)
    B[K] = (unsigned char)(0x80 | ((I * 17 + K * 5) & 0x7f));
  return B;
}

/// The driver's state for one format and geometry: the module and arrays
/// with surface objects, remade after a fault resets the context.
struct Session {
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CUmodule Module = nullptr;
  std::string Image;
  unsigned Resets = 0;

  void open() {
    CHECK(cuCtxCreate_v4(&Ctx, nullptr, 0, Dev));
    CHECK(cuModuleLoadData(&Module, Image.c_str()));
  }
  /// After a fault: the context is lost; a new one replaces it.
  void reset() {
    if (++Resets > MaxResets) {
      std::fprintf(stderr, "more than %u faults: giving up\n", MaxResets);
      std::exit(2);
    }
    cuCtxDestroy(Ctx);
    open();
  }
  static constexpr unsigned MaxResets = 600;
  CUfunction function(const std::string &Name) {
    CUfunction F = nullptr;
    CUresult R = cuModuleGetFunction(&F, Module, Name.c_str());
    if (R != CUDA_SUCCESS)
      fetchrecords::fail(Name.c_str(), R);
    return F;
  }
};

struct Surface {
  CUarray Array = nullptr;
  CUsurfObject Object = 0;
};

/// An array of \p F with \p Channels in geometry \p G, filled with
/// initialBytes(Seed), and a surface object for it.
Surface makeSurface(const Format &F, unsigned Channels, const Geometry &G,
                    unsigned Seed) {
  CUDA_ARRAY3D_DESCRIPTOR Desc{};
  Desc.Width = G.Width;
  Desc.Height = G.Height;
  Desc.Depth = G.Depth;
  Desc.Format = F.Code;
  Desc.NumChannels = Channels;
  Desc.Flags = G.Flags | CUDA_ARRAY3D_SURFACE_LDST;
  Surface S;
  CHECK(cuArray3DCreate(&S.Array, &Desc));
  CUDA_RESOURCE_DESC Res{};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  Res.res.array.hArray = S.Array;
  CHECK(cuSurfObjectCreate(&S.Object, &Res));
  size_t Row = G.Width * Channels * F.Bytes;
  size_t Rows = G.Height ? G.Height : 1, Slices = G.Depth ? G.Depth : 1;
  std::vector<unsigned char> Data = initialBytes(Row * Rows * Slices, Seed);
  CUDA_MEMCPY3D Copy{};
  Copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  Copy.srcHost = Data.data();
  Copy.srcPitch = Row;
  Copy.srcHeight = Rows;
  Copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  Copy.dstArray = S.Array;
  Copy.WidthInBytes = Row;
  Copy.Height = Rows;
  Copy.Depth = Slices;
  CHECK(cuMemcpy3D(&Copy));
  return S;
}

/// The packed bytes of \p S's array.
std::vector<unsigned char> arrayBytes(const Surface &S, size_t Row, size_t Rows,
                                      size_t Slices) {
  std::vector<unsigned char> Data(Row * Rows * Slices);
  CUDA_MEMCPY3D Copy{};
  Copy.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  Copy.srcArray = S.Array;
  Copy.dstMemoryType = CU_MEMORYTYPE_HOST;
  Copy.dstHost = Data.data();
  Copy.dstPitch = Row;
  Copy.dstHeight = Rows;
  Copy.WidthInBytes = Row;
  Copy.Height = Rows;
  Copy.Depth = Slices;
  CHECK(cuMemcpy3D(&Copy));
  return Data;
}

void destroy(std::vector<Surface> &Surfaces) {
  for (Surface &S : Surfaces) {
    CHECK(cuSurfObjectDestroy(S.Object));
    CHECK(cuArrayDestroy(S.Array));
  }
  Surfaces.clear();
}

std::string hexBytes(const unsigned char *B, size_t N) {
  std::string S;
  char Buf[4];
  for (size_t I = 0; I < N; ++I) {
    std::snprintf(Buf, sizeof(Buf), "%02x", B[I]);
    S += Buf;
  }
  return S;
}

/// One case: its name, coordinates and one result line per coordinate.
struct Case {
  std::string Id;
  std::vector<Coord> Coords;
  std::vector<std::string> Lines;
};

/// Runs a read (\p Write false) or write case for \p Coords on fresh
/// surfaces; returns false if the launch failed, which leaves the context
/// unusable.
bool runBatch(Session &S, const FormatChannels &FC, const Geometry &G,
              const std::string &Kernel, bool Write,
              const std::vector<Coord> &Coords, unsigned Seed,
              std::vector<std::string> &Lines, std::string &Fault) {
  unsigned N = unsigned(Coords.size());
  size_t Row = G.Width * FC.Channels * FC.F.Bytes;
  size_t Rows = G.Height ? G.Height : 1, Slices = G.Depth ? G.Depth : 1;
  std::vector<Surface> Surfaces;
  for (unsigned I = 0; I < (Write ? N : 1u); ++I)
    Surfaces.push_back(makeSurface(FC.F, FC.Channels, G, Seed));
  CUdeviceptr DC = 0, DOut = 0, DObjects = 0;
  CHECK(cuMemAlloc(&DC, N * 16));
  CHECK(cuMemAlloc(&DOut, N * 16));
  CHECK(cuMemAlloc(&DObjects, N * 8));
  CHECK(cuMemcpyHtoD(DC, Coords.data(), N * 16));
  std::vector<unsigned char> Values(N * 16);
  std::vector<CUsurfObject> Objects;
  for (unsigned I = 0; I < N; ++I) {
    auto B = writtenBytes(I);
    std::memcpy(&Values[I * 16], B.data(), 16);
    Objects.push_back(Surfaces[Write ? I : 0].Object);
  }
  if (Write) {
    CHECK(cuMemcpyHtoD(DOut, Values.data(), N * 16));
    CHECK(cuMemcpyHtoD(DObjects, Objects.data(), N * 8));
  } else {
    CHECK(cuMemsetD8(DOut, 0xee, N * 16));
  }
  CUfunction F = S.function(Kernel);
  std::vector<void *> Args;
  if (Write)
    Args = {&DC, &DOut, &N, &DObjects};
  else
    Args = {&DOut, &DC, &N, &Surfaces[0].Object};
  CUresult R =
      cuLaunchKernel(F, 1, 1, 1, 64, 1, 1, 0, nullptr, Args.data(), nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  if (R != CUDA_SUCCESS) {
    Fault = "fault " + errorName(R);
    return false;
  }
  if (Write) {
    std::vector<unsigned char> Before = initialBytes(Row * Rows * Slices, Seed);
    for (unsigned I = 0; I < N; ++I) {
      std::vector<unsigned char> After =
          arrayBytes(Surfaces[I], Row, Rows, Slices);
      std::string Line;
      for (size_t K = 0; K < After.size(); ++K)
        if (After[K] != Before[K]) {
          char Buf[40];
          std::snprintf(Buf, sizeof(Buf), "%s%zu:%02x", Line.empty() ? "" : " ",
                        K, After[K]);
          Line += Buf;
        }
      Lines.push_back(Line.empty() ? "-" : Line);
    }
  } else {
    std::vector<unsigned char> Out(N * 16);
    CHECK(cuMemcpyDtoH(Out.data(), DOut, N * 16));
    for (unsigned I = 0; I < N; ++I)
      Lines.push_back(hexBytes(&Out[I * 16], 16));
  }
  CHECK(cuMemFree(DC));
  CHECK(cuMemFree(DOut));
  CHECK(cuMemFree(DObjects));
  destroy(Surfaces);
  return true;
}

/// What a case is, before it runs.
struct Spec {
  enum KindT { Null, Typed, Sweep } Kind = Sweep;
  unsigned Index = 0; ///< Null: mode; Typed: type; Sweep: Configs index.
  unsigned Geometry = 0, Size = 0, Mode = 0, Seed = 0;
  bool Write = false, Misaligned = false;
};

struct TypedAccess {
  const char *Name;
  unsigned Size;
};
const TypedAccess TypedAccesses[] = {
    {"char2", 2},      {"uchar4", 4}, {"short2", 4}, {"ushort4", 8},
    {"float", 4},      {"int2", 8},   {"float2", 8}, {"ulonglong1", 8},
    {"longlong2", 16}, {"float4", 16}};

/// Every case, in the order of the record.
std::vector<Spec> specs() {
  std::vector<Spec> Out;
  for (unsigned Mode = 0; Mode < 3; ++Mode)
    for (bool Write : {false, true}) {
      Spec S;
      S.Kind = Spec::Null;
      S.Index = Mode;
      S.Write = Write;
      Out.push_back(S);
    }
  for (unsigned I = 0; I < std::size(TypedAccesses); ++I) {
    Spec S;
    S.Kind = Spec::Typed;
    S.Index = I;
    Out.push_back(S);
  }
  // Misaligned x faults on NVIDIA, and each fault costs a context: 2D arrays
  // of 1-, 4- and 16-byte elements; reads in zero and clamp mode, writes in
  // zero mode.
  for (unsigned Config : {0u, 2u, 4u})
    for (unsigned Size : AccessSizes)
      for (unsigned Kind = 0; Kind < 3; ++Kind) {
        Spec S;
        S.Index = Config;
        S.Geometry = 1;
        S.Size = Size;
        S.Mode = Kind == 1 ? 1 : 0;
        S.Write = Kind == 2;
        S.Seed = 500 + Config;
        S.Misaligned = true;
        const FormatChannels &FC = Configs[Config];
        if (!misalignedCoordinates(unsigned(Geometries[1].Width),
                                   FC.F.Bytes * FC.Channels, Size)
                 .empty())
          Out.push_back(S);
      }
  unsigned Seed = 1;
  for (unsigned Config = 0; Config < std::size(Configs); ++Config)
    for (unsigned G = 0; G < std::size(Geometries); ++G, ++Seed)
      for (unsigned Size : AccessSizes)
        for (unsigned Mode = 0; Mode < 3; ++Mode) {
          // Trap mode faults at every out-of-range coordinate, and each
          // fault costs a context: only 2D, with the access size of each
          // element size, and every access size for 4-byte elements.
          const FormatChannels &FC = Configs[Config];
          unsigned E = FC.F.Bytes * FC.Channels;
          if (Mode == 2 &&
              (Config >= 5 || G != 1 || (Size != E && Config != 2)))
            continue;
          for (bool Write : {false, true}) {
            Spec S;
            S.Index = Config;
            S.Geometry = G;
            S.Size = Size;
            S.Mode = Mode;
            S.Write = Write;
            S.Seed = Seed;
            Out.push_back(S);
          }
        }
  return Out;
}

std::string caseId(const Spec &S) {
  if (S.Kind == Spec::Null)
    return std::string("null-handle 2d ") + (S.Write ? "write4 " : "read4 ") +
           ModeNames[S.Index];
  if (S.Kind == Spec::Typed)
    return std::string("typed ") + TypedAccesses[S.Index].Name;
  const FormatChannels &FC = Configs[S.Index];
  return std::string(FC.F.Name) + " ch" + std::to_string(FC.Channels) + " " +
         Geometries[S.Geometry].Name + " " + (S.Write ? "write" : "read") +
         std::to_string(S.Size) + " " + ModeNames[S.Mode] +
         (S.Misaligned ? " misaligned" : "");
}

/// The coordinates of \p S, one per result line.
std::vector<Coord> caseCoords(const Spec &S) {
  if (S.Kind == Spec::Null)
    return {{0, 0, 0, 0}};
  if (S.Kind == Spec::Typed)
    // Four reads, then the array one write per coordinate changed.
    return {{0, 0, 0, 0},
            {16, 1, 0, 0},
            {64, 2, 0, 0},
            {80, 0, 0, 0},
            {0, 0, 0, 0}};
  const FormatChannels &FC = Configs[S.Index];
  const Geometry &G = Geometries[S.Geometry];
  unsigned E = FC.F.Bytes * FC.Channels;
  return S.Misaligned ? misalignedCoordinates(unsigned(G.Width), E, S.Size)
                      : coordinates(G, E, S.Size, S.Mode == 2);
}

/// Reads or writes 4 bytes through a handle of 0 (no surface).
bool executeNull(Session &S, const Spec &Sp, std::vector<std::string> &Lines,
                 std::string &Fault) {
  CUdeviceptr DC = 0, DOut = 0, DObjects = 0;
  CHECK(cuMemAlloc(&DC, 16));
  CHECK(cuMemAlloc(&DOut, 16));
  CHECK(cuMemAlloc(&DObjects, 8));
  CHECK(cuMemsetD8(DC, 0, 16));
  CHECK(cuMemsetD8(DOut, 0xee, 16));
  CHECK(cuMemsetD8(DObjects, 0, 8));
  unsigned N = 1;
  CUsurfObject Null = 0;
  std::vector<void *> Args;
  if (Sp.Write)
    Args = {&DC, &DOut, &N, &DObjects};
  else
    Args = {&DOut, &DC, &N, &Null};
  CUfunction F = S.function(std::string(Sp.Write ? "w" : "r") + "_2d_4_" +
                            ModeNames[Sp.Index]);
  CUresult R =
      cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args.data(), nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  if (R != CUDA_SUCCESS) {
    Fault = "fault " + errorName(R);
    return false;
  }
  unsigned char Out[16];
  CHECK(cuMemcpyDtoH(Out, DOut, 16));
  Lines.push_back(Sp.Write ? "ok" : hexBytes(Out, 16));
  CHECK(cuMemFree(DC));
  CHECK(cuMemFree(DOut));
  CHECK(cuMemFree(DObjects));
  return true;
}

/// Accesses of one size through an element type of that size (surface.cu
/// t_*), on a 2D u32 array of 4 channels: reads at aligned coordinates
/// inside and outside, and writes at them into a second array.
bool executeTyped(Session &S, const Spec &Sp, std::vector<std::string> &Lines,
                  std::string &Fault) {
  const Geometry &G = Geometries[1];
  size_t Row = G.Width * 16, Rows = G.Height;
  std::vector<Coord> Coords = caseCoords(Sp);
  Coords.pop_back();
  unsigned N = unsigned(Coords.size());
  Surface Read = makeSurface(U32, 4, G, 77), Write = makeSurface(U32, 4, G, 78);
  CUdeviceptr DC = 0, DOut = 0, DV = 0;
  CHECK(cuMemAlloc(&DC, N * 16));
  CHECK(cuMemAlloc(&DOut, N * 16));
  CHECK(cuMemAlloc(&DV, N * 16));
  CHECK(cuMemcpyHtoD(DC, Coords.data(), N * 16));
  CHECK(cuMemsetD8(DOut, 0xee, N * 16));
  std::vector<unsigned char> Values(N * 16);
  for (unsigned I = 0; I < N; ++I)
    std::memcpy(&Values[I * 16], writtenBytes(I).data(), 16);
  CHECK(cuMemcpyHtoD(DV, Values.data(), N * 16));
  void *Args[] = {&DOut, &DC, &DV, &N, &Read.Object, &Write.Object};
  CUresult R = cuLaunchKernel(
      S.function(std::string("t_") + TypedAccesses[Sp.Index].Name), 1, 1, 1, 64,
      1, 1, 0, nullptr, Args, nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  if (R != CUDA_SUCCESS) {
    Fault = "fault " + errorName(R);
    return false;
  }
  std::vector<unsigned char> Out(N * 16);
  CHECK(cuMemcpyDtoH(Out.data(), DOut, N * 16));
  for (unsigned I = 0; I < N; ++I)
    Lines.push_back(hexBytes(&Out[I * 16], 16));
  std::vector<unsigned char> Before = initialBytes(Row * Rows, 78);
  std::vector<unsigned char> After = arrayBytes(Write, Row, Rows, 1);
  std::string Line;
  for (size_t K = 0; K < After.size(); ++K)
    if (After[K] != Before[K]) {
      char Buf[40];
      std::snprintf(Buf, sizeof(Buf), "%s%zu:%02x", Line.empty() ? "" : " ", K,
                    After[K]);
      Line += Buf;
    }
  Lines.push_back(Line.empty() ? "-" : Line);
  std::vector<Surface> Both = {Read, Write};
  destroy(Both);
  CHECK(cuMemFree(DC));
  CHECK(cuMemFree(DOut));
  CHECK(cuMemFree(DV));
  return true;
}

/// Runs \p Sp at \p Coords (all of the case's, or one of a sweep's); false
/// if the launch failed (\p Fault says how), which leaves the context
/// unusable.
bool execute(Session &S, const Spec &Sp, const std::vector<Coord> &Coords,
             std::vector<std::string> &Lines, std::string &Fault) {
  if (Sp.Kind == Spec::Null)
    return executeNull(S, Sp, Lines, Fault);
  if (Sp.Kind == Spec::Typed)
    return executeTyped(S, Sp, Lines, Fault);
  const Geometry &G = Geometries[Sp.Geometry];
  std::string Kernel = std::string(Sp.Write ? "w_" : "r_") + G.Name + "_" +
                       std::to_string(Sp.Size) + "_" + ModeNames[Sp.Mode];
  return runBatch(S, Configs[Sp.Index], G, Kernel, Sp.Write, Coords, Sp.Seed,
                  Lines, Fault);
}

/// Runs every case in this process: when a case's launch fails, the context
/// is replaced and each of its coordinates runs again on its own.
template <class Fn>
void runInProcess(Session &S, const std::vector<Spec> &Specs, Fn Each) {
  for (const Spec &Sp : Specs) {
    Case C;
    C.Id = caseId(Sp);
    C.Coords = caseCoords(Sp);
    std::string Fault;
    if (!execute(S, Sp, C.Coords, C.Lines, Fault)) {
      S.reset();
      C.Lines.clear();
      for (const Coord &One : C.Coords) {
        std::vector<std::string> Lines;
        if (Sp.Kind == Spec::Sweep && execute(S, Sp, {One}, Lines, Fault)) {
          C.Lines.push_back(Lines[0]);
          continue;
        }
        C.Lines.push_back(Fault);
        if (Sp.Kind == Spec::Sweep)
          S.reset();
      }
    }
    Each(C);
  }
}

/// Reads a line from \p In (without its newline); false at the end.
bool readLine(FILE *In, std::string &Line) {
  Line.clear();
  int Ch;
  while ((Ch = std::fgetc(In)) != EOF && Ch != '\n')
    Line += char(Ch);
  return Ch != EOF || !Line.empty();
}

/// Starts a process that opens a session on \p Image and runs \p Body with
/// it and a stream to write to; returns the stream to read from.
template <class Body>
FILE *spawn(const std::string &Image, pid_t &Pid, Body B) {
  int Fd[2];
  if (pipe(Fd) != 0) {
    std::perror("pipe");
    std::exit(2);
  }
  std::fflush(stdout);
  Pid = fork();
  if (Pid < 0) {
    std::perror("fork");
    std::exit(2);
  }
  if (Pid == 0) {
    close(Fd[0]);
    FILE *Out = fdopen(Fd[1], "w");
    Session S;
    S.Image = Image;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&S.Dev, 0));
    S.open();
    B(S, Out);
    std::fclose(Out);
    _exit(0);
  }
  close(Fd[1]);
  return fdopen(Fd[0], "r");
}

/// Runs every case in child processes, as NVIDIA's driver needs: after a
/// fault no new context can be made in the process. A worker runs cases
/// until one faults; that case's coordinates then run each in a process of
/// its own, \p Jobs at a time, and a new worker goes on.
template <class Fn>
void runIsolated(const std::string &Image, const std::vector<Spec> &Specs,
                 unsigned Jobs, Fn Each) {
  size_t Next = 0;
  while (Next < Specs.size()) {
    pid_t Pid;
    FILE *In = spawn(Image, Pid, [&](Session &S, FILE *Out) {
      for (size_t K = Next; K < Specs.size(); ++K) {
        std::vector<std::string> Lines;
        std::string Fault;
        if (!execute(S, Specs[K], caseCoords(Specs[K]), Lines, Fault)) {
          std::fprintf(Out, "F %zu %s\n", K, Fault.c_str());
          return;
        }
        std::fprintf(Out, "L %zu %zu\n", K, Lines.size());
        for (const std::string &L : Lines)
          std::fprintf(Out, "%s\n", L.c_str());
        std::fflush(Out);
      }
      std::fprintf(Out, "E\n");
    });
    std::string Line;
    bool Ended = false;
    size_t Faulted = SIZE_MAX;
    std::string FaultLine;
    while (readLine(In, Line)) {
      if (Line == "E") {
        Ended = true;
        break;
      }
      size_t K = 0, Count = 0;
      char Tag = Line[0];
      if (Tag == 'F') {
        std::sscanf(Line.c_str(), "F %zu", &K);
        Faulted = K;
        FaultLine = Line.substr(Line.find(' ', 2) + 1);
        break;
      }
      std::sscanf(Line.c_str(), "L %zu %zu", &K, &Count);
      Case C;
      C.Id = caseId(Specs[K]);
      C.Coords = caseCoords(Specs[K]);
      for (size_t I = 0; I < Count && readLine(In, Line); ++I)
        C.Lines.push_back(Line);
      Each(C);
      Next = K + 1;
    }
    std::fclose(In);
    int Status = 0;
    waitpid(Pid, &Status, 0);
    if (Ended)
      return;
    if (Faulted == SIZE_MAX) {
      std::fprintf(stderr, "a worker ended at case %zu without an answer\n",
                   Next);
      std::exit(2);
    }
    const Spec &Sp = Specs[Faulted];
    Case C;
    C.Id = caseId(Sp);
    C.Coords = caseCoords(Sp);
    C.Lines.assign(C.Coords.size(), FaultLine);
    if (Sp.Kind == Spec::Sweep) {
      for (size_t First = 0; First < C.Coords.size(); First += Jobs) {
        size_t Last = std::min(C.Coords.size(), First + Jobs);
        std::vector<std::pair<pid_t, FILE *>> Children;
        for (size_t I = First; I < Last; ++I) {
          pid_t P;
          FILE *F = spawn(Image, P, [&](Session &S, FILE *Out) {
            std::vector<std::string> Lines;
            std::string Fault;
            if (execute(S, Sp, {C.Coords[I]}, Lines, Fault))
              std::fprintf(Out, "%s\n", Lines[0].c_str());
            else
              std::fprintf(Out, "%s\n", Fault.c_str());
          });
          Children.push_back({P, F});
        }
        for (size_t I = First; I < Last; ++I) {
          auto [P, F] = Children[I - First];
          if (!readLine(F, C.Lines[I])) {
            std::fprintf(stderr, "no answer for %s at coordinate %zu\n",
                         C.Id.c_str(), I);
            std::exit(2);
          }
          std::fclose(F);
          waitpid(P, &Status, 0);
        }
      }
    }
    Each(C);
    Next = Faulted + 1;
  }
}

void writeCase(std::ofstream &Out, const Case &C) {
  Out << "case " << C.Id << "\n";
  for (size_t I = 0; I < C.Lines.size(); ++I)
    Out << C.Coords[I][0] << ' ' << C.Coords[I][1] << ' ' << C.Coords[I][2]
        << ' ' << C.Lines[I] << "\n";
  Out.flush();
}

/// Compares each case with the record's.
class Checker {
public:
  explicit Checker(const char *Path) {
    std::ifstream In(Path);
    if (!In) {
      std::fprintf(stderr, "cannot read %s\n", Path);
      std::exit(2);
    }
    std::string Line, Current;
    while (std::getline(In, Line)) {
      if (Line.rfind("case ", 0) == 0) {
        Current = Line.substr(5);
        Expected[Current];
        continue;
      }
      Expected[Current].push_back(Line);
    }
  }
  void operator()(const Case &C) {
    ++Cases;
    auto It = Expected.find(C.Id);
    if (It == Expected.end() || It->second.size() != C.Lines.size()) {
      ++Missing;
      std::printf("MISSING %s\n", C.Id.c_str());
      return;
    }
    for (size_t I = 0; I < C.Lines.size(); ++I) {
      std::string Got = std::to_string(C.Coords[I][0]) + ' ' +
                        std::to_string(C.Coords[I][1]) + ' ' +
                        std::to_string(C.Coords[I][2]) + ' ' + C.Lines[I];
      if (Got == It->second[I]) {
        ++Exact;
        continue;
      }
      ++Wrong;
      if (Shown++ < 40)
        std::printf("MISMATCH %s: got \"%s\", H200 \"%s\"\n", C.Id.c_str(),
                    Got.c_str(), It->second[I].c_str());
    }
  }
  int finish() const {
    std::printf("%zu cases, %zu accesses: %zu identical, %zu different, %zu "
                "cases missing\n",
                Cases, Exact + Wrong, Exact, Wrong, Missing);
    return Wrong || Missing ? 1 : 0;
  }

private:
  std::map<std::string, std::vector<std::string>> Expected;
  size_t Cases = 0, Exact = 0, Wrong = 0, Missing = 0, Shown = 0;
};

} // namespace

int main(int argc, char **argv) {
  bool Record = argc >= 4 && std::strcmp(argv[2], "--record") == 0;
  bool Check = argc >= 4 && std::strcmp(argv[2], "--check") == 0;
  unsigned Jobs = 0;
  if (argc == 6 && std::strcmp(argv[4], "--isolate") == 0)
    Jobs = unsigned(std::atoi(argv[5]));
  if ((!Record && !Check) || (argc != 4 && Jobs == 0)) {
    std::fprintf(stderr,
                 "usage: %s MODULE --record FILE | --check FILE "
                 "[--isolate JOBS]\n",
                 argv[0]);
    return 2;
  }
  std::ifstream In(argv[1], std::ios::binary);
  if (!In) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  std::string Image((std::istreambuf_iterator<char>(In)),
                    std::istreambuf_iterator<char>());
  std::vector<Spec> Specs = specs();
  std::ofstream Out;
  if (Record)
    Out.open(argv[3]);
  std::optional<Checker> Compare;
  if (Check)
    Compare.emplace(argv[3]);
  size_t Count = 0;
  auto Each = [&](const Case &C) {
    ++Count;
    if (Record)
      writeCase(Out, C);
    else
      (*Compare)(C);
  };
  if (Jobs) {
    // The parent never touches the driver: only its children do.
    runIsolated(Image, Specs, Jobs, Each);
  } else {
    Session S;
    S.Image = Image;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&S.Dev, 0));
    S.open();
    runInProcess(S, Specs, Each);
    std::printf("%u context resets\n", S.Resets);
    CHECK(cuModuleUnload(S.Module));
    CHECK(cuCtxDestroy(S.Ctx));
  }
  if (Record) {
    std::printf("recorded %zu cases in %s\n", Count, argv[3]);
    return 0;
  }
  return Compare->finish();
}
