# lit configuration of tests/passes: IR in, IR out, one file per pass or
# transformation rule. Run through ctest (tests/passes/CMakeLists.txt), which
# passes the tool directories as parameters:
#   lit --param cucpu_tools=DIR --param llvm_tools=DIR --param exec_root=DIR FILE
import os

import lit.formats

config.name = "cucpu-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params.get("exec_root",
                                              config.test_source_root)
tools = [lit_config.params.get("cucpu_tools", ""),
         lit_config.params.get("llvm_tools", "")]
config.environment["PATH"] = os.pathsep.join(
    [t for t in tools if t] + [os.environ.get("PATH", "")])
# The same target everywhere: the IR the passes write does not depend on the
# machine that runs the tests.
config.substitutions.append(
    ("%cucpu-opt",
     "cucpu-opt -S -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64"))
