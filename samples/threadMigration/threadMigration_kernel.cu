// Adds a thread's number to its slice of the data.
extern "C" __global__ void addToSlice(int *Data, int Offset, int Count,
                                      int Value) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    Data[Offset + I] += Value;
}
