// A program written against Thrust and CUB (Debian's libthrust-dev and
// libcub-dev): a sequence, a reduction, a transform with a functor and a
// radix sort large enough for CUB's multi-pass sort (whose kernels end
// threads with an inline-PTX exit). Prints PASSED when every result is right.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>

struct Square {
  __host__ __device__ int operator()(int X) const { return X * X; }
};

int main() {
  const int N = 1 << 16;
  thrust::device_vector<int> Seq(N);
  thrust::sequence(Seq.begin(), Seq.end());
  long long Sum = thrust::reduce(Seq.begin(), Seq.end(), 0LL);
  thrust::device_vector<int> Squares(N);
  thrust::transform(Seq.begin(), Seq.end(), Squares.begin(), Square());
  thrust::host_vector<int> Shuffled(N);
  for (int I = 0; I < N; ++I)
    Shuffled[I] = (I * 7919) % N;
  thrust::device_vector<int> Sorted = Shuffled;
  thrust::sort(Sorted.begin(), Sorted.end());
  thrust::host_vector<int> Back = Sorted;
  thrust::host_vector<int> SquaresBack = Squares;
  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    Wrong += Back[I] != I || SquaresBack[I] != I * I;
  bool Ok = Sum == (long long)N * (N - 1) / 2 && Wrong == 0;
  std::printf(Ok ? "PASSED\n" : "FAILED: sum %lld, %d wrong elements\n", Sum,
              Wrong);
  return Ok ? 0 : 1;
}
