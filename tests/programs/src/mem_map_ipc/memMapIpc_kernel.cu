/* Child Child of Children writes the slots I of Data[0..N) with
   I % Children == Child: the value the parent expects if the slot still
   holds the parent's Sentinel, a mark of the mismatch if not. */
extern "C" __global__ void stampSlots(unsigned *Data, unsigned long long N,
                                      unsigned Children, unsigned Child,
                                      unsigned Sentinel) {
  for (unsigned long long I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    if (I % Children != Child)
      continue;
    unsigned Expected = (Child + 1u) * 0x01000000u + (unsigned)I;
    Data[I] = Data[I] == Sentinel ? Expected : 0xDEADBEEFu;
  }
}
