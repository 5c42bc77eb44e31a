//===- ContextTest.cpp - cuCtx* creation, stacks, attach/detach, flags ----===//

#include "DriverTest.h"

#include <thread>

using namespace cuapi;

// The CUDA 3.2 three-argument entry point. NVIDIA's header declares it only
// for its own build (__CUDA_API_VERSION_INTERNAL) but libcuda exports it, and
// programs built against older headers still call it.
extern "C" CUresult CUDAAPI cuCtxCreate_v2(CUcontext *, unsigned int, CUdevice);

namespace {

using Context = NoContextTest;
using ContextCurrent = DriverTest;

/// A destroyed context's handle. cucpu answers CUDA_ERROR_INVALID_CONTEXT;
/// NVIDIA's driver answers that or CUDA_ERROR_CONTEXT_IS_DESTROYED, varying
/// from run to run (observed), so on NVIDIA either is accepted.
::testing::AssertionResult isStaleContextError(const char *Expr, CUresult R) {
  if (R == CUDA_ERROR_INVALID_CONTEXT ||
      (isNvidia() && R == CUDA_ERROR_CONTEXT_IS_DESTROYED))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << Expr << " returned " << resultName(R)
         << ", expected CUDA_ERROR_INVALID_CONTEXT"
         << (isNvidia() ? " or CUDA_ERROR_CONTEXT_IS_DESTROYED" : "");
}
#define EXPECT_STALE_CONTEXT(Call)                                             \
  EXPECT_PRED_FORMAT1(isStaleContextError, Call)

CUcontext current() {
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&C)) << "cuCtxGetCurrent";
  return C;
}

//===-- Creation ----------------------------------------------------------===//

TEST_F(Context, CreateMakesContextCurrent) {
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "E.3.1: flags 0 on device 0";
  ASSERT_NE(nullptr, C) << "a real handle";
  EXPECT_EQ(C, current()) << "E.3.1: the new context is made current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
  EXPECT_EQ(nullptr, current()) << "destroying the only context empties the "
                                   "thread's stack";
}

TEST_F(Context, CreateNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(nullptr, nullptr, 0, Dev))
      << "the output pointer is required";
}

TEST_F(Context, CreateUnknownFlagsRejected) {
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, createContext(&C, 0x10000))
      << "flags outside CU_CTX_FLAGS_MASK";
  EXPECT_EQ(nullptr, current()) << "a failed create leaves nothing current";
}

TEST_F(Context, CreateInvalidDeviceRejected) {
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&C, nullptr, 0, 99))
      << "device 99 does not exist";
}

TEST_F(Context, CreateRecordsSchedulingFlags) {
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C, CU_CTX_SCHED_BLOCKING_SYNC))
      << "a context that blocks when it waits";
  unsigned Flags = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetFlags(&Flags)) << "query the context flags";
  report("cuCtxGetFlags(created with BLOCKING_SYNC)", Flags);
  EXPECT_EQ(unsigned(CU_CTX_SCHED_BLOCKING_SYNC), Flags & CU_CTX_SCHED_MASK)
      << "the scheduling policy asked for is kept";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
}

TEST_F(Context, CreateAcceptsMapHostFlag) {
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_SUCCESS, createContext(&C, CU_CTX_MAP_HOST))
      << "CU_CTX_MAP_HOST is deprecated but still accepted";
  if (C) {
    EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
  }
}

TEST_F(ContextCurrent, CreatePushesOverCurrent) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "since CUDA 2.0 creating with a context current pushes the new one "
         "(the 1.1 seed said it fails; NVIDIA today wins)";
  EXPECT_NE(Ctx, Second) << "a new context has a new handle";
  EXPECT_EQ(Second, current()) << "the new context is on top";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
  EXPECT_EQ(Ctx, current()) << "destroying the top restores the one below";
}

TEST_F(Context, CreateV2ThreeArgumentEntryPoint) {
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate_v2(&C, 0, Dev))
      << "the exported CUDA 3.2 symbol still works";
  EXPECT_EQ(C, current()) << "and makes the context current";
  unsigned Version = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(C, &Version))
      << "query the API version";
  report("cuCtxGetApiVersion(cuCtxCreate_v2)", Version);
  EXPECT_EQ(3020u, Version) << "observed on NVIDIA";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
}

TEST_F(Context, CreateV2UnknownFlagsRejected) {
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate_v2(&C, 0x10000, Dev))
      << "same flag rule as the four-argument form";
}

TEST_F(Context, CreateThreeArgumentMacroDispatch) {
#ifdef CUCPU_CONFORMANCE_NVIDIA
  GTEST_SKIP() << "cucpu-only: NVIDIA's 13.0 header maps cuCtxCreate to "
                  "cuCtxCreate_v4 and takes four arguments only";
#else
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&C, 0, Dev))
      << "cucpu's cuda.h accepts the 1.1/3.2 three-argument form";
  EXPECT_EQ(C, current()) << "the context is current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
#endif
}

//===-- API version
//---------------------------------------------------------===//

TEST_F(ContextCurrent, ApiVersionOfCreatedContext) {
  unsigned Version = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(Ctx, &Version))
      << "query the API version";
  report("cuCtxGetApiVersion(cuCtxCreate_v4)", Version);
  EXPECT_EQ(3020u, Version) << "observed on NVIDIA for cuCtxCreate contexts";
}

TEST_F(ContextCurrent, ApiVersionNullContextMeansCurrent) {
  unsigned ByHandle = 0, ByNull = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(Ctx, &ByHandle))
      << "query the API version";
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(nullptr, &ByNull))
      << "a NULL context means the current one";
  EXPECT_EQ(ByHandle, ByNull) << "the same context either way";
}

TEST_F(ContextCurrent, ApiVersionNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetApiVersion(Ctx, nullptr))
      << "the output pointer is required";
}

TEST_F(Context, ApiVersionWithoutContextRejected) {
  unsigned Version = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetApiVersion(nullptr, &Version))
      << "R-CTX-4: NULL means current, and none is current";
}

//===-- Destruction
//-----------------------------------------------------------===//

TEST_F(Context, DestroyNullRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxDestroy(nullptr))
      << "NULL is not a context";
}

TEST_F(ContextCurrent, DestroyFloatingContextKeepsCurrent) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped))
      << "pop the top of the stack";
  ASSERT_EQ(Second, Popped) << "the second context was on top";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "a context current to no thread can be destroyed";
  EXPECT_EQ(Ctx, current()) << "the current context is untouched";
}

TEST_F(Context, DestroyTwiceRejected) {
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "setup: a context, now current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
  EXPECT_STALE_CONTEXT(cuCtxDestroy(C))
      << "a destroyed context's handle is no longer a context";
}

TEST_F(Context, DestroyedHandleCannotBePushed) {
#if CUCPU_ONLY
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "setup: a context, now current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(C))
      << "a destroyed context cannot be made current";
  EXPECT_EQ(nullptr, current()) << "nothing was pushed";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver pushes the stale handle "
                  "(CUDA_SUCCESS) and the process aborts later";
#endif
}

TEST_F(Context, DestroyedHandleApiVersionRejected) {
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "setup: a context, now current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
  unsigned Version = 0;
  EXPECT_STALE_CONTEXT(cuCtxGetApiVersion(C, &Version))
      << "a destroyed context's handle is no longer a context";
}

TEST_F(Context, DestroyedHandleSetCurrentRejected) {
#if CUCPU_ONLY
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "setup: a context, now current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCurrent(C))
      << "a destroyed context cannot be made current";
  EXPECT_EQ(nullptr, current()) << "nothing became current";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver makes the stale handle "
                  "current (CUDA_SUCCESS), leaving a dangling context";
#endif
}

TEST_F(ContextCurrent, DestroyFreesTheContextsMemory) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 4096)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
  ASSERT_EQ(Ctx, current()) << "the fixture's context is current again";
  CUdeviceptr Base = 0;
  size_t Size = 0;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&Base, &Size, P))
      << "R-CTX-1: destroying a context frees its allocations";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(P))
      << "the allocation went with its context";
}

//===-- Device, synchronize, current
//----------------------------------------===//

TEST_F(ContextCurrent, GetDeviceIsTheCreatingDevice) {
  CUdevice D = -1;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&D)) << "query the context's device";
  EXPECT_EQ(Dev, D) << "E.3.4: the current context's device";
}

TEST_F(ContextCurrent, GetDeviceNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetDevice(nullptr))
      << "the output pointer is required";
}

TEST_F(Context, GetDeviceWithoutContextRejected) {
  CUdevice D;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&D))
      << "observed on NVIDIA: INVALID_CONTEXT with no current context";
}

TEST_F(ContextCurrent, SynchronizeIdleContext) {
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize())
      << "E.3.5: nothing pending, nothing failed";
}

TEST_F(Context, SynchronizeWithoutContextRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize())
      << "R-CTX-4: no current context";
}

TEST_F(Context, GetCurrentWithoutContextIsNull) {
  CUcontext C = reinterpret_cast<CUcontext>(0x1234);
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&C))
      << "asking is not an error when nothing is current";
  EXPECT_EQ(nullptr, C) << "no context means NULL";
}

TEST_F(Context, GetCurrentNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetCurrent(nullptr))
      << "the output pointer is required";
}

TEST_F(ContextCurrent, SetCurrentNullUnbinds) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(nullptr))
      << "NULL clears the top of the stack";
  EXPECT_EQ(nullptr, current()) << "no context is current";
  CUdevice D;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&D))
      << "nothing is current any more";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSetCurrent(Ctx)) << "bind it again";
  EXPECT_EQ(Ctx, current()) << "the fixture's context is current";
}

TEST_F(ContextCurrent, SetCurrentReplacesTopOfStack) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current"; // stack: Ctx, Second
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(Ctx))
      << "bind the context"; // stack: Ctx, Ctx
  EXPECT_EQ(Ctx, current()) << "SetCurrent replaced the top";
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped))
      << "pop the top of the stack";
  EXPECT_EQ(Ctx, Popped) << "the replaced top was Ctx, not Second";
  EXPECT_EQ(Ctx, current()) << "the entry below is Ctx as well";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "Second is current to no thread now";
}

TEST_F(Context, SetCurrentOnEmptyStackPushes) {
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "setup: a context, now current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr))
      << "pop the top of the stack";
  ASSERT_EQ(nullptr, current()) << "no context is current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSetCurrent(C)) << "binds a floating context";
  EXPECT_EQ(C, current()) << "the context is current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
}

//===-- Push / pop --------------------------------------------------------===//

TEST_F(Context, PushPopIsAStack) {
  CUcontext A = nullptr, B = nullptr, Out = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&A)) << "setup: context A";
  ASSERT_CU(CUDA_SUCCESS, createContext(&B))
      << "setup: context B, pushed over A"; // stack: A, B
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Out)) << "pop the top of the stack";
  EXPECT_EQ(B, Out) << "pop returns the top";
  EXPECT_EQ(A, current()) << "and exposes the one below";
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(B)) << "a floating context";
  EXPECT_EQ(B, current()) << "push makes it current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Out)) << "pop the top of the stack";
  EXPECT_EQ(B, Out) << "B was on top";
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Out)) << "pop the top of the stack";
  EXPECT_EQ(A, Out) << "A was at the bottom";
  EXPECT_EQ(nullptr, current()) << "the stack is empty";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(A)) << "popped contexts stay alive";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(B)) << "popped contexts stay alive";
}

TEST_F(Context, PopEmptyStackRejected) {
  CUcontext Out = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&Out))
      << "nothing to pop";
}

TEST_F(ContextCurrent, PopNullOutputAllowed) {
  EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr)) << "the output is optional";
  EXPECT_EQ(nullptr, current()) << "no context is current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(Ctx)) << "restore for TearDown";
}

TEST_F(Context, PushNullRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxPushCurrent(nullptr))
      << "observed on NVIDIA: NULL is INVALID_VALUE";
  EXPECT_EQ(nullptr, current()) << "no context is current";
}

TEST_F(ContextCurrent, PushSameContextTwice) {
  EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(Ctx))
      << "a context may appear on the stack more than once";
  EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr))
      << "pop the top of the stack";
  EXPECT_EQ(Ctx, current()) << "the first entry is still there";
}

//===-- Threads -----------------------------------------------------------===//

TEST_F(ContextCurrent, NewThreadStartsWithoutContext) {
  CUcontext Seen = reinterpret_cast<CUcontext>(0x1);
  CUresult R = CUDA_ERROR_UNKNOWN;
  std::thread T([&] { R = cuCtxGetCurrent(&Seen); });
  T.join();
  EXPECT_CU(CUDA_SUCCESS, R) << "asked on the other thread";
  EXPECT_EQ(nullptr, Seen) << "context stacks are per thread";
}

TEST_F(ContextCurrent, FloatingContextMovesToAnotherThread) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr)) << "make Ctx floating";
  CUresult Push = CUDA_ERROR_UNKNOWN, Alloc = CUDA_ERROR_UNKNOWN,
           Free = CUDA_ERROR_UNKNOWN, Pop = CUDA_ERROR_UNKNOWN;
  CUcontext InThread = nullptr, PoppedThere = nullptr;
  std::thread T([&] {
    Push = cuCtxPushCurrent(Ctx);
    cuCtxGetCurrent(&InThread);
    CUdeviceptr P = 0;
    Alloc = cuMemAlloc(&P, 1024);
    Free = cuMemFree(P);
    Pop = cuCtxPopCurrent(&PoppedThere);
  });
  T.join();
  EXPECT_CU(CUDA_SUCCESS, Push) << "another thread may push a floating context";
  EXPECT_EQ(Ctx, InThread) << "current on the other thread";
  EXPECT_CU(CUDA_SUCCESS, Alloc) << "and work in it";
  EXPECT_CU(CUDA_SUCCESS, Free) << "freed on the other thread";
  EXPECT_CU(CUDA_SUCCESS, Pop) << "popped on the other thread";
  EXPECT_EQ(Ctx, PoppedThere) << "the context the other thread pushed";
  EXPECT_EQ(nullptr, current()) << "the main thread's stack was untouched";
  EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(Ctx)) << "back to the main thread";
}

TEST_F(ContextCurrent, ContextCurrentOnTwoThreadsAtOnce) {
  CUresult Push = CUDA_ERROR_UNKNOWN, Sync = CUDA_ERROR_UNKNOWN;
  std::thread T([&] {
    Push = cuCtxPushCurrent(Ctx);
    Sync = cuCtxSynchronize();
    cuCtxPopCurrent(nullptr);
  });
  T.join();
  EXPECT_CU(CUDA_SUCCESS, Push)
      << "R-CTX-L2: since CUDA 4.0 a context may be current to many threads";
  EXPECT_CU(CUDA_SUCCESS, Sync) << "synchronized on the other thread";
  EXPECT_EQ(Ctx, current()) << "still current here";
}

TEST_F(ContextCurrent, PopOnOtherThreadDoesNotAffectThisOne) {
  CUresult R = CUDA_ERROR_UNKNOWN;
  std::thread T([&] {
    CUcontext Out;
    R = cuCtxPopCurrent(&Out);
  });
  T.join();
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, R)
      << "the other thread's stack is empty";
  EXPECT_EQ(Ctx, current()) << "the fixture's context is current";
}

//===-- Attach / detach (CUDA 1.1 usage counts)
//------------------------------===//

TEST_F(ContextCurrent, AttachReturnsCurrentContext) {
  CUcontext Attached = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxAttach(&Attached, 0))
      << "E.3.2: increments the current context's usage count";
  EXPECT_EQ(Ctx, Attached) << "observed on NVIDIA: the same handle";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDetach(Attached)) << "count 2 -> 1";
  EXPECT_EQ(Ctx, current()) << "observed on NVIDIA: the context stays current";
}

TEST_F(ContextCurrent, AttachNonZeroFlagsRejected) {
  CUcontext Attached = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxAttach(&Attached, 1))
      << "E.3.2: Flags must be 0";
}

TEST_F(ContextCurrent, AttachNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxAttach(nullptr, 0))
      << "the output pointer is required";
}

TEST_F(Context, AttachWithoutContextRejected) {
  CUcontext Attached = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxAttach(&Attached, 0))
      << "R-CTX-8: fails with no current context";
}

TEST_F(Context, DetachToZeroDestroys) {
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "usage count 1";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDetach(C)) << "R-CTX-5: count 0 destroys";
  EXPECT_EQ(nullptr, current()) << "the destroyed context left the stack";
  EXPECT_STALE_CONTEXT(cuCtxDetach(C))
      << "observed on NVIDIA: detaching a destroyed context";
}

TEST_F(Context, DetachCountsEveryAttach) {
  CUcontext C = nullptr, A1 = nullptr, A2 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "setup: a context, now current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxAttach(&A1, 0))
      << "attach to the current context"; // 2
  ASSERT_CU(CUDA_SUCCESS, cuCtxAttach(&A2, 0))
      << "attach to the current context";                   // 3
  EXPECT_CU(CUDA_SUCCESS, cuCtxDetach(C)) << "detach once"; // 2
  EXPECT_CU(CUDA_SUCCESS, cuCtxDetach(C)) << "detach once"; // 1
  EXPECT_EQ(C, current()) << "usage count 1 keeps it alive";
  CUdeviceptr P = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 256)) << "and usable";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDetach(C)) << "count 0 destroys";
  EXPECT_EQ(nullptr, current()) << "no context is current";
}

TEST_F(Context, DetachNullRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(nullptr))
      << "NULL is not a context";
}

TEST_F(ContextCurrent, DetachOfNonCurrentContextRejected) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr))
      << "pop the top of the stack"; // Second floats
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(Second))
      << "the 1.x reference: ctx must be current to the calling thread";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
}

//===-- Flags
//---------------------------------------------------------------===//

TEST_F(ContextCurrent, GetFlagsOfDefaultContext) {
  unsigned Flags = 0xdead;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetFlags(&Flags)) << "query the context flags";
  report("cuCtxGetFlags(created with 0)", Flags);
  EXPECT_EQ(0u, Flags & CU_CTX_SCHED_MASK) << "CU_CTX_SCHED_AUTO was asked for";
  EXPECT_EQ(0u, Flags & ~unsigned(CU_CTX_FLAGS_MASK)) << "only known bits";
}

TEST_F(ContextCurrent, GetFlagsNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetFlags(nullptr))
      << "the output pointer is required";
}

TEST_F(Context, GetFlagsWithoutContextRejected) {
  unsigned Flags;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetFlags(&Flags))
      << "R-CTX-4: no current context";
}

TEST_F(ContextCurrent, SetFlagsChangesScheduling) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetFlags(CU_CTX_SCHED_YIELD)) << "set new flags";
  unsigned Flags = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetFlags(&Flags)) << "query the context flags";
  EXPECT_EQ(unsigned(CU_CTX_SCHED_YIELD), Flags & CU_CTX_SCHED_MASK)
      << "the new policy is reported back";
}

TEST_F(ContextCurrent, SetFlagsUnknownRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetFlags(0x10000))
      << "flags outside CU_CTX_FLAGS_MASK";
}

TEST_F(Context, SetFlagsWithoutContextRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetFlags(CU_CTX_SCHED_SPIN))
      << "R-CTX-4: no current context";
}

} // namespace
