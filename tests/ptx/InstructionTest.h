//===- InstructionTest.h - One PTX instruction over many inputs -*- C++ -*-===//
//
// A fixture for tests of single instructions: each case is a PTX body that
// reads %x0..%x3 and writes %y, run by one thread per input tuple, and a C++
// reference of the PTX ISA's semantics that the results must match bit for
// bit. All cases of a check go into one module (kernel k<N> per case).
// Without cucpu's headers the same source builds against NVIDIA's driver,
// which is how the references are checked on a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_PTX_INSTRUCTIONTEST_H
#define CUCPU_TESTS_PTX_INSTRUCTIONTEST_H

#include "PtxKernelTest.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <sstream>

namespace cucpu::test {

/// One tuple of operands (the low bits of each are used).
using Operands = std::array<uint64_t, 4>;

/// One instruction form under test.
struct InstructionCase {
  std::string Body;         ///< Reads %x0.., writes %y.
  std::vector<unsigned> In; ///< The width of %x0, %x1, ... (16, 32, 64).
  unsigned Out;             ///< The width of %y.
  std::function<uint64_t(const Operands &)> Reference;
};

/// The bits of a float or double, and back.
inline uint32_t bitsOf(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
inline uint64_t bitsOf(double D) {
  uint64_t B;
  std::memcpy(&B, &D, 8);
  return B;
}
inline float asFloat(uint64_t B) {
  uint32_t X = uint32_t(B);
  float F;
  std::memcpy(&F, &X, 4);
  return F;
}
inline double asDouble(uint64_t B) {
  double D;
  std::memcpy(&D, &B, 8);
  return D;
}

/// A small deterministic generator for random operands.
class Lcg {
public:
  explicit Lcg(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    State = State * 6364136223846793005ull + 1442695040888963407ull;
    return State ^ (State >> 29);
  }

private:
  uint64_t State;
};

/// Every pair (and, for three operands, triple) of \p Values, plus \p Random
/// random tuples of \p Bits-bit values.
inline std::vector<Operands> combinations(const std::vector<uint64_t> &Values,
                                          unsigned Count, unsigned Random = 0,
                                          unsigned Bits = 64) {
  std::vector<Operands> Out;
  size_t N = Values.size();
  size_t Total = 1;
  for (unsigned K = 0; K < Count; ++K)
    Total *= N;
  for (size_t Index = 0; Index < Total; ++Index) {
    Operands O{};
    size_t Rest = Index;
    for (unsigned K = 0; K < Count; ++K) {
      O[K] = Values[Rest % N];
      Rest /= N;
    }
    Out.push_back(O);
  }
  Lcg G(Count * 1000 + Bits);
  uint64_t Mask = Bits == 64 ? ~0ull : (1ull << Bits) - 1;
  for (unsigned R = 0; R < Random; ++R) {
    Operands O{};
    for (unsigned K = 0; K < Count; ++K)
      O[K] = G.next() & Mask;
    Out.push_back(O);
  }
  return Out;
}

class InstructionTest : public PtxKernelTest {
protected:
  /// Runs every case on every tuple of \p Inputs and compares each result
  /// with the case's reference.
  void check(const std::vector<InstructionCase> &Cases,
             const std::vector<Operands> &Inputs) {
    std::string Ptx = ptxHeader("8.0", "sm_90");
    for (size_t C = 0; C < Cases.size(); ++C)
      Ptx += kernel(C, Cases[C]);
    ASSERT_TRUE(loads(Ptx));
    CUdeviceptr In = upload(Inputs);
    CUdeviceptr Out = upload(std::vector<uint64_t>(Inputs.size(), 0));
    unsigned N = unsigned(Inputs.size());
    unsigned Block = 128, Grid = (N + Block - 1) / Block;
    for (size_t C = 0; C < Cases.size(); ++C) {
      const InstructionCase &Case = Cases[C];
      std::string Name = "k" + std::to_string(C);
      ASSERT_EQ(CUDA_SUCCESS, run(Name.c_str(), Grid, Block, {&Out, &In, &N}))
          << Case.Body;
      std::vector<uint64_t> Got = download<uint64_t>(Out, Inputs.size());
      uint64_t Mask = Case.Out == 64 ? ~0ull : (1ull << Case.Out) - 1;
      unsigned Failures = 0;
      for (size_t K = 0; K < Inputs.size() && Failures < 8; ++K) {
        uint64_t Want = Case.Reference(Inputs[K]) & Mask;
        uint64_t Have = Got[K] & Mask;
        if (Want == Have)
          continue;
        ++Failures;
        std::ostringstream Message;
        Message << std::hex << "`" << Case.Body << "` with";
        for (size_t A = 0; A < Case.In.size(); ++A)
          Message << " x" << A << "=0x" << Inputs[K][A];
        Message << ": expected 0x" << Want << ", got 0x" << Have;
        ADD_FAILURE() << Message.str();
      }
    }
  }

private:
  /// The kernel k<Index> running \p Case.
  static std::string kernel(size_t Index, const InstructionCase &Case) {
    std::ostringstream K;
    K << ".visible .entry k" << Index
      << "(.param .u64 out, .param .u64 in, .param .u32 n)\n{\n"
      << "  .reg .pred %p<4>, %done;\n  .reg .b16 %h<8>;\n"
      << "  .reg .b32 %r<8>, %lane, %width, %block, %i;\n"
      << "  .reg .b64 %rd<8>, %out, %in, %off;\n"
      << "  .reg .f32 %f<8>;\n  .reg .f64 %fd<8>;\n";
    for (size_t A = 0; A < Case.In.size(); ++A)
      K << "  .reg .b" << Case.In[A] << " %x" << A << ";\n";
    K << "  .reg .b" << Case.Out << " %y;\n"
      << "  ld.param.u64 %out, [out];\n  ld.param.u64 %in, [in];\n"
      << "  mov.u32 %lane, %tid.x;\n  mov.u32 %width, %ntid.x;\n"
      << "  mov.u32 %block, %ctaid.x;\n"
      << "  mad.lo.u32 %i, %block, %width, %lane;\n"
      << "  ld.param.u32 %r0, [n];\n"
      << "  setp.ge.u32 %done, %i, %r0;\n  @%done bra $Lend;\n"
      << "  mul.wide.u32 %off, %i, 32;\n  add.s64 %in, %in, %off;\n"
      << "  mul.wide.u32 %off, %i, 8;\n  add.s64 %out, %out, %off;\n";
    for (size_t A = 0; A < Case.In.size(); ++A)
      K << "  ld.global.b" << Case.In[A] << " %x" << A << ", [%in+" << 8 * A
        << "];\n";
    K << "  " << Case.Body << "\n"
      << "  st.global.b" << Case.Out << " [%out], %y;\n"
      << "$Lend:\n  ret;\n}\n";
    return K.str();
  }
};

} // namespace cucpu::test

#endif // CUCPU_TESTS_PTX_INSTRUCTIONTEST_H
