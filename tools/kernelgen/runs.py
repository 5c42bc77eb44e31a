"""Running the compiler and diffrun as child processes that can neither hang
nor crash the campaign."""

import os
import signal
import subprocess

# The environment of each execution engine (docs/execution-model.md).
MODES = {
    "default": {},
    "generic": {"CUCPU_EXEC": "generic"},
    "specialized": {"CUCPU_EXEC": "specialized"},
    "fallback": {"CUCPU_EXEC": "fallback"},
    "memcheck": {"CUCPU_MEMCHECK": "1"},
    # Fiber engine, reporting races and reliance on warp synchrony in
    # shared memory on stderr: a report is a finding (the generator's
    # kernels have neither).
    "synccheck": {"CUCPU_SYNCCHECK": "1"},
    "nvidia": {},
}


def mode_env(mode):
    """The environment for one run: ours without any engine setting, the
    mode's variables, and no compute cache."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUCPU_EXEC", "CUCPU_MEMCHECK", "CUCPU_SYNCCHECK")}
    env.update(MODES[mode])
    env["CUDA_CACHE_DISABLE"] = "1"
    return env


def run(cmd, timeout, env=None):
    """Run cmd in a process group of its own; return (status, stdout,
    stderr), status being the exit code, -signal, or None on a timeout (the
    whole group is then killed)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace"), \
            err.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out.decode(errors="replace"), \
            err.decode(errors="replace")


def classify(status, out, err, timeout):
    """One line that names the outcome of a diffrun: `ok <digests>`,
    `error <CUresult> in <call>`, a timeout, a crash or another exit."""
    first = next((line for line in out.splitlines()
                  if line.startswith(("ok ", "error "))), "")
    if status is None:
        return f"timeout after {timeout}s"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = str(-status)
        return f"crash ({name})"
    report = next((line for line in err.splitlines()
                   if line.startswith("cucpu synccheck:")), None)
    if report:
        return "synccheck report: " + report[len("cucpu synccheck: "):]
    if status in (0, 1) and first.startswith(("ok ", "error ")):
        return first
    text = (err.strip() or out.strip() or "-").splitlines()
    tail = next((t for t in text if "ERROR" in t or "rror" in t), text[-1])
    return f"exit {status}: {tail[:200]}"


def compile_kernel(compiler, source, cubin, timeout):
    """Compile one kernel: compiler is a command prefix such as
    [cucc, "-cubin"]; return None, or the diagnostics on failure."""
    status, out, err = run(compiler + ["-w", "-o", cubin, source], timeout)
    if status == 0 and os.path.exists(cubin):
        return None
    if status is None:
        return f"compiler timeout after {timeout}s"
    return (err or out).strip()[-4000:] or f"compiler exit {status}"


def diffrun_cmd(diffrun, cubin, side, dump=None):
    """The command line of diffrun for a kernel's sidecar."""
    dims = [",".join(str(v) for v in side[k]) for k in ("grid", "block")]
    cmd = [diffrun, cubin] + dims + \
        [str(side[k]) for k in ("n_in", "n_out", "n_fout")]
    return cmd + (["--dump", dump] if dump else [])
