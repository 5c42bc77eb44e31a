//===- EventTest.cu - cudaEvent* -----------------------------------------===//

#include "Blocker.h"
#include "RuntimeTest.h"

using namespace curt;

using Event = RuntimeTest;

__global__ void eventBusyKernel(int *Out, int Rounds) {
  int V = threadIdx.x;
  for (int I = 0; I < Rounds; ++I)
    V = V * 1664525 + 1013904223;
  Out[threadIdx.x] = V;
}

TEST_F(Event, CreateWithEveryFlag) {
  for (unsigned Flags :
       {unsigned(cudaEventDefault), unsigned(cudaEventBlockingSync),
        unsigned(cudaEventDisableTiming),
        unsigned(cudaEventDisableTiming | cudaEventInterprocess)}) {
    cudaEvent_t E = nullptr;
    EXPECT_CUDA(cudaSuccess, cudaEventCreateWithFlags(&E, Flags))
        << "flags " << Flags;
    EXPECT_CUDA(cudaSuccess, cudaEventDestroy(E)) << "cleanup";
  }
}

TEST_F(Event, CreateArgumentsChecked) {
  cudaEvent_t E = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaEventCreateWithFlags(&E, 0x100))
      << "no such flag";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaEventCreateWithFlags(&E, cudaEventInterprocess))
      << "an interprocess event must also disable timing";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaEventCreate(nullptr))
      << "the output pointer is required";
  (void)cudaGetLastError();
}

TEST_F(Event, QueryNeverRecordedSucceeds) {
  cudaEvent_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&E)) << "an event";
  EXPECT_CUDA(cudaSuccess, cudaEventQuery(E))
      << "an event with no work captured is complete";
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(E)) << "and does not block";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(E)) << "cleanup";
}

TEST_F(Event, QueryPendingAndComplete) {
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreate(&S)) << "a stream";
  cudaEvent_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&E)) << "an event";
  Blocker B;
  ASSERT_CUDA(cudaSuccess, B.block(S)) << "S spins";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(E, S)) << "record after the spin";
  EXPECT_CUDA(cudaErrorNotReady, cudaEventQuery(E))
      << "the work before the event is not done";
  B.release();
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(E)) << "wait for it";
  EXPECT_CUDA(cudaSuccess, cudaEventQuery(E)) << "complete";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(Event, ElapsedTimeIsNonNegative) {
  cudaEvent_t Start = nullptr, Stop = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&Start)) << "start";
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&Stop)) << "stop";
  int *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, 256 * sizeof(int))) << "output";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(Start)) << "record start";
  eventBusyKernel<<<1, 256>>>(D, 100000);
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(Stop)) << "record stop";
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(Stop)) << "wait for stop";
  float Ms = -1.0f;
  EXPECT_CUDA(cudaSuccess, cudaEventElapsedTime(&Ms, Start, Stop))
      << "the time between them";
  EXPECT_GE(Ms, 0.0f) << "stop came after start";
  EXPECT_LT(Ms, 10000.0f) << "and not absurdly later";
  float Same = -1.0f;
  EXPECT_CUDA(cudaSuccess, cudaEventElapsedTime(&Same, Start, Start))
      << "an event against itself";
  EXPECT_EQ(0.0f, Same) << "no time passes";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Start)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Stop)) << "cleanup";
}

TEST_F(Event, ElapsedTimeWithDisableTimingRejected) {
  cudaEvent_t Start = nullptr, Stop = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaEventCreateWithFlags(&Start, cudaEventDisableTiming))
      << "an event without timing";
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&Stop)) << "a timing event";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(Start)) << "record";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(Stop)) << "record";
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(Stop)) << "wait";
  float Ms = 0;
  EXPECT_CUDA(cudaErrorInvalidResourceHandle,
              cudaEventElapsedTime(&Ms, Start, Stop))
      << "documented: an event created with cudaEventDisableTiming";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Start)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Stop)) << "cleanup";
}

TEST_F(Event, ElapsedTimeNeverRecordedRejected) {
  cudaEvent_t Start = nullptr, Stop = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&Start)) << "start";
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&Stop)) << "stop";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(Start)) << "record only start";
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(Start)) << "wait";
  float Ms = 0;
  EXPECT_CUDA(cudaErrorInvalidResourceHandle,
              cudaEventElapsedTime(&Ms, Start, Stop))
      << "documented: an event that was never recorded";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Start)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Stop)) << "cleanup";
}

TEST_F(Event, ElapsedTimeNotReady) {
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreate(&S)) << "a stream";
  cudaEvent_t Start = nullptr, Stop = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&Start)) << "start";
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&Stop)) << "stop";
  Blocker B;
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(Start, S)) << "record start";
  ASSERT_CUDA(cudaSuccess, B.block(S)) << "S spins";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(Stop, S)) << "record stop";
  float Ms = 0;
  EXPECT_CUDA(cudaErrorNotReady, cudaEventElapsedTime(&Ms, Start, Stop))
      << "documented: stop has not completed";
  (void)cudaGetLastError();
  B.release();
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(Stop)) << "wait";
  EXPECT_CUDA(cudaSuccess, cudaEventElapsedTime(&Ms, Start, Stop))
      << "now it has";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Start)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Stop)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(Event, ElapsedTimeNullOutputRejected) {
  cudaEvent_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&E)) << "an event";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(E)) << "record";
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(E)) << "wait";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaEventElapsedTime(nullptr, E, E))
      << "the output pointer is required";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(E)) << "cleanup";
}

TEST_F(Event, BlockingSyncEventWaits) {
  cudaEvent_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreateWithFlags(&E, cudaEventBlockingSync))
      << "a blocking-sync event";
  int *Value = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Value, sizeof(int))) << "value";
  *Value = 0;
  storeValue<<<1, 1>>>(Value, 3);
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(E)) << "record after the store";
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(E)) << "the thread sleeps";
  EXPECT_EQ(3, *Value) << "the store before the event is done";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Value)) << "cleanup";
}

TEST_F(Event, RecordTwiceMovesTheEvent) {
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreate(&S)) << "a stream";
  cudaEvent_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&E)) << "an event";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(E, S)) << "first record";
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(E)) << "complete";
  Blocker B;
  ASSERT_CUDA(cudaSuccess, B.block(S)) << "S spins";
  EXPECT_CUDA(cudaSuccess, cudaEventRecord(E, S)) << "record again";
  EXPECT_CUDA(cudaErrorNotReady, cudaEventQuery(E))
      << "the event now stands for the later work";
  B.release();
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(E)) << "wait";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}
