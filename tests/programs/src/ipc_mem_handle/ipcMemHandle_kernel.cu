/* Child Child of Children updates the elements I of Data[0..N) with
   I % Children == Child from the parent's value V to 2 * V + Child + 1. */
extern "C" __global__ void updateShare(unsigned *Data, int N, unsigned Children,
                                       unsigned Child) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N && (unsigned)I % Children == Child)
    Data[I] = 2u * Data[I] + Child + 1u;
}
