//===- PtxTestKernels.h - PTX and fat binaries for tests --------*- C++ -*-===//
//
// PTX modules written for both drivers (.version 7.0, .target sm_50, what
// nvcc and ptxas accept), fat binaries built around them with the layout
// nvcc 13 writes (uncompressed, LZ4 and Zstandard entries), and a check that
// runs addOne. Used by PtxLoadingTest.cpp, PtxLinkTest.cpp and the
// environment probe (PtxEnvProbe.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_API_PTXTESTKERNELS_H
#define CUCPU_TESTS_API_PTXTESTKERNELS_H

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace cuapi::ptx {

/// addOne(int *Data, int Count): Data[i] += 1 for every i < Count.
inline const char *const AddOne = R"(//
// addOne, hand-written for sm_50.
//
.version 7.0
.target sm_50
.address_size 64

.visible .entry addOne(
	.param .u64 addOne_param_0,
	.param .u32 addOne_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [addOne_param_0];
	ld.param.u32 	%r2, [addOne_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__done;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r6, [%rd4];
	add.s32 	%r7, %r6, 1;
	st.global.u32 	[%rd4], %r7;
$L__done:
	ret;
}
)";

/// Defines scale(x) = 3 * x and the variable offset = 5, for linking.
inline const char *const ScaleLib = R"(.version 7.0
.target sm_50
.address_size 64

.visible .global .align 4 .u32 offset = 5;

.visible .func  (.param .b32 func_retval0) scale(
	.param .b32 scale_param_0
)
{
	.reg .b32 	%r<3>;

	ld.param.u32 	%r1, [scale_param_0];
	mul.lo.s32 	%r2, %r1, 3;
	st.param.b32 	[func_retval0+0], %r2;
	ret;
}
)";

/// applyScale(int *Data, int Count): Data[i] = scale(Data[i]) + offset, with
/// scale and offset declared .extern (ScaleLib defines them).
inline const char *const ScaleMain = R"(.version 7.0
.target sm_50
.address_size 64

.extern .global .align 4 .u32 offset;
.extern .func  (.param .b32 func_retval0) scale(
	.param .b32 scale_param_0
);

.visible .entry applyScale(
	.param .u64 applyScale_param_0,
	.param .u32 applyScale_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [applyScale_param_0];
	ld.param.u32 	%r2, [applyScale_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__done;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r6, [%rd4];
	{
	.param .b32 param0;
	st.param.b32 	[param0+0], %r6;
	.param .b32 retval0;
	call.uni (retval0), scale, (param0);
	ld.param.b32 	%r7, [retval0+0];
	}
	ld.global.u32 	%r8, [offset];
	add.s32 	%r9, %r7, %r8;
	st.global.u32 	[%rd4], %r9;
$L__done:
	ret;
}
)";

/// Prints "REPORT \p Key = \p Text" on one line (newlines as " | ").
inline void reportText(const std::string &Key, const char *Text) {
  std::string Flat = Text ? Text : "(null)";
  for (size_t At; (At = Flat.find('\n')) != std::string::npos;)
    Flat.replace(At, 1, " | ");
  std::printf("REPORT %s = %s\n", Key.c_str(), Flat.c_str());
  std::fflush(stdout);
}

/// \p Text with its .target replaced by \p Target (e.g. "sm_100").
inline std::string withTarget(const char *Text, const char *Target) {
  std::string S = Text;
  size_t At = S.find(".target sm_50");
  if (At != std::string::npos)
    S.replace(At + 8, 5, Target);
  return S;
}

/// How a fat-binary entry's payload is stored.
enum class Packing { None, Lz4, Zstd };

namespace detail {
inline void put(std::vector<uint8_t> &B, size_t At, uint64_t V, int Bytes) {
  for (int I = 0; I < Bytes; ++I)
    B[At + I] = uint8_t(V >> (8 * I));
}

/// An LZ4 block holding \p Data as literals only.
inline std::vector<uint8_t> lz4Literals(const std::vector<uint8_t> &Data) {
  std::vector<uint8_t> Out;
  size_t N = Data.size();
  Out.push_back(uint8_t((N < 15 ? N : 15) << 4));
  if (N >= 15) {
    size_t Rest = N - 15;
    for (; Rest >= 255; Rest -= 255)
      Out.push_back(255);
    Out.push_back(uint8_t(Rest));
  }
  Out.insert(Out.end(), Data.begin(), Data.end());
  return Out;
}

/// A Zstandard frame holding \p Data (at most 128 KiB) in one raw block.
inline std::vector<uint8_t> zstdRaw(const std::vector<uint8_t> &Data) {
  std::vector<uint8_t> Out = {0x28, 0xB5, 0x2F, 0xFD, // magic
                              0xA0}; // 4-byte content size, single segment
  Out.resize(Out.size() + 4 + 3);
  put(Out, 5, Data.size(), 4);
  put(Out, 9, (uint64_t(Data.size()) << 3) | 1, 3); // last, raw
  Out.insert(Out.end(), Data.begin(), Data.end());
  return Out;
}
} // namespace detail

/// One entry of a fat binary built by fatBinary().
struct FatEntry {
  uint16_t Kind; ///< 1: PTX, 2: ELF.
  uint32_t Arch; ///< SM number.
  std::vector<uint8_t> Bytes;
  Packing How = Packing::None;
};

/// A PTX entry of \p Text (its terminating NUL included) for \p Arch.
inline FatEntry ptxEntry(const std::string &Text, uint32_t Arch,
                         Packing How = Packing::None) {
  std::vector<uint8_t> Bytes(Text.begin(), Text.end());
  Bytes.push_back(0);
  return {1, Arch, Bytes, How};
}

/// A fat binary of \p Entries with the header fields nvcc 13 writes
/// (80-byte PTX entry headers, 64-byte ELF ones, payloads padded to 16).
inline std::vector<uint8_t> fatBinary(const std::vector<FatEntry> &Entries) {
  using detail::put;
  std::vector<uint8_t> Out(16);
  for (const FatEntry &E : Entries) {
    std::vector<uint8_t> Payload =
        E.How == Packing::Lz4    ? detail::lz4Literals(E.Bytes)
        : E.How == Packing::Zstd ? detail::zstdRaw(E.Bytes)
                                 : E.Bytes;
    uint32_t HeaderSize = E.Kind == 1 ? 80 : 64;
    uint64_t Padded = (Payload.size() + 15) / 16 * 16;
    std::vector<uint8_t> H(HeaderSize);
    put(H, 0, E.Kind, 2);
    put(H, 2, 0x0101, 2);
    put(H, 4, HeaderSize, 4);
    put(H, 8, Padded, 8);
    bool Packed = E.How != Packing::None;
    put(H, 16, Packed ? Payload.size() : 0, 4);
    put(H, 20, E.Kind == 1 ? 0x40 : 0, 4);
    put(H, 24, E.Kind == 1 ? 0x00070000 : 0x00010008, 4); // PTX 7.0 / ELF
    put(H, 28, E.Arch, 4);
    uint64_t Flags = 0x11;
    if (E.How == Packing::Lz4)
      Flags |= 0x2000;
    if (E.How == Packing::Zstd)
      Flags |= 0x8000;
    put(H, 40, Flags, 8);
    put(H, 56, Packed ? E.Bytes.size() : 0, 8);
    if (E.Kind == 1)
      put(H, 64, 0x48, 4);
    Out.insert(Out.end(), H.begin(), H.end());
    Out.insert(Out.end(), Payload.begin(), Payload.end());
    Out.resize(Out.size() + (Padded - Payload.size()));
  }
  put(Out, 0, 0xBA55ED50, 4);
  put(Out, 4, 1, 2);
  put(Out, 6, 16, 2);
  put(Out, 8, Out.size() - 16, 8);
  return Out;
}

/// A well-formed ELF file for EM_CUDA with a string table and one empty
/// code section, no cucpu image: an NVIDIA cubin as far as a loader can
/// tell without running it.
inline std::vector<uint8_t> sassOnlyCubin() {
  using detail::put;
  const char Names[] = "\0.shstrtab\0.text.k";
  std::vector<uint8_t> B(64 + 24 + 3 * 64);
  const uint8_t Ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7};
  std::memcpy(B.data(), Ident, sizeof(Ident));
  put(B, 16, 2, 2);   // e_type = ET_EXEC
  put(B, 18, 190, 2); // e_machine = EM_CUDA
  put(B, 20, 1, 4);   // e_version
  put(B, 40, 88, 8);  // e_shoff
  put(B, 52, 64, 2);  // e_ehsize
  put(B, 58, 64, 2);  // e_shentsize
  put(B, 60, 3, 2);   // e_shnum
  put(B, 62, 1, 2);   // e_shstrndx
  std::memcpy(B.data() + 64, Names, sizeof(Names));
  size_t S1 = 88 + 64, S2 = 88 + 128;
  put(B, S1 + 0, 1, 4);   // sh_name ".shstrtab"
  put(B, S1 + 4, 3, 4);   // SHT_STRTAB
  put(B, S1 + 24, 64, 8); // sh_offset
  put(B, S1 + 32, sizeof(Names), 8);
  put(B, S2 + 0, 11, 4); // ".text.k"
  put(B, S2 + 4, 1, 4);  // SHT_PROGBITS
  return B;
}

/// Runs \p Kernel (a function of Data and Count, as addOne) over 100 ints
/// set to \p Start; the values afterwards, or an empty vector if a call
/// failed (\p Failure says which).
inline std::vector<int> runOver100(CUmodule Mod, const char *Kernel, int Start,
                                   std::string &Failure) {
  constexpr int N = 100;
  CUfunction F = nullptr;
  CUdeviceptr Data = 0;
  std::vector<int> Host(N);
  auto Fail = [&](const char *Call, CUresult R) {
    Failure = std::string(Call) + " returned " + std::to_string(int(R));
    if (Data)
      cuMemFree(Data);
    return std::vector<int>{};
  };
  if (CUresult R = cuModuleGetFunction(&F, Mod, Kernel))
    return Fail("cuModuleGetFunction", R);
  if (CUresult R = cuMemAlloc(&Data, N * sizeof(int)))
    return Fail("cuMemAlloc", R);
  if (CUresult R = cuMemsetD32(Data, unsigned(Start), N))
    return Fail("cuMemsetD32", R);
  int Count = N;
  void *Params[] = {&Data, &Count};
  if (CUresult R =
          cuLaunchKernel(F, 4, 1, 1, 32, 1, 1, 0, nullptr, Params, nullptr))
    return Fail("cuLaunchKernel", R);
  if (CUresult R = cuMemcpyDtoH(Host.data(), Data, N * sizeof(int)))
    return Fail("cuMemcpyDtoH", R);
  cuMemFree(Data);
  return Host;
}

} // namespace cuapi::ptx

#endif // CUCPU_TESTS_API_PTXTESTKERNELS_H
