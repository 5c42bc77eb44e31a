/* Processes for the inter-process programs: starting a copy of this program
   with arguments (fork, then exec at once: a child must not use the CUDA
   state it would inherit across fork), waiting for it, and passing file
   descriptors over a Unix-domain socket (SCM_RIGHTS). POSIX only. */
#ifndef PROGRAMS_PROCESS_HELPERS_H
#define PROGRAMS_PROCESS_HELPERS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

/// Starts this program again as Argv0 followed by Args; descriptor KeepFd
/// (if not -1) stays open in it. Returns the child's process id.
inline pid_t spawnSelf(const char *Argv0, const std::vector<std::string> &Args,
                       int KeepFd) {
  // Everything the child needs is built before fork: between fork and exec
  // only async-signal-safe calls are allowed.
  std::vector<char *> Argv;
  Argv.push_back(const_cast<char *>(Argv0));
  for (size_t I = 0; I < Args.size(); ++I)
    Argv.push_back(const_cast<char *>(Args[I].c_str()));
  Argv.push_back(NULL);
  fflush(stdout);
  fflush(stderr);
  pid_t Pid = fork();
  if (Pid < 0) {
    perror("fork");
    exit(EXIT_FAILURE);
  }
  if (Pid == 0) {
    if (KeepFd != -1)
      fcntl(KeepFd, F_SETFD, 0);
    execv("/proc/self/exe", Argv.data());
    _exit(127);
  }
  return Pid;
}

/// Waits for child Pid; true when it exited with status 0, otherwise prints
/// how it ended.
inline bool waitForChild(pid_t Pid, const char *What) {
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0) {
    if (errno != EINTR) {
      perror("waitpid");
      return false;
    }
  }
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
    return true;
  if (WIFEXITED(Status))
    fprintf(stderr, "%s exited with status %d; expected 0\n", What,
            WEXITSTATUS(Status));
  else
    fprintf(stderr, "%s was killed by signal %d; expected exit status 0\n",
            What, WIFSIGNALED(Status) ? WTERMSIG(Status) : -1);
  return false;
}

/// Sends Size bytes of Data together with the descriptors Fds over socket
/// Socket; exits on failure.
inline void sendWithDescriptors(int Socket, const void *Data, size_t Size,
                                const std::vector<int> &Fds) {
  std::vector<char> Control(CMSG_SPACE(sizeof(int) * Fds.size()));
  struct iovec Io;
  Io.iov_base = const_cast<void *>(Data);
  Io.iov_len = Size;
  struct msghdr Message;
  memset(&Message, 0, sizeof(Message));
  Message.msg_iov = &Io;
  Message.msg_iovlen = 1;
  Message.msg_control = Control.data();
  Message.msg_controllen = Control.size();
  struct cmsghdr *Header = CMSG_FIRSTHDR(&Message);
  Header->cmsg_level = SOL_SOCKET;
  Header->cmsg_type = SCM_RIGHTS;
  Header->cmsg_len = CMSG_LEN(sizeof(int) * Fds.size());
  memcpy(CMSG_DATA(Header), Fds.data(), sizeof(int) * Fds.size());
  if (sendmsg(Socket, &Message, 0) != (ssize_t)Size) {
    perror("sendmsg");
    exit(EXIT_FAILURE);
  }
}

/// Receives Size bytes into Data and exactly Count descriptors from socket
/// Socket; exits on failure.
inline std::vector<int> receiveWithDescriptors(int Socket, void *Data,
                                               size_t Size, size_t Count) {
  std::vector<char> Control(CMSG_SPACE(sizeof(int) * Count));
  struct iovec Io;
  Io.iov_base = Data;
  Io.iov_len = Size;
  struct msghdr Message;
  memset(&Message, 0, sizeof(Message));
  Message.msg_iov = &Io;
  Message.msg_iovlen = 1;
  Message.msg_control = Control.data();
  Message.msg_controllen = Control.size();
  ssize_t Got = recvmsg(Socket, &Message, MSG_CMSG_CLOEXEC);
  if (Got != (ssize_t)Size) {
    fprintf(stderr, "recvmsg returned %zd; expected %zu bytes\n", Got, Size);
    exit(EXIT_FAILURE);
  }
  struct cmsghdr *Header = CMSG_FIRSTHDR(&Message);
  if (!Header || Header->cmsg_level != SOL_SOCKET ||
      Header->cmsg_type != SCM_RIGHTS ||
      Header->cmsg_len != CMSG_LEN(sizeof(int) * Count)) {
    fprintf(stderr, "expected %zu descriptors with the message\n", Count);
    exit(EXIT_FAILURE);
  }
  std::vector<int> Fds(Count);
  memcpy(Fds.data(), CMSG_DATA(Header), sizeof(int) * Count);
  return Fds;
}

#endif /* PROGRAMS_PROCESS_HELPERS_H */
