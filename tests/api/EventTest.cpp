//===- EventTest.cpp - cuEvent* -------------------------------------------===//

#include "DriverTest.h"

#include <chrono>
#include <thread>

using namespace cuapi;

namespace {

using Event = DriverTest;
using EventNoContext = NoContextTest;

TEST_F(Event, CreateEveryValidFlagCombination) {
  const unsigned Valid[] = {CU_EVENT_DEFAULT, CU_EVENT_BLOCKING_SYNC,
                            CU_EVENT_DISABLE_TIMING,
                            CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING,
                            CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING};
  for (unsigned Flags : Valid) {
    CUevent E = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuEventCreate(&E, Flags)) << "flags " << Flags;
    EXPECT_NE(nullptr, E) << "a real handle";
    if (E) {
      EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E))
          << "cleanup: destroy the event";
    }
  }
}

TEST_F(Event, CreateUnknownFlagsRejected) {
  CUevent E = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&E, 99))
      << "observed on NVIDIA: unknown flags";
}

TEST_F(Event, CreateInterprocessNeedsDisableTiming) {
  CUevent E = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&E, CU_EVENT_INTERPROCESS))
      << "CU_EVENT_INTERPROCESS requires CU_EVENT_DISABLE_TIMING";
}

TEST_F(Event, CreateNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(nullptr, 0))
      << "the output pointer is required";
}

TEST_F(EventNoContext, CreateWithoutContextRejected) {
  CUevent E = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuEventCreate(&E, 0))
      << "R-CTX-4: events belong to the current context";
}

TEST_F(Event, RecordQuerySynchronize) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr)) << "E.6.2: stream 0";
  EXPECT_CU(CUDA_SUCCESS, cuEventSynchronize(E)) << "E.6.4: waits for it";
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(E)) << "E.6.3: recorded";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
}

TEST_F(Event, RecordOnAStream) {
  CUstream S = nullptr;
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, CU_EVENT_BLOCKING_SYNC))
      << "setup: an event";
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1 << 20)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(P, 3, 1 << 20, S))
      << "queue a memset";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, S)) << "record the event";
  CUresult R = cuEventQuery(E);
  EXPECT_TRUE(R == CUDA_SUCCESS || R == CUDA_ERROR_NOT_READY)
      << "E.6.3: recorded or not yet, got " << resultName(R);
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(E)) << "wait for the event";
  unsigned char Last = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Last, P + (1 << 20) - 1, 1))
      << "read the device memory back";
  EXPECT_EQ(3, Last) << "the event completed after the memset before it";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Event, RecordTwiceIsAllowed) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  EXPECT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr)) << "record the event";
  EXPECT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr))
      << "observed on NVIDIA: re-recording is allowed (the seed said "
         "INVALID_VALUE while pending)";
  EXPECT_CU(CUDA_SUCCESS, cuEventSynchronize(E)) << "wait for the event";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
}

TEST_F(Event, QueryNeverRecordedSucceeds) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(E))
      << "observed on NVIDIA: success (the seed said INVALID_VALUE)";
  EXPECT_CU(CUDA_SUCCESS, cuEventSynchronize(E))
      << "observed on NVIDIA: success (the seed said INVALID_VALUE)";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
}

TEST_F(Event, RecordNullEventRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(nullptr, nullptr))
      << "NULL is no event";
}

TEST_F(Event, QueryNullEventRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(nullptr))
      << "NULL is no event";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventSynchronize(nullptr))
      << "NULL is no event";
}

TEST_F(Event, DestroyNullRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventDestroy(nullptr))
      << "NULL is no event";
}

TEST_F(Event, ElapsedTimeBetweenRecordedEvents) {
  CUevent Start = nullptr, Stop = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Start, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Stop, 0)) << "setup: an event";
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 16 << 20)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Start, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P, 1, 16 << 20)) << "a valid memset";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Stop, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Stop)) << "wait for the event";
  float Ms = -1.0f;
  ASSERT_CU(CUDA_SUCCESS, cuEventElapsedTime(&Ms, Start, Stop))
      << "time between recorded events";
  EXPECT_GE(Ms, 0.0f) << "E.6.6: milliseconds from start to stop";
  EXPECT_LT(Ms, 10000.0f) << "a 16 MiB memset takes well under 10 s";
  float Back = 1.0f;
  ASSERT_CU(CUDA_SUCCESS, cuEventElapsedTime(&Back, Stop, Start))
      << "time between recorded events";
  EXPECT_LE(Back, 0.0f) << "reversed order gives a non-positive time";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Start))
      << "cleanup: destroy the event";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Stop)) << "cleanup: destroy the event";
}

TEST_F(Event, ElapsedTimeSameEventIsZero) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(E)) << "wait for the event";
  float Ms = -1.0f;
  EXPECT_CU(CUDA_SUCCESS, cuEventElapsedTime(&Ms, E, E))
      << "time between recorded events";
  EXPECT_EQ(0.0f, Ms) << "an event is zero ms from itself";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
}

TEST_F(Event, ElapsedTimeNeverRecordedRejected) {
  CUevent Start = nullptr, Stop = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Start, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Stop, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Start, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Start)) << "wait for the event";
  float Ms = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, Start, Stop))
      << "observed on NVIDIA: INVALID_HANDLE (the seed said INVALID_VALUE)";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, Stop, Start))
      << "either side unrecorded";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Start))
      << "cleanup: destroy the event";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Stop)) << "cleanup: destroy the event";
}

TEST_F(Event, ElapsedTimeDisableTimingRejected) {
  CUevent Start = nullptr, Stop = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Start, CU_EVENT_DISABLE_TIMING))
      << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Stop, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Start, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Stop, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Stop)) << "wait for the event";
  float Ms = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, Start, Stop))
      << "an event without timing data cannot be timed";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Start))
      << "cleanup: destroy the event";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Stop)) << "cleanup: destroy the event";
}

TEST_F(Event, ElapsedTimeNullOutputRejected) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(E)) << "wait for the event";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(nullptr, E, E))
      << "observed on NVIDIA: a NULL output is INVALID_HANDLE, not "
         "INVALID_VALUE";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
}

TEST_F(Event, ElapsedTimeNullEventRejected) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(E)) << "wait for the event";
  float Ms = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, nullptr, E))
      << "NULL is no event";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
}

TEST_F(Event, RecordWithUnknownFlagsRejected) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventRecordWithFlags(E, nullptr, 0x80))
      << "unknown record flags";
  EXPECT_CU(CUDA_SUCCESS, cuEventRecordWithFlags(E, nullptr, 0))
      << "flags 0 is a plain record";
  EXPECT_CU(CUDA_SUCCESS, cuEventSynchronize(E));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
}

TEST_F(Event, ElapsedTimeWithOneEventNeverRecordedRejected) {
  CUevent Start = nullptr, Stop = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Start, 0));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Stop, 0));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Start, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Start));
  float Ms = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, Start, Stop))
      << "the end event was never recorded";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, Stop, Start))
      << "the start event was never recorded";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Start));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Stop));
}

TEST_F(Event, ElapsedTimeBackwardsIsNegative) {
  CUevent First = nullptr, Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&First, 0));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Second, 0));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(First, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(First));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Second, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Second));
  float Ms = 0;
  EXPECT_CU(CUDA_SUCCESS, cuEventElapsedTime(&Ms, Second, First));
  EXPECT_LT(Ms, 0.0f) << "the end event completed before the start event";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(First));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Second));
}

TEST_F(Event, RecordOnStreamOfAnotherContextRejected) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0));
  CUcontext Other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Other)) << "a second context";
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "a stream of it";
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped)) << "back to the fixture's";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(E, S))
      << "the event and the stream belong to different contexts";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Other));
}

} // namespace
