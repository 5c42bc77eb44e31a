//===- AtomicsTest.cpp - PTX kernels: atom and red ------------------------===//
//
// Every operation under contention from all threads of several blocks, in
// global, shared and generic memory; atomicInc/atomicDec's wrapping rules;
// compare-and-swap loops; f16/bf16 additions; and the forms this driver
// refuses. Expected values are what the PTX ISA defines (atom: "the
// operation is performed atomically"; inc: (old >= b) ? 0 : old + 1; dec:
// (old == 0 || old > b) ? b : old - 1).
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

using namespace cucpu::test;

namespace {

using PtxAtomics = PtxKernelTest;

constexpr unsigned Blocks = 4, Threads = 128, N = Blocks * Threads;

/// The global thread id into %r1 and its index * 4 into %rd9.
const char *GlobalId = R"(
  mov.u32 %r20, %tid.x;
  mov.u32 %r21, %ctaid.x;
  mov.u32 %r22, %ntid.x;
  mad.lo.s32 %r1, %r21, %r22, %r20;
  mul.wide.u32 %rd9, %r1, 4;
)";

TEST_F(PtxAtomics, EveryIntegerOperationUnderContention) {
  // Slots: 0 add.u32 (+1), 1 min.s32 (-gid), 2 max.u32 (gid), 3 inc.u32
  // (limit 99), 4 dec.u32 (limit 99), 5 and.b32 (clear bit gid%32), 6 or.b32
  // (set bit gid%32), 7 xor.b32 (gid * 2654435761), 8 add.s32 (-3), 9
  // red.add.u32 (+2), 10 red.max.s32 (gid - 300), 11 red.min.u32, 12
  // red.xor.b32; 64-bit slots: 0 add.u64 (+2^33), 1 min.s64 (-gid *
  // 2^40), 2 max.u64, 3 and.b64, 4 or.b64, 5 xor.b64, 6 red.add.u64.
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 c32, .param .u64 c64, .param .u64 olds)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<40>;
  ld.param.u64 %rd1, [c32];
  ld.param.u64 %rd2, [c64];
  ld.param.u64 %rd3, [olds];
)" + GlobalId + R"(
  atom.global.add.u32 %r2, [%rd1], 1;
  add.s64 %rd10, %rd3, %rd9;
  st.global.u32 [%rd10], %r2;
  neg.s32 %r3, %r1;
  atom.global.min.s32 %r4, [%rd1+4], %r3;
  atom.global.max.u32 %r4, [%rd1+8], %r1;
  atom.global.inc.u32 %r4, [%rd1+12], 99;
  atom.global.dec.u32 %r4, [%rd1+16], 99;
  and.b32 %r5, %r1, 31;
  mov.u32 %r6, 1;
  shl.b32 %r7, %r6, %r5;
  not.b32 %r8, %r7;
  atom.global.and.b32 %r4, [%rd1+20], %r8;
  atom.global.or.b32 %r4, [%rd1+24], %r7;
  mul.lo.u32 %r9, %r1, -1640531535;
  atom.global.xor.b32 %r4, [%rd1+28], %r9;
  atom.global.add.s32 %r4, [%rd1+32], -3;
  red.global.add.u32 [%rd1+36], 2;
  add.s32 %r10, %r1, -300;
  red.global.max.s32 [%rd1+40], %r10;
  red.global.min.u32 [%rd1+44], %r9;
  red.global.xor.b32 [%rd1+48], %r9;
  cvt.u64.u32 %rd11, %r1;
  atom.global.add.u64 %rd12, [%rd2], 8589934592;
  shl.b64 %rd13, %rd11, 40;
  neg.s64 %rd14, %rd13;
  atom.global.min.s64 %rd12, [%rd2+8], %rd14;
  atom.global.max.u64 %rd12, [%rd2+16], %rd13;
  cvt.u64.u32 %rd15, %r7;
  shl.b64 %rd16, %rd15, 32;
  not.b64 %rd17, %rd16;
  atom.global.and.b64 %rd12, [%rd2+24], %rd17;
  atom.global.or.b64 %rd12, [%rd2+32], %rd15;
  mul.lo.u64 %rd18, %rd11, 6364136223846793005;
  atom.global.xor.b64 %rd12, [%rd2+40], %rd18;
  red.global.add.u64 [%rd2+48], %rd11;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  std::vector<uint32_t> C32(13, 0);
  C32[1] = 1000;
  C32[5] = 0xffffffffu;
  C32[10] = uint32_t(-1000);
  C32[11] = 0xffffffffu;
  std::vector<uint64_t> C64(7, 0);
  C64[3] = ~0ull;
  CUdeviceptr D32 = upload(C32), D64 = upload(C64),
              Olds = upload(std::vector<uint32_t>(N, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", Blocks, Threads, {&D32, &D64, &Olds}))
      << LastError;
  auto R32 = download<uint32_t>(D32, 13);
  auto R64 = download<uint64_t>(D64, 7);
  auto Old = download<uint32_t>(Olds, N);
  uint32_t Xor = 0, MinU = 0xffffffffu;
  uint64_t Xor64 = 0;
  for (uint32_t G = 0; G < N; ++G) {
    Xor ^= G * 2654435761u;
    MinU = std::min(MinU, G * 2654435761u);
    Xor64 ^= uint64_t(G) * 6364136223846793005ull;
  }
  EXPECT_EQ(N, R32[0]) << "add.u32: every increment counted";
  std::sort(Old.begin(), Old.end());
  for (uint32_t G = 0; G < N; ++G)
    ASSERT_EQ(G, Old[G]) << "add.u32 returns each old value exactly once";
  EXPECT_EQ(uint32_t(-int32_t(N - 1)), R32[1]) << "min.s32";
  EXPECT_EQ(N - 1, R32[2]) << "max.u32";
  EXPECT_EQ(N % 100, R32[3]) << "inc.u32 wraps to 0 past the limit";
  EXPECT_EQ((100 - N % 100) % 100, R32[4]) << "dec.u32 wraps to the limit";
  EXPECT_EQ(0u, R32[5]) << "and.b32 cleared every bit";
  EXPECT_EQ(0xffffffffu, R32[6]) << "or.b32 set every bit";
  EXPECT_EQ(Xor, R32[7]) << "xor.b32";
  EXPECT_EQ(uint32_t(-3 * int32_t(N)), R32[8]) << "add.s32 of -3";
  EXPECT_EQ(2 * N, R32[9]) << "red.add.u32";
  EXPECT_EQ(N - 1 - 300, R32[10]) << "red.max.s32";
  EXPECT_EQ(MinU, R32[11]) << "red.min.u32";
  EXPECT_EQ(Xor, R32[12]) << "red.xor.b32";
  EXPECT_EQ(uint64_t(N) << 33, R64[0]) << "add.u64";
  EXPECT_EQ(uint64_t(-(int64_t(N - 1) << 40)), R64[1]) << "min.s64";
  EXPECT_EQ(uint64_t(N - 1) << 40, R64[2]) << "max.u64";
  EXPECT_EQ(0xffffffffull, R64[3]) << "and.b64 cleared every high bit";
  EXPECT_EQ(0xffffffffull, R64[4]) << "or.b64 set every low bit";
  EXPECT_EQ(Xor64, R64[5]) << "xor.b64";
  EXPECT_EQ(uint64_t(N) * (N - 1) / 2, R64[6]) << "red.add.u64 of gid";
}

TEST_F(PtxAtomics, IncAndDecWrapAsCudaDefines) {
  // Thread i applies inc (even i) or dec (odd i) with limit B[i] to M[i].
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 m, .param .u64 b, .param .u64 olds)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [m];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [olds];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
  add.s64 %rd7, %rd3, %rd4;
  ld.global.u32 %r2, [%rd6];
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 atom.global.inc.u32 %r4, [%rd5], %r2;
  @!%p1 atom.global.dec.u32 %r4, [%rd5], %r2;
  st.global.u32 [%rd7], %r4;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  // {initial value, limit} for inc (even) and dec (odd) in turn.
  std::vector<std::pair<uint32_t, uint32_t>> Cases = {
      {3, 5},
      {3, 5},
      {5, 5},
      {0, 5},
      {7, 5},
      {7, 5},
      {0, 0},
      {0, 0},
      {4, 0},
      {4, 0},
      {0xffffffffu, 0xffffffffu},
      {0xfffffffeu, 0xffffffffu},
      {0xfffffffeu, 0xffffffffu},
      {1, 0xffffffffu}};
  std::vector<uint32_t> M, B;
  for (auto [V, L] : Cases) {
    M.push_back(V);
    B.push_back(L);
  }
  unsigned Count = Cases.size();
  CUdeviceptr DM = upload(M), DB = upload(B),
              Olds = upload(std::vector<uint32_t>(Count, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, Count, {&DM, &DB, &Olds})) << LastError;
  auto R = download<uint32_t>(DM, Count);
  auto Old = download<uint32_t>(Olds, Count);
  for (unsigned I = 0; I < Count; ++I) {
    uint32_t V = M[I], L = B[I];
    uint32_t Want =
        I % 2 == 0 ? (V >= L ? 0 : V + 1) : ((V == 0 || V > L) ? L : V - 1);
    EXPECT_EQ(Want, R[I]) << (I % 2 ? "dec" : "inc") << " of " << V
                          << " with limit " << L;
    EXPECT_EQ(V, Old[I]) << "the old value, case " << I;
  }
}

TEST_F(PtxAtomics, CompareAndSwapLoopsAndExchange) {
  // Every thread adds its id with a 32-bit and a 64-bit cas loop, and
  // exchanges its id into a slot, keeping what it took out.
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 c, .param .u64 olds)
{
  .reg .pred %p<4>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [c];
  ld.param.u64 %rd2, [olds];
)" + GlobalId + R"(
  ld.volatile.global.u32 %r2, [%rd1];
$L32:
  add.s32 %r3, %r2, %r1;
  atom.global.cas.b32 %r4, [%rd1], %r2, %r3;
  setp.ne.s32 %p1, %r4, %r2;
  mov.u32 %r2, %r4;
  @%p1 bra $L32;
  cvt.u64.u32 %rd3, %r1;
  ld.volatile.global.u64 %rd4, [%rd1+8];
$L64:
  add.s64 %rd5, %rd4, %rd3;
  add.s64 %rd5, %rd5, 4294967296;
  atom.global.cas.b64 %rd6, [%rd1+8], %rd4, %rd5;
  setp.ne.s64 %p2, %rd6, %rd4;
  mov.u64 %rd4, %rd6;
  @%p2 bra $L64;
  atom.global.exch.b32 %r5, [%rd1+16], %r1;
  add.s64 %rd7, %rd2, %rd9;
  st.global.u32 [%rd7], %r5;
  cvt.u64.u32 %rd8, %r1;
  atom.global.exch.b64 %rd10, [%rd1+24], %rd8;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  std::vector<uint64_t> C(4, 0);
  C[2] = 0xdeadbeef; // Slot 16: the exchange's initial value.
  CUdeviceptr DC = upload(C), Olds = upload(std::vector<uint32_t>(N, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", Blocks, Threads, {&DC, &Olds})) << LastError;
  auto R = download<uint64_t>(DC, 4);
  uint64_t Sum = uint64_t(N) * (N - 1) / 2;
  EXPECT_EQ(Sum, R[0] & 0xffffffffu) << "32-bit cas loop";
  EXPECT_EQ(Sum + (uint64_t(N) << 32), R[1]) << "64-bit cas loop";
  // The exchange: the values taken out and the one left are the initial
  // value and every id, each once.
  auto Old = download<uint32_t>(Olds, N);
  Old.push_back(uint32_t(R[2]));
  std::sort(Old.begin(), Old.end());
  for (uint32_t G = 0; G < N; ++G)
    ASSERT_EQ(G, Old[G]) << "exch: every id taken out or left once";
  EXPECT_EQ(0xdeadbeefu, Old[N]) << "exch: the initial value taken out once";
  EXPECT_LT(R[3], uint64_t(N)) << "exch.b64 left one thread's id";
}

TEST_F(PtxAtomics, SharedAndGenericHistogram) {
  // Each block counts id % 8 into a shared histogram with atom.shared (bins
  // 0-7) and through generic addresses of shared words (bins 8-15, +2), and
  // takes the maximum id with a scoped shared atomic; then adds the bins to
  // the global histogram with red.global and, through generic addresses,
  // to a second one.
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 hist, .param .u64 hist2)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<20>;
  .shared .align 4 .b8 bins[64];
  .shared .align 4 .b32 top;
  ld.param.u64 %rd1, [hist];
  ld.param.u64 %rd2, [hist2];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  setp.eq.u32 %p2, %r1, 0;
  mov.u32 %r2, bins;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  @%p1 st.shared.u32 [%r4], 0;
  @%p2 st.shared.u32 [top], -1;
  bar.sync 0;
  and.b32 %r5, %r1, 7;
  shl.b32 %r6, %r5, 2;
  add.s32 %r7, %r2, %r6;
  atom.shared.add.u32 %r8, [%r7], 1;
  cvta.shared.u64 %rd3, bins;
  cvt.u64.u32 %rd4, %r6;
  add.s64 %rd5, %rd3, %rd4;
  atom.add.u32 %r9, [%rd5+32], 2;
  atom.shared.cta.max.s32 %r10, [top], %r1;
  bar.sync 0;
  @%p2 ld.shared.u32 %r13, [top];
  @%p2 red.global.max.s32 [%rd1+64], %r13;
  @!%p1 bra $done;
  ld.shared.u32 %r11, [%r4];
  cvt.u64.u32 %rd6, %r3;
  add.s64 %rd7, %rd1, %rd6;
  red.global.add.u32 [%rd7], %r11;
  cvta.global.u64 %rd8, %rd2;
  add.s64 %rd9, %rd8, %rd6;
  atom.add.u32 %r12, [%rd9], %r11;
$done:
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  CUdeviceptr H = upload(std::vector<uint32_t>(17, 0)),
              H2 = upload(std::vector<uint32_t>(16, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", Blocks, Threads, {&H, &H2})) << LastError;
  auto R = download<uint32_t>(H, 17), R2 = download<uint32_t>(H2, 16);
  for (unsigned B = 0; B < 8; ++B) {
    EXPECT_EQ(N / 8, R[B]) << "shared bin " << B;
    EXPECT_EQ(N / 8 * 2, R[8 + B]) << "generic shared bin " << B;
  }
  EXPECT_EQ(Threads - 1, R[16]) << "atom.shared.cta.max.s32";
  R.pop_back();
  EXPECT_EQ(R, R2) << "red.global and generic atom.add agree";
}

TEST_F(PtxAtomics, FloatAdditions) {
  // f32 and f64 additions of 0.5 from every thread (exact); f16 additions of
  // 1.0 and f16x2 of {1.0, 0.5}; bf16 of 1.0 from 128 threads (exact up to
  // 256).
  std::string Ptx = ptxHeader("7.8", "sm_90") + R"(
.visible .entry k(.param .u64 f, .param .u64 h)
{
  .reg .pred %p<2>;
  .reg .b16 %h<4>;
  .reg .b32 %r<20>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [f];
  ld.param.u64 %rd2, [h];
  mov.u32 %r1, %tid.x;
  atom.global.add.f32 %f1, [%rd1], 0f3F000000;
  red.global.add.f32 [%rd1+4], 0f3F000000;
  atom.global.add.f64 %fd1, [%rd1+8], 0d3FE0000000000000;
  mov.b16 %h1, 0x3C00;
  atom.global.add.noftz.f16 %h2, [%rd2], %h1;
  mov.b32 %r2, 0x38003C00;
  atom.global.add.noftz.f16x2 %r3, [%rd2+4], %r2;
  setp.lt.u32 %p1, %r1, 128;
  mov.b16 %h3, 0x3F80;
  @%p1 atom.global.add.noftz.bf16 %h2, [%rd2+8], %h3;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  CUdeviceptr F = upload(std::vector<uint64_t>(2, 0)),
              H = upload(std::vector<uint16_t>(6, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 512, {&F, &H})) << LastError;
  auto RF = download<float>(F, 2);
  auto RD = download<double>(F + 8, 1);
  auto RH = download<uint16_t>(H, 6);
  EXPECT_EQ(256.0f, RF[0]) << "atom.add.f32";
  EXPECT_EQ(256.0f, RF[1]) << "red.add.f32";
  EXPECT_EQ(256.0, RD[0]) << "atom.add.f64";
  EXPECT_EQ(0x6000, RH[0]) << "atom.add.f16: 512.0 in binary16";
  EXPECT_EQ(0x6000, RH[2]) << "f16x2 low half: 512.0";
  EXPECT_EQ(0x5C00, RH[3]) << "f16x2 high half: 256.0";
  EXPECT_EQ(0x4300, RH[4]) << "atom.add.bf16: 128.0 in bfloat16";
}

TEST_F(PtxAtomics, F32AdditionsFlushSubnormalsAsTheH200) {
  // Measured on the H200 (atomicAdd, red.global.add.f32): 0 + 1e-40 is 0,
  // 1e-38 - 0.9e-38 (both subnormal) is 0; f64 keeps 1e-310; .noftz f16
  // keeps its smallest subnormal. A NaN sum is the canonical 0x7fffffff, as
  // add.f32's.
  std::string Ptx = ptxHeader("7.8", "sm_75") + R"(
.visible .entry k(.param .u64 f, .param .u64 d, .param .u64 h)
{
  .reg .b16 %h<4>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [f];
  ld.param.u64 %rd2, [d];
  ld.param.u64 %rd3, [h];
  atom.global.add.f32 %f1, [%rd1], 0f000116C2;
  atom.global.add.f32 %f2, [%rd1+4], 0f80620057;
  red.global.add.f32 [%rd1+8], 0f000116C2;
  atom.global.add.f32 %f3, [%rd1+12], 0f7FC00001;
  atom.global.add.f64 %fd1, [%rd2], 0d000012688B70E62B;
  mov.b16 %h1, 1;
  atom.global.add.noftz.f16 %h2, [%rd3], %h1;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  std::vector<uint32_t> FBits = {0, 0, 0, 0x3f800000};
  float Normal = 1e-38f;
  std::memcpy(&FBits[1], &Normal, 4);
  CUdeviceptr F = upload(FBits), D = upload(std::vector<uint64_t>(1, 0)),
              H = upload(std::vector<uint16_t>(1, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 1, {&F, &D, &H})) << LastError;
  auto R = download<uint32_t>(F, 4);
  EXPECT_EQ(0u, R[0]) << "0 + 1e-40 flushes to +0";
  EXPECT_EQ(0u, R[1]) << "1e-38 - 0.9e-38 (subnormal) flushes to +0";
  EXPECT_EQ(0u, R[2]) << "red.add.f32 flushes too";
  EXPECT_EQ(0x7fffffffu, R[3]) << "a NaN sum is the canonical NaN";
  EXPECT_EQ(0x000012688B70E62Bull, download<uint64_t>(D, 1)[0])
      << "f64 keeps subnormals";
  EXPECT_EQ(1, download<uint16_t>(H, 1)[0]) << ".noftz f16 keeps subnormals";
}

TEST_F(PtxAtomics, VectorAdditions) {
  // sm_90's vector atomics: each element is added atomically on its own.
  std::string Ptx = ptxHeader("8.1", "sm_90") + R"(
.visible .entry k(.param .u64 f, .param .u64 h)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [f];
  ld.param.u64 %rd2, [h];
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f40000000;
  mov.f32 %f3, 0f3F000000;
  mov.f32 %f4, 0f40400000;
  atom.global.v2.f32.add {%f5, %f6}, [%rd1], {%f1, %f2};
  red.global.v4.f32.add [%rd1+16], {%f1, %f2, %f3, %f4};
  mov.b32 %r1, 0x40003C00;
  red.global.v2.f16x2.add.noftz [%rd2], {%r1, %r1};
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  CUdeviceptr F = upload(std::vector<float>(8, 0)),
              H = upload(std::vector<uint16_t>(4, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 2, 128, {&F, &H})) << LastError;
  auto RF = download<float>(F, 8);
  auto RH = download<uint16_t>(H, 4);
  EXPECT_EQ(256.0f, RF[0]) << "atom.v2 element 0";
  EXPECT_EQ(512.0f, RF[1]) << "atom.v2 element 1";
  EXPECT_EQ(256.0f, RF[4]) << "red.v4 element 0";
  EXPECT_EQ(512.0f, RF[5]) << "red.v4 element 1";
  EXPECT_EQ(128.0f, RF[6]) << "red.v4 element 2";
  EXPECT_EQ(768.0f, RF[7]) << "red.v4 element 3";
  for (unsigned K = 0; K < 4; K += 2) {
    EXPECT_EQ(0x5C00, RH[K]) << "f16x2 low half: 256.0";
    EXPECT_EQ(0x6000, RH[K + 1]) << "f16x2 high half: 512.0";
  }
}

TEST_F(PtxAtomics, MemoryOrdersAndScopes) {
  // Every memory order and scope on the operations, from 64 threads.
  std::string Ptx = ptxHeader("7.8", "sm_75") + R"(
.visible .entry k(.param .u64 c)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<20>;
  ld.param.u64 %rd1, [c];
  mov.u32 %r1, %tid.x;
  atom.acq_rel.gpu.global.add.u32 %r2, [%rd1+4], 1;
  atom.relaxed.sys.global.add.u32 %r2, [%rd1+8], 1;
  atom.acquire.cta.global.or.b32 %r2, [%rd1+12], 1;
  atom.release.gpu.global.exch.b32 %r2, [%rd1+16], %r1;
  atom.acq_rel.sys.global.cas.b32 %r2, [%rd1+20], 0, 1;
  red.release.gpu.global.add.u32 [%rd1+24], 1;
  atom.sys.global.inc.u32 %r2, [%rd1+28], 1000;
  atom.acquire.gpu.global.dec.u32 %r2, [%rd1+32], 1000;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  CUdeviceptr C = upload(std::vector<uint32_t>(9, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 64, {&C})) << LastError;
  auto R = download<uint32_t>(C, 9);
  EXPECT_EQ(64u, R[1]) << "acq_rel add";
  EXPECT_EQ(64u, R[2]) << "relaxed add";
  EXPECT_EQ(1u, R[3]) << "acquire or";
  EXPECT_LT(R[4], 64u) << "release exch";
  EXPECT_EQ(1u, R[5]) << "acq_rel cas: one thread swapped";
  EXPECT_EQ(64u, R[6]) << "release red";
  EXPECT_EQ(64u, R[7]) << "sys inc";
  EXPECT_EQ(1000u - 63, R[8]) << "acquire dec from 0: 1000, then 63 steps down";
}

TEST_F(PtxAtomics, UnsupportedFormsAreErrors) {
  struct Case {
    const char *Instr, *Expect;
  } Cases[] = {
      {"atom.global.v2.u32.add {%r1, %r2}, [%rd1], {%r1, %r2};",
       "vector atomics are floating-point"},
      {"atom.shared.v2.f32.add {%f1, %f2}, [%rd1], {%f1, %f2};",
       "vector atomics are floating-point"},
      {"atom.global.v4.f32.add {%f1, %f2}, [%rd1], {%f1, %f2};",
       "vector operand"},
      {"atom.global.add.f32 %f1, [%rd1], {%f1, %f2};", "needs .v2"},
      {"red.global.cas.b32 [%rd1], %r1, %r2;", "red has no"},
      {"atom.global.inc.u64 %rd2, [%rd1], %rd2;", "not a PTX atomic"},
      {"atom.global.add.b32 %r1, [%rd1], %r1;", "not a PTX atomic"},
      {"atom.global.b128.exch %rd2, [%rd1], %rd2;", "not a PTX atomic"},
      {"atom.global.u32 %r1, [%rd1], %r1;", "needs an operation"},
      {"atom.global.add.min.u32 %r1, [%rd1], %r1;", "two operations"},
      {"atom.mmio.global.add.u32 %r1, [%rd1], %r1;", ".mmio"},
      {"atom.local.add.u32 %r1, [%rd1], %r1;", ".local"},
      {"atom.global.add.u32 %r1, [%rd1];", "operands"},
  };
  for (const Case &C : Cases) {
    std::string Ptx = ptxHeader("7.8", "sm_90") +
                      ".visible .entry k(.param .u64 p)\n{\n"
                      "  .reg .b32 %r<4>;\n  .reg .f32 %f<4>;\n"
                      "  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [p];\n  " +
                      C.Instr + "\n  ret;\n}\n";
    std::string Log;
    EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load(Ptx, &Log)) << C.Instr;
    EXPECT_NE(std::string::npos, Log.find(C.Expect))
        << C.Instr << ": the log says why: " << Log;
  }
}

} // namespace
