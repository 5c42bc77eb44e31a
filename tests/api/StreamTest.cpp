//===- StreamTest.cpp - cuStream* -----------------------------------------===//

#include "DriverTest.h"

#include <vector>

using namespace cuapi;

namespace {

using Stream = DriverTest;
using StreamNoContext = NoContextTest;

TEST_F(Stream, CreateDefaultAndNonBlocking) {
  for (unsigned Flags :
       {unsigned(CU_STREAM_DEFAULT), unsigned(CU_STREAM_NON_BLOCKING)}) {
    CUstream S = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, Flags)) << "flags " << Flags;
    EXPECT_NE(nullptr, S) << "a real handle, not the default stream";
    unsigned Got = 0xdead;
    EXPECT_CU(CUDA_SUCCESS, cuStreamGetFlags(S, &Got))
        << "query the stream flags";
    EXPECT_EQ(Flags, Got) << "the flags are reported back";
    EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S))
        << "cleanup: destroy the stream";
  }
}

TEST_F(Stream, CreateUnknownFlagsRejected) {
  CUstream S = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(&S, 7))
      << "observed on NVIDIA: unknown flags";
}

TEST_F(Stream, CreateNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(nullptr, 0))
      << "the output pointer is required";
}

TEST_F(StreamNoContext, CreateWithoutContextRejected) {
  CUstream S = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuStreamCreate(&S, 0))
      << "R-CTX-4: streams belong to the current context";
}

TEST_F(Stream, CreateWithPriorityInRange) {
  int Least = 0, Greatest = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&Least, &Greatest))
      << "query the priority range";
  for (int Prio = Least; Prio >= Greatest; --Prio) {
    CUstream S = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuStreamCreateWithPriority(&S, 0, Prio))
        << "a stream with a priority";
    int Got = 99;
    EXPECT_CU(CUDA_SUCCESS, cuStreamGetPriority(S, &Got))
        << "query the stream priority";
    EXPECT_EQ(Prio, Got) << "a priority in range is kept";
    EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S))
        << "cleanup: destroy the stream";
  }
}

TEST_F(Stream, CreateWithPriorityOutOfRangeIsClamped) {
  int Least = 0, Greatest = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&Least, &Greatest))
      << "query the priority range";
  CUstream Low = nullptr, High = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreateWithPriority(&Low, 0, Least + 100))
      << "out-of-range priorities are clamped, not rejected";
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreateWithPriority(&High, 0, Greatest - 100))
      << "a stream with a priority";
  int P = 99;
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetPriority(Low, &P))
      << "query the stream priority";
  EXPECT_EQ(Least, P) << "clamped to the least priority";
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetPriority(High, &P))
      << "query the stream priority";
  EXPECT_EQ(Greatest, P) << "clamped to the greatest priority";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(Low))
      << "cleanup: destroy the stream";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(High))
      << "cleanup: destroy the stream";
}

TEST_F(Stream, CreateWithPriorityUnknownFlagsRejected) {
  CUstream S = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreateWithPriority(&S, 7, 0))
      << "same flag rule as cuStreamCreate";
}

TEST_F(Stream, QueryAndSynchronizeIdleStream) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S)) << "E.5.2: nothing pending";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S)) << "E.5.3";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Stream, QueryAfterWorkCompletes) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1 << 20)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(P, 1, (1 << 20) / 4, S))
      << "queue a memset";
  CUresult R = cuStreamQuery(S);
  EXPECT_TRUE(R == CUDA_SUCCESS || R == CUDA_ERROR_NOT_READY)
      << "E.5.2: done or not ready, got " << resultName(R);
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "wait for the stream's work";
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S)) << "done after synchronize";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Stream, GetCtxIsTheCreatingContext) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetCtx(S, &C))
      << "query the stream's context";
  EXPECT_EQ(Ctx, C) << "the stream belongs to the context that made it";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetCtx(S, nullptr))
      << "the output pointer is required";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Stream, GetFlagsAndPriorityNullOutputRejected) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetFlags(S, nullptr))
      << "the output pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetPriority(S, nullptr))
      << "the output pointer is required";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Stream, NullStreamIsUsable) {
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(nullptr)) << "stream 0 is valid";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr)) << "stream 0 is valid";
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetCtx(nullptr, &C))
      << "query the stream's context";
  EXPECT_EQ(Ctx, C) << "the NULL stream is the current context's";
  int Prio = 99;
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetPriority(nullptr, &Prio))
      << "query the stream priority";
  EXPECT_EQ(0, Prio) << "the default stream has the default priority";
  unsigned Flags = 0xdead;
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetFlags(nullptr, &Flags))
      << "query the stream flags";
  EXPECT_EQ(0u, Flags) << "the default stream is blocking";
}

TEST_F(Stream, LegacyAndPerThreadHandlesAreUsable) {
  for (CUstream S : {CU_STREAM_LEGACY, CU_STREAM_PER_THREAD}) {
    EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S))
        << "special handle " << reinterpret_cast<uintptr_t>(S);
    EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
        << "wait for the stream's work";
    CUcontext C = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuStreamGetCtx(S, &C))
        << "query the stream's context";
    EXPECT_EQ(Ctx, C) << "special streams belong to the current context";
  }
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 256)) << "setup: device memory";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD8Async(P, 1, 256, CU_STREAM_PER_THREAD))
      << "work can go to the per-thread stream";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD))
      << "wait for the stream's work";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(StreamNoContext, NullStreamWithoutContextRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuStreamSynchronize(nullptr))
      << "the NULL stream means the current context's";
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuStreamQuery(nullptr))
      << "the NULL stream means the current context's";
}

TEST_F(Stream, DestroyNullRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(nullptr))
      << "the default stream cannot be destroyed";
}

TEST_F(Stream, DestroyWithPendingWorkCompletesIt) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1 << 20)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(P, 0x7f, 1 << 20, S))
      << "queue a memset";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S))
      << "E.5.4 note: queued work still completes";
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "wait for the context's work";
  unsigned char Last = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Last, P + (1 << 20) - 1, 1))
      << "read the device memory back";
  EXPECT_EQ(0x7f, Last) << "the memset ran";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Stream, WaitEventOrdersStreams) {
  CUstream S1 = nullptr, S2 = nullptr;
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S1, CU_STREAM_NON_BLOCKING))
      << "setup: a stream";
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S2, CU_STREAM_NON_BLOCKING))
      << "setup: a stream";
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, CU_EVENT_DISABLE_TIMING))
      << "setup: an event";
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1 << 20)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(P, 1, 1 << 20, S1))
      << "queue a memset";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, S1)) << "record the event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(S2, E, 0))
      << "S2's later work waits for E";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(P, 2, 1 << 20, S2))
      << "queue a memset";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S2))
      << "wait for the stream's work";
  unsigned char Last = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Last, P + (1 << 20) - 1, 1))
      << "read the device memory back";
  EXPECT_EQ(2, Last) << "S2's memset ran after S1's";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S1)) << "cleanup: destroy the stream";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S2)) << "cleanup: destroy the stream";
}

TEST_F(Stream, WaitEventOnNullStream) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr)) << "record the event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(nullptr, E, 0))
      << "stream 0 may wait too";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr))
      << "wait for the stream's work";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
}

TEST_F(Stream, WaitNeverRecordedEventIsNoOp) {
  CUstream S = nullptr;
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(S, E, 0))
      << "waiting for an event never recorded waits for nothing";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S)) << "and does not hang";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Stream, WaitEventUnknownFlagsRejected) {
  CUstream S = nullptr;
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitEvent(S, E, 0x10))
      << "0x10 is no CU_EVENT_WAIT_* flag";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Stream, WaitNullEventRejected) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitEvent(S, nullptr, 0))
      << "NULL is no event";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Stream, StreamOfAnotherContextKeepsItsContext) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetCtx(S, &C))
      << "query the stream's context";
  EXPECT_EQ(Ctx, C) << "a stream stays with the context that made it";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "synchronizing a stream does not need its context current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

void CUDA_CB countCall(CUstream, CUresult, void *UserData) {
  ++*static_cast<int *>(UserData);
}

void CUDA_CB countHostCall(void *UserData) { ++*static_cast<int *>(UserData); }

TEST_F(Stream, AddCallbackArgumentsChecked) {
  int Calls = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamAddCallback(nullptr, nullptr, &Calls, 0))
      << "the callback is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamAddCallback(nullptr, countCall, &Calls, 1))
      << "flags must be 0";
  EXPECT_CU(CUDA_SUCCESS, cuStreamAddCallback(nullptr, countCall, &Calls, 0))
      << "a callback on stream 0";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "wait for it";
  EXPECT_EQ(1, Calls) << "it ran once";
}

TEST_F(Stream, LaunchHostFuncArgumentsChecked) {
  int Calls = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchHostFunc(nullptr, nullptr, &Calls))
      << "the function is required";
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  EXPECT_CU(CUDA_SUCCESS, cuLaunchHostFunc(S, countHostCall, &Calls));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S)) << "wait for it";
  EXPECT_EQ(1, Calls) << "it ran once";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Stream, DestroyedStreamRejected) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
#if CUCPU_ONLY
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(S))
      << "a destroyed stream is no stream";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamSynchronize(S));
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(E, S));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver may reuse or crash on a "
                  "destroyed stream handle";
#endif
}

TEST_F(Stream, WaitEventOfAnotherContext) {
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, nullptr));
  CUcontext Other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Other)) << "a second context";
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(S, E, 0))
      << "streams may wait for events of other contexts";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Other));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(Ctx));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
}

TEST_F(Stream, AttributesReadBackWhatWasSet) {
  CUstream S = nullptr, T = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&T, 0));
  CUstreamAttrValue V{};
  V.syncPolicy = CU_SYNC_POLICY_BLOCKING_SYNC;
  EXPECT_CU(
      CUDA_SUCCESS,
      cuStreamSetAttribute(S, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &V));
  V = {};
  V.priority = -1000;
  EXPECT_CU(CUDA_SUCCESS,
            cuStreamSetAttribute(S, CU_LAUNCH_ATTRIBUTE_PRIORITY, &V))
      << "out of range: clamped as creation clamps it";
  int Least = 0, Greatest = 0, Priority = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&Least, &Greatest));
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetPriority(S, &Priority));
  EXPECT_EQ(Greatest, Priority);
  EXPECT_CU(CUDA_SUCCESS, cuStreamCopyAttributes(T, S));
  V = {};
  EXPECT_CU(
      CUDA_SUCCESS,
      cuStreamGetAttribute(T, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &V));
  EXPECT_EQ(CU_SYNC_POLICY_BLOCKING_SYNC, V.syncPolicy);
  V = {};
  EXPECT_CU(CUDA_SUCCESS,
            cuStreamGetAttribute(T, CU_LAUNCH_ATTRIBUTE_PRIORITY, &V));
  EXPECT_EQ(Greatest, V.priority);
  V = {};
  V.memSyncDomain = static_cast<CUlaunchMemSyncDomain>(7);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(S, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &V))
      << "no such domain";
#if CUCPU_ONLY
  // NVIDIA's driver dereferences the pointer (a segmentation fault on an
  // H200, driver 580).
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(S, CU_LAUNCH_ATTRIBUTE_PRIORITY, nullptr));
#endif
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(T));
}

} // namespace
