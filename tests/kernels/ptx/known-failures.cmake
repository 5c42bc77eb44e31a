# PTX kernel tests that cucpu fails, registered DISABLED (ctest lists them as
# not run; KNOWN_FAILURES.md): one line per kernel source (every test of it)
# or test name, from nvcc's or clang's PTX, with the first error;
# MODES (default, fallback, memcheck) limits a line to those modes.
# tools/kernel-ptx-status.py runs them all and says which now pass.
#
#   cucpu_kernel_ptx_known_failure(<nvcc|clang> <source.cu|test> "<error>"
#                                  [MODES <mode>...])

cucpu_kernel_ptx_known_failure(clang atomic_cas_loops "cucpu memcheck: invalid global read of size 4 by thread (0,0,0) in block (0,0,0) of kernel \"casLoops\"" MODES memcheck)
cucpu_kernel_ptx_known_failure(clang casts.cu "wrong result: element 4: cast_rz(nan)")
