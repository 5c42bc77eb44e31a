//===- IpcTest.cpp - cuIpcGetMemHandle, cuIpcOpenMemHandle ----------------===//
//
// Device memory shared with another process (api_ipc_peer), and the
// validation of the handles. Kernels: kernels/async.cu (addOne).
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"
#include "PeerProcess.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace cuapi;

namespace {

using Ipc = DriverTest;

template <typename HandleT> std::string hex(const HandleT &Handle) {
  std::string Text;
  char Digits[3];
  for (char C : Handle.reserved) {
    std::snprintf(Digits, sizeof(Digits), "%02x",
                  static_cast<unsigned char>(C));
    Text += Digits;
  }
  return Text;
}

TEST_F(Ipc, DeviceMemoryIsCapable) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 4096));
  int Capable = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuPointerGetAttribute(
                &Capable, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, P));
  EXPECT_EQ(1, Capable) << "cuMemAlloc memory can be shared with cuIpc*";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

TEST_F(Ipc, GetMemHandleChecksItsArguments) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 4096));
  CUipcMemHandle Handle;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(nullptr, P))
      << "no place for the handle";
  std::vector<char> Host(64);
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuIpcGetMemHandle(&Handle, reinterpret_cast<CUdeviceptr>(Host.data())))
      << "memory the driver did not allocate";
  EXPECT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&Handle, P));
  CUipcMemHandle Again;
  EXPECT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&Again, P))
      << "an allocation can be exported more than once";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

TEST_F(Ipc, ExportedMemoryKeepsItsContents) {
  size_t Bytes = 3 * 4096 + 100;
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, Bytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P, 0x3c, Bytes));
  CUipcMemHandle Handle;
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&Handle, P));
  std::vector<unsigned char> Back(Bytes);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), P, Bytes));
  for (size_t I = 0; I < Bytes; ++I)
    ASSERT_EQ(0x3c, Back[I]) << "byte " << I << " after the export";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
  // Memory allocated after the exported block was freed is private again.
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, Bytes));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD8(P, 1, Bytes));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

TEST_F(Ipc, OpenRejectsForeignAndOwnHandles) {
  CUipcMemHandle Garbage;
  std::memset(&Garbage, 0x5a, sizeof(Garbage));
  CUdeviceptr Opened = 0;
  EXPECT_NE(
      CUDA_SUCCESS,
      cuIpcOpenMemHandle(&Opened, Garbage, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS))
      << "a handle no driver made";

  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 4096));
  CUipcMemHandle Handle;
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&Handle, P));
  EXPECT_CU(
      CUDA_ERROR_INVALID_CONTEXT,
      cuIpcOpenMemHandle(&Opened, Handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS))
      << "a handle exported by this very process";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcCloseMemHandle(P))
      << "memory cuIpcOpenMemHandle did not open";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

TEST_F(Ipc, AnotherProcessSharesTheMemory) {
  size_t Bytes = (size_t(3) << 20) + 4096;
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, Bytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(P, 41, Bytes / 4));
  CUipcMemHandle Handle;
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&Handle, P));

  int Pipe[2];
  ASSERT_EQ(0, pipe(Pipe));
  std::string ReplyArg = std::to_string(Pipe[1]);
  std::string HexArg = hex(Handle);
  std::string SizeArg = std::to_string(Bytes);
  pid_t Peer = startPeer(CUCPU_API_IPC_PEER, {"handle", ReplyArg, HexArg,
                                              SizeArg, CUCPU_API_ASYNC_MODULE});
  ASSERT_NE(0, Peer) << "start " << CUCPU_API_IPC_PEER;
  close(Pipe[1]);
  unsigned long long PeerSum = 0;
  EXPECT_EQ(ssize_t(sizeof(PeerSum)), read(Pipe[0], &PeerSum, sizeof(PeerSum)))
      << "the peer answers";
  close(Pipe[0]);
  EXPECT_TRUE(peerSucceeded(Peer)) << "the peer succeeded";
  EXPECT_EQ(41ull * (Bytes / 4), PeerSum)
      << "the peer read what this process wrote";

  std::vector<unsigned> Back(Bytes / 4);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), P, Bytes));
  for (size_t I = 0; I < Back.size(); ++I)
    ASSERT_EQ(42u, Back[I]) << "the peer's kernel wrote word " << I;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

TEST_F(Ipc, EventHandleNeedsAnInterprocessEvent) {
  CUevent Plain;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Plain, CU_EVENT_DISABLE_TIMING));
  CUipcEventHandle Handle;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuIpcGetEventHandle(&Handle, Plain))
      << "an event created without CU_EVENT_INTERPROCESS (observed)";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Plain));
  CUevent Shared;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Shared, CU_EVENT_INTERPROCESS |
                                                     CU_EVENT_DISABLE_TIMING));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetEventHandle(nullptr, Shared))
      << "no place for the handle";
  EXPECT_CU(CUDA_SUCCESS, cuIpcGetEventHandle(&Handle, Shared));
  CUevent Opened;
  EXPECT_NE(CUDA_SUCCESS, cuIpcOpenEventHandle(&Opened, Handle))
      << "a handle made by this very process";
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(Shared)) << "never recorded: complete";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Shared));
}

TEST_F(Ipc, AnotherProcessRecordsTheEvent) {
  size_t Bytes = size_t(4) << 20;
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, Bytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(P, 0, Bytes / 4));
  CUipcMemHandle Memory;
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&Memory, P));
  CUevent Done;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Done, CU_EVENT_INTERPROCESS |
                                                   CU_EVENT_DISABLE_TIMING));
  CUipcEventHandle Event;
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetEventHandle(&Event, Done));

  int Pipe[2];
  ASSERT_EQ(0, pipe(Pipe));
  std::string ReplyArg = std::to_string(Pipe[1]);
  std::string MemoryArg = hex(Memory), EventArg = hex(Event);
  std::string SizeArg = std::to_string(Bytes);
  pid_t Peer =
      startPeer(CUCPU_API_IPC_PEER, {"event", ReplyArg, MemoryArg, EventArg,
                                     SizeArg, CUCPU_API_ASYNC_MODULE});
  ASSERT_NE(0, Peer) << "start " << CUCPU_API_IPC_PEER;
  close(Pipe[1]);
  unsigned long long Passes = 0;
  EXPECT_EQ(ssize_t(sizeof(Passes)), read(Pipe[0], &Passes, sizeof(Passes)))
      << "the peer says it recorded the event";
  close(Pipe[0]);
  // The peer's kernels may still run: a stream that waits for the event
  // copies only what they wrote.
  CUstream Stream;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(Stream, Done, 0));
  std::vector<unsigned> Back(Bytes / 4);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(Back.data(), P, Bytes, Stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(Stream));
  for (size_t I = 0; I < Back.size(); ++I)
    ASSERT_EQ(Passes, Back[I]) << "word " << I << " after the peer's kernels";
  EXPECT_CU(CUDA_SUCCESS, cuEventSynchronize(Done));
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(Done));
  EXPECT_TRUE(peerSucceeded(Peer)) << "the peer succeeded";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(Stream));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Done));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

} // namespace
