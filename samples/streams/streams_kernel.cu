// The kernel of samples/streams: each thread walks its share of the
// stream's slice (grid-stride) and writes a polynomial of each input.
extern "C" __global__ void process(float *Out, const float *In, int Count) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < Count;
       I += gridDim.x * blockDim.x) {
    float X = In[I];
    Out[I] = ((0.5f * X + 2.0f) * X - 1.0f) * X + 3.0f;
  }
}
