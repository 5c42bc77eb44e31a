// The SIMD intrinsics (CUDA Math API, "SIMD Intrinsics": __vadd4, __vsadu2,
// __vcmpgts4, ...) and the SIMD video instructions written as inline PTX
// (vabsdiff4 ... .add as cuda-samples' stereoDisparity writes it): each
// against plain C on the same lanes. A result that differs from its C
// reference stores the difference's bits, so a pass is all zeros: on cucpu
// and on NVIDIA's GPU, which is what makes the C here the GPU's semantics.

/// Lane I (of W bits) of X, zero- or sign-extended.
__device__ int lane(unsigned X, int I, int W, bool Signed) {
  unsigned V = (X >> (I * W)) & ((1u << W) - 1);
  if (Signed && (V >> (W - 1)))
    return int(V) - (1 << W);
  return int(V);
}

__device__ int clampLane(int V, int W, bool Signed) {
  int Low = Signed ? -(1 << (W - 1)) : 0;
  int High = Signed ? (1 << (W - 1)) - 1 : (1 << W) - 1;
  return V < Low ? Low : V > High ? High : V;
}

/// The per-lane operations of the intrinsics, by number.
enum LaneOp {
  Abs, AbsSat, Neg, NegSat, AbsDiffS, AbsDiffU, Add, AddSS, AddUS, AvgS,
  AvgU, HAddU, CmpEq, CmpNe, CmpGeS, CmpGeU, CmpGtS, CmpGtU, CmpLeS, CmpLeU,
  CmpLtS, CmpLtU, SetEq, SetNe, SetGeS, SetGeU, SetGtS, SetGtU, SetLeS,
  SetLeU, SetLtS, SetLtU, MaxS, MaxU, MinS, MinU, Sub, SubSS, SubUS, SadS,
  SadU, LaneOps
};

__device__ int laneOp(int Op, unsigned A, unsigned B, int I, int W) {
  int SA = lane(A, I, W, true), SB = lane(B, I, W, true);
  int UA = lane(A, I, W, false), UB = lane(B, I, W, false);
  int Ones = (1 << W) - 1;
  switch (Op) {
  case Abs: return SA < 0 ? -SA : SA;
  case AbsSat: return clampLane(SA < 0 ? -SA : SA, W, true);
  case Neg: return -SA;
  case NegSat: return clampLane(-SA, W, true);
  case AbsDiffS: return SA > SB ? SA - SB : SB - SA;
  case AbsDiffU: return UA > UB ? UA - UB : UB - UA;
  case Add: return UA + UB;
  case AddSS: return clampLane(SA + SB, W, true);
  case AddUS: return clampLane(UA + UB, W, false);
  case AvgS: {
    int Sum = SA + SB;
    return Sum >= 0 ? (Sum + 1) >> 1 : Sum >> 1;
  }
  case AvgU: return (UA + UB + 1) >> 1;
  case HAddU: return (UA + UB) >> 1;
  case CmpEq: return UA == UB ? Ones : 0;
  case CmpNe: return UA != UB ? Ones : 0;
  case CmpGeS: return SA >= SB ? Ones : 0;
  case CmpGeU: return UA >= UB ? Ones : 0;
  case CmpGtS: return SA > SB ? Ones : 0;
  case CmpGtU: return UA > UB ? Ones : 0;
  case CmpLeS: return SA <= SB ? Ones : 0;
  case CmpLeU: return UA <= UB ? Ones : 0;
  case CmpLtS: return SA < SB ? Ones : 0;
  case CmpLtU: return UA < UB ? Ones : 0;
  case SetEq: return UA == UB;
  case SetNe: return UA != UB;
  case SetGeS: return SA >= SB;
  case SetGeU: return UA >= UB;
  case SetGtS: return SA > SB;
  case SetGtU: return UA > UB;
  case SetLeS: return SA <= SB;
  case SetLeU: return UA <= UB;
  case SetLtS: return SA < SB;
  case SetLtU: return UA < UB;
  case MaxS: return SA > SB ? SA : SB;
  case MaxU: return UA > UB ? UA : UB;
  case MinS: return SA < SB ? SA : SB;
  case MinU: return UA < UB ? UA : UB;
  case Sub: return UA - UB;
  case SubSS: return clampLane(SA - SB, W, true);
  case SubUS: return clampLane(UA - UB, W, false);
  case SadS: return SA > SB ? SA - SB : SB - SA;
  case SadU: return UA > UB ? UA - UB : UB - UA;
  }
  return 0;
}

/// The intrinsic's result by C: lanes packed, or summed for the SADs.
__device__ unsigned reference(int Op, unsigned A, unsigned B, int W) {
  unsigned R = 0;
  for (int I = 0; I < 32 / W; ++I) {
    int V = laneOp(Op, A, B, I, W);
    if (Op == SadS || Op == SadU)
      R += unsigned(V);
    else
      R |= (unsigned(V) & ((1u << W) - 1)) << (I * W);
  }
  return R;
}

__device__ unsigned intrinsic(int Op, unsigned A, unsigned B, int W) {
#define PAIR(Op, Name)                                                         \
  case Op:                                                                     \
    return W == 16 ? Name##2(A, B) : Name##4(A, B);
#define PAIR1(Op, Name)                                                        \
  case Op:                                                                     \
    return W == 16 ? Name##2(A) : Name##4(A);
  switch (Op) {
    PAIR1(Abs, __vabs) PAIR1(AbsSat, __vabsss) PAIR1(Neg, __vneg)
    PAIR1(NegSat, __vnegss) PAIR(AbsDiffS, __vabsdiffs)
    PAIR(AbsDiffU, __vabsdiffu) PAIR(Add, __vadd) PAIR(AddSS, __vaddss)
    PAIR(AddUS, __vaddus) PAIR(AvgS, __vavgs) PAIR(AvgU, __vavgu)
    PAIR(HAddU, __vhaddu) PAIR(CmpEq, __vcmpeq) PAIR(CmpNe, __vcmpne)
    PAIR(CmpGeS, __vcmpges) PAIR(CmpGeU, __vcmpgeu) PAIR(CmpGtS, __vcmpgts)
    PAIR(CmpGtU, __vcmpgtu) PAIR(CmpLeS, __vcmples) PAIR(CmpLeU, __vcmpleu)
    PAIR(CmpLtS, __vcmplts) PAIR(CmpLtU, __vcmpltu) PAIR(SetEq, __vseteq)
    PAIR(SetNe, __vsetne) PAIR(SetGeS, __vsetges) PAIR(SetGeU, __vsetgeu)
    PAIR(SetGtS, __vsetgts) PAIR(SetGtU, __vsetgtu) PAIR(SetLeS, __vsetles)
    PAIR(SetLeU, __vsetleu) PAIR(SetLtS, __vsetlts) PAIR(SetLtU, __vsetltu)
    PAIR(MaxS, __vmaxs) PAIR(MaxU, __vmaxu) PAIR(MinS, __vmins)
    PAIR(MinU, __vminu) PAIR(Sub, __vsub) PAIR(SubSS, __vsubss)
    PAIR(SubUS, __vsubus) PAIR(SadS, __vsads) PAIR(SadU, __vsadu)
  }
#undef PAIR
#undef PAIR1
  return 0;
}

/// Bad[(2 * Op + (W == 8)) * N + i]: intrinsic XOR reference for inputs i.
extern "C" __global__ void simdIntrinsics(const unsigned *A, const unsigned *B,
                                          unsigned *Bad, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  for (int Op = 0; Op < LaneOps; ++Op)
    for (int W = 16; W >= 8; W -= 8) {
      unsigned Got = intrinsic(Op, A[I], B[I], W);
      Bad[(2 * Op + (W == 8)) * N + I] = Got ^ reference(Op, A[I], B[I], W);
    }
}

/// The video instructions as inline PTX, each against its reference:
/// Bad[k * N + i] for the k-th form.
extern "C" __global__ void simdInlineAsm(const unsigned *A, const unsigned *B,
                                         unsigned *Bad, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  unsigned X = A[I], Y = B[I], C = A[(I + 1) % N], R;
  int K = 0;
  // stereoDisparity's sum of absolute differences, accumulated onto C.
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ (C + reference(SadU, X, Y, 8));
  asm("vabsdiff2.s32.s32.s32.add %0, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ (C + reference(SadS, X, Y, 16));
  asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ reference(AddUS, X, Y, 8);
  asm("vsub2.s32.s32.s32.sat %0, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ reference(SubSS, X, Y, 16);
  asm("vavrg4.s32.s32.s32 %0, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ reference(AvgS, X, Y, 8);
  asm("vmax2.u32.u32.u32 %0, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ reference(MaxU, X, Y, 16);
  asm("vset4.s32.s32.lt %0, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ reference(SetLtS, X, Y, 8);
  // The merge: lanes outside the mask come from C.
  asm("vmin4.u32.u32.u32 %0.b20, %1, %2, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] =
      R ^ ((reference(MinU, X, Y, 8) & 0x00ff00ffu) | (C & 0xff00ff00u));
  // Selectors: each operand takes the other register's half-words, swapped.
  asm("vadd2.u32.u32.u32 %0, %1.h23, %2.h01, %3;"
      : "=r"(R) : "r"(X), "r"(Y), "r"(C));
  Bad[K++ * N + I] = R ^ reference(Add, (Y >> 16) | (Y << 16),
                                   (X >> 16) | (X << 16), 16);
}
