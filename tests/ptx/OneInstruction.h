//===- OneInstruction.h - PTX kernels of one instruction -------*- C++ -*-===//
//
// A fixture for the conversion and math tests: a kernel applying one
// instruction to each element of an input buffer (or a pair of buffers),
// run through the driver API, with registers as wide as the element types;
// and a check that an invalid form is rejected as invalid PTX.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_PTX_ONEINSTRUCTION_H
#define CUCPU_TESTS_PTX_ONEINSTRUCTION_H

#include "PtxKernelTest.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace cucpu::test::single {

/// The bits of a float or double, and back.
inline uint32_t bitsOf(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}
inline uint64_t bitsOf(double F) {
  uint64_t U;
  std::memcpy(&U, &F, 8);
  return U;
}
inline float floatOf(uint32_t U) {
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}
inline double doubleOf(uint64_t U) {
  double F;
  std::memcpy(&F, &U, 8);
  return F;
}

/// Runs one instruction per thread: %d = op(%a[, %b]).
class OneInstructionTest : public PtxKernelTest {
public:
  /// Runs \p Instr (destination %d, sources %a and, if \p B is given, %b)
  /// over the inputs; the registers are .b<bits of In> and .b<bits of Out>.
  template <class Out, class In>
  std::vector<Out> apply(const std::string &Instr, const std::vector<In> &A,
                         const std::vector<In> *B = nullptr) {
    std::string InBits = std::to_string(8 * sizeof(In));
    std::string OutBits = std::to_string(8 * sizeof(Out));
    std::string Ptx = ptxHeader("8.6", "sm_90") +
                      ".visible .entry k(.param .u64 out, .param .u64 a, "
                      ".param .u64 b, .param .u32 n)\n{\n"
                      "  .reg .pred %p;\n  .reg .b32 %r<4>;\n"
                      "  .reg .b64 %rd<10>;\n  .reg .b" +
                      InBits + " %a, %b;\n  .reg .b" + OutBits + " %d;\n" +
                      R"(
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [a];
  ld.param.u64 %rd7, [b];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mul.lo.u32 %r2, %r2, %r3;
  mov.u32 %r3, %tid.x;
  add.u32 %r2, %r2, %r3;
  setp.ge.u32 %p, %r2, %r1;
  @%p bra DONE;
  mul.wide.u32 %rd3, %r2, )" +
                      std::to_string(sizeof(In)) + R"(;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.b)" + InBits +
                      R"( %a, [%rd4];
  add.s64 %rd8, %rd7, %rd3;
  ld.global.b)" + InBits +
                      R"( %b, [%rd8];
  )" + Instr + R"(
  mul.wide.u32 %rd5, %r2, )" +
                      std::to_string(sizeof(Out)) + R"(;
  add.s64 %rd6, %rd1, %rd5;
  st.global.b)" + OutBits +
                      R"( [%rd6], %d;
DONE:
  ret;
}
)";
    if (!loads(Ptx)) {
      ADD_FAILURE() << Instr << ": " << LastError;
      return {};
    }
    CUdeviceptr DA = upload(A), DB = upload(B ? *B : A);
    CUdeviceptr DOut = upload(std::vector<Out>(A.size()));
    unsigned N = unsigned(A.size());
    EXPECT_EQ(CUDA_SUCCESS,
              run("k", (N + 127) / 128, 128, {&DOut, &DA, &DB, &N}))
        << Instr;
    return download<Out>(DOut, N);
  }

  /// Whether \p Instr (with the register declarations \p Regs) is rejected
  /// as invalid PTX, with a log naming its opcode.
  ::testing::AssertionResult rejects(const std::string &Instr,
                                     const std::string &Regs) {
    std::string Ptx = ptxHeader("8.6", "sm_90") + ".visible .entry k()\n{\n" +
                      Regs + "\n  " + Instr + "\n  ret;\n}\n";
    std::string Log;
    CUresult R = load(Ptx, &Log);
    if (R != CUDA_ERROR_INVALID_PTX)
      return ::testing::AssertionFailure()
             << Instr << " gave " << R << ", not CUDA_ERROR_INVALID_PTX";
    std::string Opcode = Instr.substr(0, Instr.find(' '));
    if (Log.find(Opcode) == std::string::npos)
      return ::testing::AssertionFailure()
             << "the log does not name " << Opcode << ": " << Log;
    return ::testing::AssertionSuccess() << Log;
  }
};

} // namespace cucpu::test::single

#endif // CUCPU_TESTS_PTX_ONEINSTRUCTION_H
