// Inline PTX assembly as real kernels write it (cuda-samples, CUB, CUTLASS):
// special registers, 64-bit packing, carry chains, byte permutes and bit
// fields, conversions, warp shuffles with predicate outputs, atomics on
// shared memory, a barrier inside an asm, memory clobbers. Where an asm
// computes something C can, the kernel writes the asm's result XOR (or minus)
// the plain C result, so the check is 0 and a failure shows the wrong bits.
#include <cuda_fp16.h>

/// CUB's LaneId(): the thread's lane in its warp.
static __device__ __forceinline__ unsigned laneId() {
  unsigned Lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(Lane));
  return Lane;
}

extern "C" __global__ void asmLaneId(unsigned *Out) {
  Out[blockIdx.x * blockDim.x + threadIdx.x] = laneId();
}

/// CUB's LaneMaskLt/Le/Gt/Ge and cuda-samples' __mysmid: bit 0..3 set when
/// a lane mask is what the lane implies, bit 4 when %smid < %nsmid, bit 5
/// when %warpid < %nwarpid, bit 6 when %clock64 does not run backwards.
extern "C" __global__ void asmSpecialRegisters(unsigned *Out) {
  unsigned Lane = threadIdx.x % 32;
  unsigned Lt, Le, Gt, Ge, Sm, NSm, Warp, NWarp;
  unsigned long long T0, T1;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(Lt));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(Le));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(Gt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(Ge));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(Sm));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(NSm));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(Warp));
  asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(NWarp));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(T0));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(T1));
  unsigned Below = (1u << Lane) - 1;
  unsigned Ok = (Lt == Below) | (Le == (Below | (1u << Lane))) << 1 |
                (Gt == ~(Below | (1u << Lane))) << 2 | (Ge == ~Below) << 3 |
                (Sm < NSm) << 4 | (Warp < NWarp) << 5 | (T1 >= T0) << 6;
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Ok;
}

/// A 64-bit add and subtract in 32-bit halves: mov.b64 {lo,hi} unpacks,
/// add.cc/addc and sub.cc/subc carry between the halves, mov.b64 packs;
/// each XOR the 64-bit C result.
extern "C" __global__ void asmCarryChain(const unsigned long long *A,
                                         const unsigned long long *B,
                                         unsigned long long *Sum,
                                         unsigned long long *Diff) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ALo, AHi, BLo, BHi, SLo, SHi, DLo, DHi;
  asm("mov.b64 {%0,%1}, %2;" : "=r"(ALo), "=r"(AHi) : "l"(A[I]));
  asm("mov.b64 {%0,%1}, %2;" : "=r"(BLo), "=r"(BHi) : "l"(B[I]));
  asm("add.cc.u32 %0, %2, %3;\n\t"
      "addc.u32 %1, %4, %5;"
      : "=r"(SLo), "=r"(SHi)
      : "r"(ALo), "r"(BLo), "r"(AHi), "r"(BHi));
  asm("sub.cc.u32 %0, %2, %3;\n\t"
      "subc.u32 %1, %4, %5;"
      : "=r"(DLo), "=r"(DHi)
      : "r"(ALo), "r"(BLo), "r"(AHi), "r"(BHi));
  unsigned long long S, D;
  asm("mov.b64 %0, {%1,%2};" : "=l"(S) : "r"(SLo), "r"(SHi));
  asm("mov.b64 %0, {%1,%2};" : "=l"(D) : "r"(DLo), "r"(DHi));
  Sum[I] = S ^ (A[I] + B[I]);
  Diff[I] = D ^ (A[I] - B[I]);
}

/// A 96-bit multiply-accumulate as big-number code writes it: the low and
/// high words of a 32x32 product added into three words with the carry.
extern "C" __global__ void asmMultiplyCarry(const unsigned *A,
                                            const unsigned *B,
                                            unsigned long long *Out) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned R0 = 0xffffffffu, R1 = 0xffffffffu, R2 = 0;
  asm("mad.lo.cc.u32 %0, %3, %4, %0;\n\t"
      "madc.hi.cc.u32 %1, %3, %4, %1;\n\t"
      "addc.u32 %2, %2, 0;"
      : "+r"(R0), "+r"(R1), "+r"(R2)
      : "r"(A[I]), "r"(B[I]));
  unsigned long long Product = (unsigned long long)A[I] * B[I];
  unsigned long long Low = (Product & 0xffffffffu) + 0xffffffffu;
  unsigned long long High = (Product >> 32) + 0xffffffffu + (Low >> 32);
  unsigned long long Want0 = Low & 0xffffffffu;
  unsigned long long Want1 = High & 0xffffffffu, Want2 = High >> 32;
  Out[I] = (R0 ^ Want0) | (R1 ^ Want1) | (R2 ^ Want2);
}

static __device__ unsigned bfeRef(unsigned A, unsigned Pos, unsigned Len,
                                  bool Signed) {
  Pos &= 0xff;
  Len &= 0xff;
  unsigned Top = Pos + Len - 1 < 31 ? Pos + Len - 1 : 31;
  unsigned Sign = Signed && Len != 0 ? (A >> Top) & 1 : 0;
  unsigned D = 0;
  for (unsigned Bit = 0; Bit < 32; ++Bit) {
    unsigned V = Bit < Len && Pos + Bit <= 31 ? (A >> (Pos + Bit)) & 1 : Sign;
    D |= V << Bit;
  }
  return D;
}

static __device__ unsigned bfiRef(unsigned A, unsigned B, unsigned Pos,
                                  unsigned Len) {
  Pos &= 0xff;
  Len &= 0xff;
  unsigned F = B;
  for (unsigned Bit = 0; Bit < Len && Pos + Bit <= 31; ++Bit)
    F = (F & ~(1u << (Pos + Bit))) | ((A >> Bit) & 1) << (Pos + Bit);
  return F;
}

static __device__ unsigned prmtRef(unsigned A, unsigned B, unsigned Sel) {
  unsigned long long Bytes = (unsigned long long)B << 32 | A;
  unsigned D = 0;
  for (unsigned K = 0; K < 4; ++K) {
    unsigned S = (Sel >> (4 * K)) & 0xf;
    unsigned Byte = (Bytes >> (8 * (S & 7))) & 0xff;
    if (S & 8)
      Byte = Byte & 0x80 ? 0xff : 0;
    D |= Byte << (8 * K);
  }
  return D;
}

/// CUB's BFE/BFI/PRMT, CUTLASS's lop3 and funnel shifts, and the bit
/// counts, each XOR its plain C reference: Out[8 * I + K] is 0.
extern "C" __global__ void asmBits(const unsigned *In, unsigned *Out) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned A = In[I], B = In[I ^ 1], C = In[I ^ 2];
  unsigned Pos = I % 37, Len = (I / 37) % 37;
  unsigned *O = Out + 8 * I;

  unsigned U, S;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(U) : "r"(A), "r"(Pos), "r"(Len));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(S) : "r"(A), "r"(Pos), "r"(Len));
  O[0] = (U ^ bfeRef(A, Pos, Len, false)) | (S ^ bfeRef(A, Pos, Len, true));

  unsigned F;
  asm("bfi.b32 %0, %1, %2, %3, %4;"
      : "=r"(F)
      : "r"(A), "r"(B), "r"(Pos), "r"(Len));
  O[1] = F ^ bfiRef(A, B, Pos, Len);

  unsigned P, Q;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(P) : "r"(A), "r"(B), "r"(C));
  asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(Q) : "r"(A), "r"(B));
  O[2] = (P ^ prmtRef(A, B, C)) | (Q ^ prmtRef(A, B, 0x5140));

  unsigned Xor3, Majority;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(Xor3) : "r"(A), "r"(B), "r"(C));
  asm("lop3.b32 %0, %1, %2, %3, %4;"
      : "=r"(Majority)
      : "r"(A), "r"(B), "r"(C), "n"(0xE8));
  O[3] = (Xor3 ^ (A ^ B ^ C)) | (Majority ^ ((A & B) | (A & C) | (B & C)));

  unsigned L, R;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(L) : "r"(A), "r"(B), "r"(Pos));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(R) : "r"(A), "r"(B), "r"(Pos));
  unsigned long long Wide = (unsigned long long)B << 32 | A;
  unsigned WantL = (unsigned)((Wide << (Pos & 31)) >> 32);
  unsigned WantR = (unsigned)(Wide >> (Pos < 32 ? Pos : 32));
  O[4] = (L ^ WantL) | (R ^ WantR);

  unsigned Pop, Clz, Rev, Find;
  asm("popc.b32 %0, %1;" : "=r"(Pop) : "r"(A));
  asm("clz.b32 %0, %1;" : "=r"(Clz) : "r"(A));
  asm("brev.b32 %0, %1;" : "=r"(Rev) : "r"(A));
  asm("bfind.u32 %0, %1;" : "=r"(Find) : "r"(A));
  unsigned WantPop = 0, WantClz = 32, WantRev = 0, WantFind = 0xffffffffu;
  for (unsigned Bit = 0; Bit < 32; ++Bit) {
    if ((A >> Bit) & 1) {
      ++WantPop;
      WantClz = 31 - Bit;
      WantFind = Bit;
    }
    WantRev |= ((A >> Bit) & 1) << (31 - Bit);
  }
  O[5] =
      (Pop ^ WantPop) | (Clz ^ WantClz) | (Rev ^ WantRev) | (Find ^ WantFind);

  unsigned short H = (unsigned short)A, HSum;
  asm("add.u16 %0, %1, %2;" : "=h"(HSum) : "h"(H), "h"((unsigned short)7));
  O[6] = HSum ^ (unsigned short)(H + 7);

  unsigned long long Product, Hi;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(Product) : "r"(A), "r"(B));
  asm("mul.hi.u64 %0, %1, %2;" : "=l"(Hi) : "l"(Product), "l"(Wide));
  unsigned long long WantHi = __umul64hi((unsigned long long)A * B, Wide);
  O[7] = (unsigned)((Product ^ (unsigned long long)A * B) | (Hi ^ WantHi));
}

/// Whether two floats are the same value (any NaN matches any NaN: the
/// payload of a NaN result is not what is tested).
static __device__ bool same(float A, float B) {
  return __float_as_uint(A) == __float_as_uint(B) || (A != A && B != B);
}
static __device__ bool same(double A, double B) {
  return __double_as_longlong(A) == __double_as_longlong(B) ||
         (A != A && B != B);
}

/// Conversions and IEEE arithmetic in asm ("f", "d", "h" operands), each
/// against its C equivalent: Out[4 * I + K] is 0 where they agree.
extern "C" __global__ void asmFloat(const float *In, unsigned *Out) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  float X = In[I], Y = In[I ^ 1];
  unsigned *O = Out + 4 * I;

  int Rounded;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(Rounded) : "f"(X));
  O[0] = Rounded - __float2int_rn(X);

  float Fma, Sqrt;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(Fma) : "f"(X), "f"(Y), "f"(1.0f));
  asm("sqrt.rn.f32 %0, %1;" : "=f"(Sqrt) : "f"(X));
  O[1] = !same(Fma, __fmaf_rn(X, Y, 1.0f)) | !same(Sqrt, __fsqrt_rn(X)) << 1;

  double D = X, Quotient;
  asm("div.rn.f64 %0, %1, %2;" : "=d"(Quotient) : "d"(D), "d"(3.0));
  O[2] = !same(Quotient, __ddiv_rn(D, 3.0));

  unsigned short Half;
  float Back;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(Half) : "f"(X));
  asm("{\n\t.reg .f16 h;\n\tmov.b16 h, %1;\n\tcvt.f32.f16 %0, h;\n\t}"
      : "=f"(Back)
      : "h"(Half));
  bool HalfOk = X != X || Half == __half_as_ushort(__float2half_rn(X));
  O[3] = !HalfOk | !same(Back, __half2float(__ushort_as_half(Half))) << 1;
}

/// CUB's WarpReduceShfl step: shfl.sync.down with a predicate output
/// guarding the add, in a block of its own; lane 0 of each warp writes the
/// warp's sum. Also a ballot and an index shuffle through asm.
extern "C" __global__ void asmWarpReduce(const unsigned *In, unsigned *Sums,
                                         unsigned *Ballots,
                                         unsigned *Broadcast) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned V = In[I];
  for (unsigned Offset = 1; Offset < 32; Offset *= 2) {
    unsigned Out;
    asm volatile("{\n\t"
                 ".reg .u32 r0;\n\t"
                 ".reg .pred p;\n\t"
                 "shfl.sync.down.b32 r0|p, %1, %2, %3, %4;\n\t"
                 "@p add.u32 r0, r0, %1;\n\t"
                 "mov.u32 %0, r0;\n\t"
                 "}"
                 : "=r"(Out)
                 : "r"(V), "r"(Offset), "r"(31), "r"(0xffffffffu));
    V = Out;
  }
  if (laneId() == 0)
    Sums[I / 32] = V;

  unsigned Ballot;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.ballot.b32 %0, p, %2;\n\t}"
               : "=r"(Ballot)
               : "r"(In[I] & 1), "r"(0xffffffffu));
  Ballots[I] = Ballot;

  unsigned Lane5;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;"
               : "=r"(Lane5)
               : "r"(I), "r"(5), "r"(0x1f), "r"(0xffffffffu));
  Broadcast[I] = Lane5;
}

/// Shared memory through 32-bit shared addresses (cvta.to.shared), an
/// atomic add on it, a bar.sync inside an asm between the atomics and the
/// reads, and global atomics and reductions through "l" pointers.
extern "C" __global__ void asmSharedAtomics(unsigned *Counts, unsigned *Tiles,
                                            unsigned *Total) {
  __shared__ unsigned Count;
  __shared__ unsigned Tile[129]; // Tile[128] repeats Tile[0]
  unsigned CountAddr, TileAddr;
  asm("{\n\t.reg .u64 t;\n\tcvta.to.shared.u64 t, %1;\n\t"
      "cvt.u32.u64 %0, t;\n\t}"
      : "=r"(CountAddr)
      : "l"(&Count));
  asm("{\n\t.reg .u64 t;\n\tcvta.to.shared.u64 t, %1;\n\t"
      "cvt.u32.u64 %0, t;\n\t}"
      : "=r"(TileAddr)
      : "l"(&Tile[threadIdx.x]));
  if (threadIdx.x == 0)
    asm volatile("st.shared.u32 [%0], 0;" ::"r"(CountAddr) : "memory");
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(TileAddr), "r"(threadIdx.x * 3)
               : "memory");
  if (threadIdx.x == 0)
    asm volatile("st.shared.u32 [%0+512], 0;" ::"r"(TileAddr) : "memory");
  asm volatile("bar.sync 0;" ::: "memory");
  unsigned Old;
  asm volatile("atom.shared.add.u32 %0, [%1], 1;"
               : "=r"(Old)
               : "r"(CountAddr)
               : "memory");
  asm volatile("bar.sync 0;" ::: "memory");
  unsigned Mine, Neighbour;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(Mine) : "r"(CountAddr));
  asm volatile("ld.shared.u32 %0, [%1+4];" : "=r"(Neighbour) : "r"(TileAddr));
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  Counts[I] = Mine;
  Tiles[I] = Neighbour;
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(Total),
               "r"((unsigned)(Old < 128))
               : "memory");
  asm volatile("membar.gl;" ::: "memory");
}

/// Loads and stores through "l" pointers with cache operators (CUTLASS's
/// global loads), a prefetch, and an empty asm as a compiler barrier.
extern "C" __global__ void asmGlobalMemory(const unsigned *In, unsigned *Out) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned V, W;
  asm volatile("prefetch.global.L2 [%0];" ::"l"(In + I));
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(V) : "l"(In + I));
  asm volatile("ld.global.ca.u32 %0, [%1+4];" : "=r"(W) : "l"(In + (I & ~1u)));
  asm volatile("" ::: "memory");
  asm volatile("st.global.wb.u32 [%0], %1;" ::"l"(Out + I), "r"(V * 2 + W)
               : "memory");
}

/// A loop inside an asm, with a label made unique by %= and a guarded
/// branch back to it: the bits of In[I] counted one at a time, minus
/// __popc. Out[I] is 0.
extern "C" __global__ void asmLoop(const unsigned *In, unsigned *Out) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Count;
  asm("{\n\t"
      ".reg .u32 v, bit;\n\t"
      ".reg .pred more;\n\t"
      "mov.u32 %0, 0;\n\t"
      "mov.u32 v, %1;\n\t"
      "setp.ne.u32 more, v, 0;\n\t"
      "@!more bra DONE_%=;\n"
      "LOOP_%=:\n\t"
      "and.b32 bit, v, 1;\n\t"
      "add.u32 %0, %0, bit;\n\t"
      "shr.u32 v, v, 1;\n\t"
      "setp.ne.u32 more, v, 0;\n\t"
      "@more bra LOOP_%=;\n"
      "DONE_%=:\n\t"
      "}"
      : "=r"(Count)
      : "r"(In[I]));
  Out[I] = Count - __popc(In[I]);
}

/// Flag handoff as conjugateGradientMultiDeviceCG writes it (an 8-bit
/// ld.acquire.sys into a 32-bit register, st.release.sys of its low byte),
/// cudaGraphsPerfScaling's %globaltimer and cdpAdvancedQuicksort's bfind.
/// Out[0] is the flag read, Out[1] 1 when the timer runs, Out[2] bfind.
extern "C" __global__ void asmAcquireRelease(unsigned char *Flags,
                                             unsigned *Out) {
  unsigned Flag;
  asm volatile("ld.acquire.sys.global.u8 %0, [%1];"
               : "=r"(Flag)
               : "l"(Flags)
               : "memory");
  unsigned Next = Flag + 0x101; // only the low byte is stored
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(Next), "l"(Flags + 1)
               : "memory");
  unsigned long long Timer;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Timer));
  unsigned Msb;
  asm volatile("bfind.u32 %0, %1;" : "=r"(Msb) : "r"(Flag | 0x100));
  Out[0] = Flag;
  Out[1] = Timer != 0;
  Out[2] = Msb;
}
