//===- Subprocess.cpp - Timing one operation in a fresh process -----------===//
#include "Subprocess.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace bench {

ChildResult runChild(const std::string &Job,
                     const std::vector<std::string> &Args, const EnvList &Env) {
  ChildResult R;
  // The whole environment is built before posix_spawn: the parent may have
  // worker threads (cucpu's pool, PoCL's), so the child must not call setenv.
  std::vector<std::string> EnvStrings;
  for (char **E = environ; *E; ++E) {
    std::string Entry = *E;
    bool Overridden = false;
    for (const auto &[Name, Value] : Env)
      if (Entry.compare(0, Name.size() + 1, Name + "=") == 0)
        Overridden = true;
    if (!Overridden)
      EnvStrings.push_back(Entry);
  }
  for (const auto &[Name, Value] : Env)
    EnvStrings.push_back(Name + "=" + Value);
  std::vector<char *> Envp;
  for (std::string &S : EnvStrings)
    Envp.push_back(S.data());
  Envp.push_back(nullptr);

  std::vector<std::string> ArgStrings = {"bench-child", "--child=" + Job};
  ArgStrings.insert(ArgStrings.end(), Args.begin(), Args.end());
  std::vector<char *> Argv;
  for (std::string &S : ArgStrings)
    Argv.push_back(S.data());
  Argv.push_back(nullptr);

  int Pipe[2];
  if (pipe(Pipe) != 0) {
    R.Error = std::string("pipe failed: ") + std::strerror(errno);
    return R;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&Actions, Pipe[0]);
  posix_spawn_file_actions_addclose(&Actions, Pipe[1]);
  pid_t Pid;
  int Err = posix_spawn(&Pid, "/proc/self/exe", &Actions, nullptr, Argv.data(),
                        Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  if (Err != 0) {
    close(Pipe[0]);
    R.Error = std::string("posix_spawn failed: ") + std::strerror(Err);
    return R;
  }
  std::string Out;
  char Buf[4096];
  ssize_t N;
  while ((N = read(Pipe[0], Buf, sizeof(Buf))) > 0 || (N < 0 && errno == EINTR))
    if (N > 0)
      Out.append(Buf, size_t(N));
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    R.Error = "the child '" + Job + "' failed (status " +
              std::to_string(Status) + "); its output: " + Out;
    return R;
  }
  // The last line is the number.
  while (!Out.empty() && (Out.back() == '\n' || Out.back() == ' '))
    Out.pop_back();
  std::string Last = Out.substr(
      Out.rfind('\n') == std::string::npos ? 0 : Out.rfind('\n') + 1);
  char *End = nullptr;
  R.Seconds = std::strtod(Last.c_str(), &End);
  if (Last.empty() || !End || *End != '\0' || !(R.Seconds >= 0)) {
    R.Error = "the child '" + Job + "' printed no time; its output: " + Out;
    return R;
  }
  R.Ok = true;
  return R;
}

TempDir::TempDir(const char *Tag) {
  const char *Base = std::getenv("TMPDIR");
  std::string Template = std::string(Base && *Base ? Base : "/tmp") +
                         "/cucpu-bench-" + Tag + "-XXXXXX";
  if (mkdtemp(Template.data()))
    Path = Template;
}

TempDir::~TempDir() {
  if (Path.empty())
    return;
  std::error_code EC;
  std::filesystem::remove_all(Path, EC);
}

} // namespace bench
