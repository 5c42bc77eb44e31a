//===- video_forms.cpp - The SIMD video instructions against a GPU's record
//===//
//
// Builds one PTX module holding a kernel per form of the SIMD video
// instructions (vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4,
// vset2/4: every type combination with and without .sat and .add, and
// selectors and masks drawn from a fixed seed), runs each over the same
// inputs and prints a digest of its results per form:
//
//   video_forms                 print "<form>\t<digest>" lines
//   video_forms --check FILE    compare with FILE (recorded on NVIDIA's
//                               driver); exit 1 on any difference
//
// It uses the driver API alone, so the same source builds against NVIDIA's
// driver: g++ -std=c++17 -o video_forms video_forms.cpp -lcuda
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr unsigned Count = 1024; ///< Inputs per form.

#define CHECK(Call)                                                            \
  do {                                                                         \
    CUresult R_ = (Call);                                                      \
    if (R_ != CUDA_SUCCESS) {                                                  \
      const char *Name_ = nullptr;                                             \
      cuGetErrorName(R_, &Name_);                                              \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #Call, Name_ ? Name_ : "?");                                \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

/// A small deterministic generator (the same sequence on every machine).
struct Lcg {
  uint64_t State;
  uint32_t next() {
    State = State * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(State >> 32);
  }
  unsigned below(unsigned N) { return next() % N; }
};

/// One instruction line, with %d, %a, %b, %c as its registers.
struct Form {
  std::string Text;
};

const char *const Words[] = {"u32", "s32"};

/// A selector of \p Lanes elements out of {b, a} (".h10", ".b7531").
std::string selector(Lcg &G, unsigned Lanes) {
  std::string S = Lanes == 2 ? ".h" : ".b";
  for (unsigned L = 0; L < Lanes; ++L)
    S += char('0' + G.below(2 * Lanes));
  return S;
}

/// A destination mask: a nonempty set of lanes, highest first (".h1",
/// ".b320").
std::string mask(Lcg &G, unsigned Lanes) {
  unsigned Set = 1 + G.below((1u << Lanes) - 1);
  std::string S = Lanes == 2 ? ".h" : ".b";
  for (int L = int(Lanes) - 1; L >= 0; --L)
    if (Set & (1u << L))
      S += char('0' + L);
  return S;
}

std::vector<Form> forms() {
  std::vector<Form> Out;
  const char *const Ops[] = {"vadd",     "vsub", "vavrg",
                             "vabsdiff", "vmin", "vmax"};
  const char *const Compares[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (unsigned Lanes : {2u, 4u}) {
    std::string N = std::to_string(Lanes);
    for (const char *Op : Ops)
      for (unsigned Types = 0; Types < 8; ++Types)
        for (const char *Tail : {"", ".sat", ".add"}) {
          std::string T = std::string(".") + Words[Types >> 2] + "." +
                          Words[(Types >> 1) & 1] + "." + Words[Types & 1];
          Out.push_back({Op + N + T + Tail + " %d, %a, %b, %c;"});
        }
    for (unsigned Types = 0; Types < 4; ++Types)
      for (const char *Cmp : Compares)
        for (const char *Tail : {"", ".add"}) {
          std::string T =
              std::string(".") + Words[Types >> 1] + "." + Words[Types & 1];
          Out.push_back(
              {"vset" + N + T + "." + Cmp + Tail + " %d, %a, %b, %c;"});
        }
  }
  // Selectors and masks, on random types and operations.
  Lcg G{2026};
  for (unsigned Lanes : {2u, 4u}) {
    std::string N = std::to_string(Lanes);
    for (unsigned K = 0; K < 48; ++K) {
      unsigned Op = G.below(7);
      bool Add = G.below(3) == 0;
      bool Sat = !Add && Op < 6 && G.below(2) == 0;
      std::string Text;
      if (Op < 6)
        Text = std::string(Ops[Op]) + N + "." + Words[G.below(2)] + "." +
               Words[G.below(2)] + "." + Words[G.below(2)];
      else
        Text = "vset" + N + "." + Words[G.below(2)] + "." + Words[G.below(2)] +
               "." + Compares[G.below(6)];
      Text += Sat ? ".sat" : Add ? ".add" : "";
      Text += " %d" + mask(G, Lanes) + ", %a" + selector(G, Lanes) + ", %b" +
              selector(G, Lanes) + ", %c;";
      Out.push_back({Text});
    }
  }
  return Out;
}

/// Forms per kernel: a kernel applies each of its forms to its thread's
/// inputs (fewer, larger kernels load faster than one per form).
constexpr size_t Group = 16;

/// A kernel and the forms [First, Last) it applies; Fn is null when the
/// JIT rejected the form (then Last is First + 1).
struct Kernel {
  CUfunction Fn;
  size_t First, Last;
};

/// PTX of the kernels of \p Groups: kernel "k<First>" stores the result of
/// form First + J for input i at out[J * Count + i].
std::string module(const std::vector<Form> &Forms,
                   const std::vector<Kernel> &Groups) {
  std::ostringstream P;
  P << ".version 7.0\n.target sm_75\n.address_size 64\n";
  for (const Kernel &G : Groups) {
    P << ".visible .entry k" << G.First
      << "(.param .u64 out, .param .u64 in)\n{\n"
         "  .reg .b32 %r<4>;\n  .reg .b32 %a, %b, %c, %d;\n"
         "  .reg .b64 %rd<8>;\n"
         "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [in];\n"
         "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n"
         "  mov.u32 %r3, %tid.x;\n  mad.lo.u32 %r1, %r1, %r2, %r3;\n"
         "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd4, %rd2, %rd3;\n"
         "  ld.global.u32 %a, [%rd4];\n  ld.global.u32 %b, [%rd4+4];\n"
         "  ld.global.u32 %c, [%rd4+8];\n"
         "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd1, %rd5;\n";
    for (size_t K = G.First; K < G.Last; ++K)
      P << "  mov.u32 %d, %c;\n  " << Forms[K].Text
        << "\n  st.global.u32 [%rd6+" << (K - G.First) * Count * 4
        << "], %d;\n";
    P << "  ret;\n}\n";
  }
  return P.str();
}

/// Inputs: triples (a, b, c) mixing random words with lanes at the edges
/// of the signed and unsigned ranges.
std::vector<uint32_t> inputs() {
  const uint32_t Edges[] = {0x00000000, 0xffffffff, 0x7f7f7f7f, 0x80808080,
                            0x7fff7fff, 0x80008000, 0x01ff80fe, 0xff01fe80,
                            0x00ff00ff, 0xff00ff00, 0x7fff8000, 0x80007fff};
  Lcg G{7};
  std::vector<uint32_t> In(3 * Count);
  for (uint32_t &W : In) {
    unsigned Pick = G.below(4);
    W = Pick == 0 ? Edges[G.below(sizeof(Edges) / sizeof(Edges[0]))] : G.next();
    if (Pick == 1) // Mix edge bytes into a random word.
      W = (W & 0x00ff00ff) | (Edges[G.below(12)] & 0xff00ff00);
  }
  return In;
}

/// Loads \p Ptx; on failure, the JIT's error log goes to \p Log.
CUresult load(const std::string &Ptx, CUmodule &Mod, std::string &Log) {
  char Buffer[8192] = {};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Buffer,
                    reinterpret_cast<void *>(uintptr_t(sizeof(Buffer)))};
  CUresult R = cuModuleLoadDataEx(&Mod, Ptx.c_str(), 2, Opts, Values);
  Log = Buffer;
  return R;
}

/// The kernels of all forms, Group to a kernel in one module; or, if the
/// JIT rejects that module, one module per form.
std::vector<Kernel> kernels(const std::vector<Form> &Forms,
                            std::vector<CUmodule> &Modules) {
  std::vector<Kernel> Groups;
  for (size_t First = 0; First < Forms.size(); First += Group)
    Groups.push_back({nullptr, First, std::min(First + Group, Forms.size())});
  std::string Log;
  CUmodule Mod;
  if (load(module(Forms, Groups), Mod, Log) == CUDA_SUCCESS) {
    Modules.push_back(Mod);
    for (Kernel &G : Groups)
      CHECK(cuModuleGetFunction(&G.Fn, Mod,
                                ("k" + std::to_string(G.First)).c_str()));
    return Groups;
  }
  Groups.clear();
  for (size_t K = 0; K < Forms.size(); ++K) {
    Kernel One{nullptr, K, K + 1};
    if (load(module(Forms, {One}), Mod, Log) != CUDA_SUCCESS) {
      std::fprintf(stderr, "rejected: %s\n", Forms[K].Text.c_str());
    } else {
      Modules.push_back(Mod);
      CHECK(
          cuModuleGetFunction(&One.Fn, Mod, ("k" + std::to_string(K)).c_str()));
    }
    Groups.push_back(One);
  }
  return Groups;
}

uint64_t digest(const std::vector<uint32_t> &Words) {
  uint64_t H = 1469598103934665603ull;
  for (uint32_t W : Words)
    for (int K = 0; K < 4; ++K) {
      H ^= (W >> (8 * K)) & 0xff;
      H *= 1099511628211ull;
    }
  return H;
}

} // namespace

int main(int Argc, char **Argv) {
  const char *CheckFile = nullptr;
  if (Argc == 3 && std::string(Argv[1]) == "--check")
    CheckFile = Argv[2];
  else if (Argc != 1) {
    std::fprintf(stderr, "usage: %s [--check FILE]\n", Argv[0]);
    return 2;
  }

  std::vector<Form> Forms = forms();
  CHECK(cuInit(0));
  CUdevice Dev;
  CHECK(cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  CHECK(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CHECK(cuCtxSetCurrent(Ctx));
  std::vector<CUmodule> Modules;
  std::vector<Kernel> Groups = kernels(Forms, Modules);

  std::vector<uint32_t> In = inputs();
  CUdeviceptr DIn, DOut;
  CHECK(cuMemAlloc(&DIn, In.size() * 4));
  CHECK(cuMemAlloc(&DOut, Group * Count * 4));
  CHECK(cuMemcpyHtoD(DIn, In.data(), In.size() * 4));

  std::map<std::string, std::string> Record;
  if (CheckFile) {
    std::ifstream F(CheckFile);
    std::string Line;
    while (std::getline(F, Line)) {
      size_t Tab = Line.find('\t');
      if (Tab != std::string::npos)
        Record[Line.substr(0, Tab)] = Line.substr(Tab + 1);
    }
    if (Record.size() != Forms.size()) {
      std::fprintf(stderr, "%s holds %zu forms, this program has %zu\n",
                   CheckFile, Record.size(), Forms.size());
      return 1;
    }
  }

  unsigned Differ = 0;
  std::vector<uint32_t> Out(Group * Count);
  for (Kernel &G : Groups) {
    if (G.Fn) {
      void *Args[] = {&DOut, &DIn};
      CHECK(cuLaunchKernel(G.Fn, Count / 256, 1, 1, 256, 1, 1, 0, nullptr, Args,
                           nullptr));
      CHECK(cuMemcpyDtoH(Out.data(), DOut, (G.Last - G.First) * Count * 4));
    }
    for (size_t K = G.First; K < G.Last; ++K) {
      const uint32_t *Mine = Out.data() + (K - G.First) * Count;
      char Digest[32] = "rejected";
      if (G.Fn)
        std::snprintf(Digest, sizeof(Digest), "%016llx",
                      static_cast<unsigned long long>(
                          digest(std::vector<uint32_t>(Mine, Mine + Count))));
      if (!CheckFile) {
        std::printf("%s\t%s\n", Forms[K].Text.c_str(), Digest);
        continue;
      }
      auto It = Record.find(Forms[K].Text);
      if (It != Record.end() && It->second == Digest)
        continue;
      ++Differ;
      std::printf("differs: %s (%s, recorded %s); first results:",
                  Forms[K].Text.c_str(), Digest,
                  It == Record.end() ? "none" : It->second.c_str());
      for (unsigned I = 0; I < 4 && G.Fn; ++I)
        std::printf(" %08x(%08x,%08x,%08x)", Mine[I], In[3 * I], In[3 * I + 1],
                    In[3 * I + 2]);
      std::printf("\n");
    }
  }
  CHECK(cuMemFree(DIn));
  CHECK(cuMemFree(DOut));
  for (CUmodule M : Modules)
    CHECK(cuModuleUnload(M));
  CHECK(cuDevicePrimaryCtxRelease(Dev));
  if (CheckFile)
    std::printf("%zu forms, %u differ from the record\n", Forms.size(), Differ);
  return Differ ? 1 : 0;
}
