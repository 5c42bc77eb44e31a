//===- PeerProcess.h - A second process for the IPC tests -----*- C++ -*-===//
//
// Starting api_ipc_peer, waiting for it, and handing it a file descriptor
// over a Unix-domain socket (SCM_RIGHTS). Header-only: the tests and the
// peer both use it.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_API_PEERPROCESS_H
#define CUCPU_TESTS_API_PEERPROCESS_H

#include <cstring>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace cuapi {

/// Starts \p Program with \p Args (argv[0] is \p Program); 0 if it cannot.
inline pid_t startPeer(const char *Program,
                       const std::vector<std::string> &Args) {
  std::vector<char *> Argv{const_cast<char *>(Program)};
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  pid_t Pid = 0;
  if (posix_spawn(&Pid, Program, nullptr, nullptr, Argv.data(), environ) != 0)
    return 0;
  return Pid;
}

/// Waits for \p Pid; whether it exited with status 0.
inline bool peerSucceeded(pid_t Pid) {
  int Status = 0;
  return waitpid(Pid, &Status, 0) == Pid && WIFEXITED(Status) &&
         WEXITSTATUS(Status) == 0;
}

/// Sends descriptor \p Fd over \p Socket.
inline bool sendFd(int Socket, int Fd) {
  char Byte = 'f';
  iovec Io{&Byte, 1};
  alignas(cmsghdr) char Control[CMSG_SPACE(sizeof(int))] = {};
  msghdr Msg{};
  Msg.msg_iov = &Io;
  Msg.msg_iovlen = 1;
  Msg.msg_control = Control;
  Msg.msg_controllen = sizeof(Control);
  cmsghdr *C = CMSG_FIRSTHDR(&Msg);
  C->cmsg_level = SOL_SOCKET;
  C->cmsg_type = SCM_RIGHTS;
  C->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(C), &Fd, sizeof(int));
  return sendmsg(Socket, &Msg, 0) == 1;
}

/// Receives a descriptor sent with sendFd; -1 if none came.
inline int receiveFd(int Socket) {
  char Byte = 0;
  iovec Io{&Byte, 1};
  alignas(cmsghdr) char Control[CMSG_SPACE(sizeof(int))] = {};
  msghdr Msg{};
  Msg.msg_iov = &Io;
  Msg.msg_iovlen = 1;
  Msg.msg_control = Control;
  Msg.msg_controllen = sizeof(Control);
  if (recvmsg(Socket, &Msg, 0) != 1)
    return -1;
  cmsghdr *C = CMSG_FIRSTHDR(&Msg);
  if (!C || C->cmsg_type != SCM_RIGHTS)
    return -1;
  int Fd = -1;
  std::memcpy(&Fd, CMSG_DATA(C), sizeof(int));
  return Fd;
}

} // namespace cuapi

#endif // CUCPU_TESTS_API_PEERPROCESS_H
