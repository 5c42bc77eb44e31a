//===- FetchRecords.h - What the texture harnesses share --------*- C++ -*-===//
//
// What TextureConformance.cpp and FormConformance.cpp share: checks of
// driver calls (SurfaceConformance.cpp uses these too), the channel formats
// and how they are read, the coordinates and texels they fetch, and the
// record files of results ("case ID" lines, then four hex words per fetch).
// Only <cuda.h> and the standard library, so that the harnesses build
// against NVIDIA's driver too.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_TEXTURES_FETCHRECORDS_H
#define CUCPU_TESTS_TEXTURES_FETCHRECORDS_H

#include <cuda.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fetchrecords {

[[noreturn]] inline void fail(const char *What, CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  std::fprintf(stderr, "%s failed: %s\n", What, Name ? Name : "?");
  std::exit(2);
}
#define CHECK(Call)                                                            \
  do {                                                                         \
    CUresult R_ = (Call);                                                      \
    if (R_ != CUDA_SUCCESS)                                                    \
      fetchrecords::fail(#Call, R_);                                           \
  } while (0)

/// One channel format and how it is read.
struct Format {
  const char *Name;
  CUarray_format Code;
  unsigned Bytes;
  bool ReadAsInteger; ///< CU_TRSF_READ_AS_INTEGER.
  bool IntegerResult; ///< The fetch returns integers.
};

inline const Format Formats[] = {
    {"u8n", CU_AD_FORMAT_UNSIGNED_INT8, 1, false, false},
    {"u8i", CU_AD_FORMAT_UNSIGNED_INT8, 1, true, true},
    {"s8n", CU_AD_FORMAT_SIGNED_INT8, 1, false, false},
    {"s8i", CU_AD_FORMAT_SIGNED_INT8, 1, true, true},
    {"u16n", CU_AD_FORMAT_UNSIGNED_INT16, 2, false, false},
    {"u16i", CU_AD_FORMAT_UNSIGNED_INT16, 2, true, true},
    {"s16n", CU_AD_FORMAT_SIGNED_INT16, 2, false, false},
    {"s16i", CU_AD_FORMAT_SIGNED_INT16, 2, true, true},
    {"u32i", CU_AD_FORMAT_UNSIGNED_INT32, 4, true, true},
    {"s32i", CU_AD_FORMAT_SIGNED_INT32, 4, true, true},
    {"f16", CU_AD_FORMAT_HALF, 2, false, false},
    {"f32", CU_AD_FORMAT_FLOAT, 4, false, false},
};

inline const char *AddressNames[] = {"wrap", "clamp", "mirror", "border"};

/// Unnormalized coordinates along an axis of N texels: centres, edges,
/// fractions either side of them, and values outside.
inline std::vector<float> axisCoordinates(size_t N) {
  float W = float(N);
  return {0.5f,      1.5f,       W - 0.5f, 0.0f,     1.0f,   W,
          0.25f,     1.1f,       2.9f,     0.51f,    0.49f,  1.99f,
          1.3125f,   W - 0.01f,  W + 0.5f, -0.25f,   -1.5f,  2 * W + 0.3f,
          -W - 0.7f, 0.7734375f, 1.62f,    W * 0.5f, 0.124f, 3.0078125f};
}

/// Deterministic texel bytes for a format: any bits for integers, finite
/// values in [-4, 4] for floats and halves.
inline std::vector<unsigned char> texels(const Format &F, size_t Count,
                                         uint32_t Seed) {
  std::vector<unsigned char> Out(Count * F.Bytes);
  uint32_t State = Seed * 2654435761u + 12345u;
  auto Next = [&] {
    State = State * 1664525u + 1013904223u;
    return State;
  };
  for (size_t I = 0; I < Count; ++I) {
    unsigned char *P = Out.data() + I * F.Bytes;
    if (F.Code == CU_AD_FORMAT_FLOAT) {
      float V = (float(Next() >> 8) / float(1 << 24)) * 8.0f - 4.0f;
      std::memcpy(P, &V, 4);
    } else if (F.Code == CU_AD_FORMAT_HALF) {
      // Sign, exponent 13..16 (values 2^-2 .. 2^2), any mantissa.
      uint32_t R = Next();
      uint16_t H = uint16_t(((R >> 31) << 15) | ((13 + (R >> 8) % 4) << 10) |
                            (R & 0x3ff));
      std::memcpy(P, &H, 2);
    } else {
      uint32_t R = Next();
      std::memcpy(P, &R, F.Bytes);
    }
  }
  return Out;
}

/// The four result words of each fetch of a case.
using Results = std::vector<std::array<uint32_t, 4>>;

/// Writes one case of a record file.
inline void writeCase(std::ofstream &Out, const std::string &Id,
                      const Results &Values) {
  Out << "case " << Id << "\n";
  for (const auto &V : Values) {
    char Line[64];
    std::snprintf(Line, sizeof(Line), "%08x %08x %08x %08x\n", V[0], V[1], V[2],
                  V[3]);
    Out << Line;
  }
}

/// Every case of record file \p Path by its id; nothing (after a message)
/// if the file cannot be read or is malformed.
inline std::optional<std::map<std::string, Results>>
readRecords(const char *Path) {
  std::ifstream In(Path);
  if (!In) {
    std::fprintf(stderr, "cannot read %s\n", Path);
    return std::nullopt;
  }
  std::map<std::string, Results> Records;
  std::string Line, Current;
  while (std::getline(In, Line)) {
    if (Line.rfind("case ", 0) == 0) {
      Current = Line.substr(5);
      Records[Current];
      continue;
    }
    std::array<uint32_t, 4> W{};
    if (std::sscanf(Line.c_str(), "%x %x %x %x", &W[0], &W[1], &W[2], &W[3]) !=
        4) {
      std::fprintf(stderr, "malformed line in %s: %s\n", Path, Line.c_str());
      return std::nullopt;
    }
    Records[Current].push_back(W);
  }
  return Records;
}

} // namespace fetchrecords

#endif // CUCPU_TESTS_TEXTURES_FETCHRECORDS_H
