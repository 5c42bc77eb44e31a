// Warp functions with partial masks and width < 32.
#define LANE (threadIdx.x % 32)

extern "C" __global__ void shflUpWidth(int *Out) {
  Out[threadIdx.x] = __shfl_up_sync(0xffffffff, (int)threadIdx.x, 3, 8);
}

extern "C" __global__ void shflDownWidth(int *Out) {
  Out[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 5, 16);
}

extern "C" __global__ void shflXor(int *Out) {
  Out[threadIdx.x] = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 5);
}

// Width 4, lane mask 6: a lane may read from an earlier segment but gets its
// own value when the partner lies in a later one.
extern "C" __global__ void shflXorWidth(int *Out) {
  Out[threadIdx.x] = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 6, 4);
}

// Source lanes beyond the width wrap within the segment.
extern "C" __global__ void shflIdxWrap(int *Out) {
  Out[threadIdx.x] = __shfl_sync(0xffffffff, (int)threadIdx.x, 9, 8);
}

// 64-bit and double shuffles.
extern "C" __global__ void shfl64(long long *OutL, double *OutD) {
  long long V = (long long)threadIdx.x << 40 | threadIdx.x;
  OutL[threadIdx.x] = __shfl_sync(0xffffffff, V, (LANE + 1) % 32);
  OutD[threadIdx.x] = __shfl_sync(0xffffffff, threadIdx.x * 0.5, 0);
}

// Only the even lanes take part.
extern "C" __global__ void shflPartial(int *Out) {
  int V = -1;
  if (LANE % 2 == 0)
    V = __shfl_sync(0x55555555, (int)LANE * 10, (LANE + 2) % 32);
  Out[threadIdx.x] = V;
}

extern "C" __global__ void ballotPartial(unsigned *Out) {
  unsigned V = 0;
  if (LANE < 20)
    V = __ballot_sync(0x000fffff, LANE % 3 == 0);
  Out[threadIdx.x] = V;
}

// Bit 0: all(lane < 31); bit 1: any(lane == 31); bit 2: all over the lower
// half (lower lanes only); bit 3: any(false); bit 4: all(true).
extern "C" __global__ void anyAll(int *Out) {
  int R = (__all_sync(0xffffffff, LANE < 31) != 0) |
          (__any_sync(0xffffffff, LANE == 31) != 0) << 1 |
          (__any_sync(0xffffffff, 0) != 0) << 3 |
          (__all_sync(0xffffffff, 1) != 0) << 4;
  if (LANE < 16)
    R |= (__all_sync(0x0000ffff, LANE < 16) != 0) << 2;
  Out[threadIdx.x] = R;
}

// A 48-thread block: the second warp has 16 threads.
extern "C" __global__ void activeMask(unsigned *Out) {
  Out[threadIdx.x] = __activemask();
}

// Lanes below 16 ask for the active mask while the others go on to the
// barrier: each half sees only itself (Out[i] = 0xffff for i % 32 < 16,
// and lanes 16..31 write 0 after the barrier).
extern "C" __global__ void activeMaskDivergent(unsigned *Out) {
  unsigned Mask = 0;
  if (threadIdx.x % 32 < 16)
    Mask = __activemask();
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Mask;
}

extern "C" __global__ void matchAny(unsigned *Out) {
  Out[threadIdx.x] = __match_any_sync(0xffffffff, (int)LANE / 4);
}

// Bits 0-31 hold the mask, bit 32 the predicate.
extern "C" __global__ void matchAll(unsigned long long *Out) {
  int Pred1 = 0, Pred2 = 0;
  unsigned Same = __match_all_sync(0xffffffff, 7, &Pred1);
  unsigned Differ = __match_all_sync(0xffffffff, (long long)LANE, &Pred2);
  Out[2 * threadIdx.x] = Same | (unsigned long long)(Pred1 != 0) << 32;
  Out[2 * threadIdx.x + 1] = Differ | (unsigned long long)(Pred2 != 0) << 32;
}

// __syncwarp orders shared-memory accesses within the warp.
extern "C" __global__ void syncWarp(int *Out) {
  __shared__ int Buf[64];
  Buf[threadIdx.x] = threadIdx.x * 3;
  __syncwarp();
  int V = Buf[(threadIdx.x / 32) * 32 + (LANE + 7) % 32];
  __syncwarp();
  Buf[threadIdx.x] = V;
  __syncwarp(0xffffffff);
  Out[threadIdx.x] = Buf[threadIdx.x];
}

// The two halves of each warp shuffle on the two sides of a branch, then
// the whole warp votes: lanes that diverged to different warp operations
// do not mix their operands (Out[i] = 0xaaaaaaaa; Out2 holds lane 0's or
// lane 16's id).
extern "C" __global__ void shuffleBothSidesThenBallot(unsigned *Out,
                                                       unsigned *Out2) {
  unsigned Mine = threadIdx.x, Got;
  if (LANE < 16)
    Got = __shfl_sync(0x0000ffff, Mine, 0);
  else
    Got = __shfl_sync(0xffff0000, Mine, 16);
  Out[threadIdx.x] = __ballot_sync(0xffffffff, LANE & 1);
  Out2[threadIdx.x] = Got;
}

// Odd lanes ballot twice, even lanes vote three times, then lanes 0-9
// shuffle across both groups (Out[i] = (i + 1) % 10 * 10 for lanes below
// 10, else 0; Out2 holds the votes: 0x02020202 for odd lanes, 1 for even).
extern "C" __global__ void divergentVotesThenShuffle(unsigned *Out,
                                                      unsigned *Out2) {
  unsigned Vote;
  bool Six = LANE == 6;
  if (LANE & 1) {
    Vote = __ballot_sync(0xaaaaaaaa, Six || LANE % 8 == 1);
  } else {
    Vote = __any_sync(0x55555555, Six);
    Vote |= __all_sync(0x55555555, Six) << 1;
  }
  __syncwarp();
  unsigned R = 0;
  if (LANE < 10)
    R = __shfl_sync(0x3ff, LANE * 10, (LANE + 1) % 10);
  Out[threadIdx.x] = R;
  Out2[threadIdx.x] = Vote;
}

// The warp reconverges after an if/else whose sides vote with their own
// masks: __activemask() in lanes 0-9 after it answers 0x3ff, though the
// odd lanes vote once more than the even ones (Out2 keeps the votes).
extern "C" __global__ void activeMaskAfterDivergentVotes(unsigned *Out,
                                                          unsigned *Out2) {
  unsigned Vote;
  if (LANE & 1) {
    Vote = __ballot_sync(0xaaaaaaaa, LANE < 8);
    Vote += __ballot_sync(0xaaaaaaaa, LANE < 16);
  } else {
    Vote = __any_sync(0x55555555, LANE == 4);
  }
  unsigned Mask = 0;
  if (LANE < 10)
    Mask = __activemask();
  Out[threadIdx.x] = Mask;
  Out2[threadIdx.x] = Vote;
}

// Lanes 0-7 shuffle with the mask 0xff from lanes the mask leaves out, which
// have not come to the shuffle: the GPU gives 0 where the source lane is in
// the segment (an index past it gives the lane's own value), and
// cuda-samples' reduce7 depends on it in its last warp step. Out[6*l + k] for
// lane l: down 16, down 4, xor 16, index l+20, up 1, and the sum of a
// reduction with offsets 16 down to 1.
extern "C" __global__ void shuffleFromLanesOutsideTheMask(int *Out) {
  int Lane = LANE;
  int V = 1000 + Lane;
  if (Lane < 8) {
    int *R = Out + 6 * Lane;
    R[0] = __shfl_down_sync(0xffu, V, 16);
    R[1] = __shfl_down_sync(0xffu, V, 4);
    R[2] = __shfl_xor_sync(0xffu, V, 16);
    R[3] = __shfl_sync(0xffu, V, Lane + 20);
    R[4] = __shfl_up_sync(0xffu, V, 1);
    int Sum = V;
    for (int Offset = 16; Offset > 0; Offset /= 2)
      Sum += __shfl_down_sync(0xffu, Sum, Offset);
    R[5] = Sum;
  }
}
