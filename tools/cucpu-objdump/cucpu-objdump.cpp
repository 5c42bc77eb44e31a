//===- cucpu-objdump.cpp - Inspect cucpu module images and fat binaries ---===//
//
// cuobjdump-like: lists the kernels (parameter layout, shared memory, limits,
// what they use), globals and texture references of a module image, or of
// every entry of a fat binary, and prints the LLVM IR as text. Every input
// goes through the validating reader, so a damaged image is reported, not
// shown half-read.
//
//===----------------------------------------------------------------------===//
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/ModuleImage.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace cucpu::loader;
using llvm::outs;

namespace {
/// What to print.
struct Options {
  bool Kernels = false;
  bool Globals = false;
  bool Ir = false;
  bool Header = true;
};

const char *Usage =
    "usage: cucpu-objdump [--list-kernels] [--list-globals] [--dump-ir] "
    "[--all] FILE\n"
    "Lists the kernels, globals and texture references of a cucpu module\n"
    "image or of each entry of a fat binary, and prints the LLVM IR.\n"
    "Without options: kernels, globals and texture references (--all adds\n"
    "the IR).\n";

std::string usesText(uint32_t Uses) {
  static const char *Names[] = {"barrier",       "warp-functions", "textures",
                                "printf",        "assert",         "atomics",
                                "dynamic-shared"};
  std::string Out;
  for (unsigned I = 0; I < std::size(Names); ++I)
    if (Uses & (1u << I))
      Out += (Out.empty() ? "" : ", ") + std::string(Names[I]);
  return Out.empty() ? "nothing special" : Out;
}

void printKernels(const ModuleImage &Image) {
  for (const KernelInfo &K : Image.Kernels) {
    outs() << "kernel " << K.Name << "\n";
    outs() << llvm::formatv("  parameters: {0} ({1} bytes)\n", K.Params.size(),
                            K.ParamBytes);
    for (size_t I = 0; I < K.Params.size(); ++I)
      outs() << llvm::formatv("    [{0}] offset {1}, size {2}, align {3}\n", I,
                              K.Params[I].Offset, K.Params[I].Size,
                              K.Params[I].Align);
    outs() << llvm::formatv("  static shared memory: {0} bytes\n",
                            K.StaticShared);
    if (K.MaxThreadsPerBlock)
      outs() << llvm::formatv("  max threads per block: {0}\n",
                              K.MaxThreadsPerBlock);
    else
      outs() << "  max threads per block: not limited\n";
    outs() << "  uses: " << usesText(K.Uses) << "\n";
  }
}

/// The name of a cudaTextureType value.
const char *textureTypeName(uint32_t Type) {
  switch (Type) {
  case 0x01:
    return "1D";
  case 0x02:
    return "2D";
  case 0x03:
    return "3D";
  case 0x0C:
    return "cubemap";
  case 0xF1:
    return "1D layered";
  case 0xF2:
    return "2D layered";
  case 0xFC:
    return "cubemap layered";
  default:
    return "?";
  }
}

void printGlobals(const ModuleImage &Image) {
  for (const GlobalInfo &G : Image.Globals)
    outs() << llvm::formatv(
        "global {0}: {1}, {2} bytes, align {3}, {4}\n", G.Name,
        G.Space == GlobalSpace::Constant ? "__constant__" : "__device__",
        G.Size, G.Align,
        G.Initializer.empty() ? "zero-initialized" : "initialized");
  static const char *Kinds[] = {"signed", "unsigned", "float"};
  for (const TexRefInfo &T : Image.TexRefs)
    if (isSurfaceReference(T))
      outs() << llvm::formatv("surface {0}: {1}\n", T.Name,
                              T.Dimensions ? textureTypeName(T.Dimensions)
                                           : "type unknown (no kernel "
                                             "accesses it)");
    else if (T.Dimensions == 0)
      outs() << llvm::formatv("texture {0}: type unknown (no kernel fetches "
                              "through it)\n",
                              T.Name);
    else
      outs() << llvm::formatv("texture {0}: {1}, {2}, {3} x {4}-bit {5}\n",
                              T.Name, textureTypeName(T.Dimensions),
                              T.ReadMode ? "normalized float" : "element type",
                              T.Channels, T.ChannelBits,
                              T.ChannelKind < 3 ? Kinds[T.ChannelKind] : "?");
}

/// Prints the bitcode as IR text; false if it does not parse.
bool printIr(const ModuleImage &Image, llvm::StringRef Name) {
  llvm::LLVMContext Context;
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Image.Bitcode.data()),
                        Image.Bitcode.size());
  auto M = llvm::parseBitcodeFile(llvm::MemoryBufferRef(Bytes, Name), Context);
  if (!M) {
    llvm::errs() << "cucpu-objdump: " << Name << ": the LLVM bitcode does not "
                 << "parse: " << llvm::toString(M.takeError()) << "\n";
    return false;
  }
  (*M)->print(outs(), nullptr);
  return true;
}

/// Shows one module image; false on error.
bool showImage(llvm::ArrayRef<uint8_t> Bytes, llvm::StringRef Name,
               const Options &O) {
  auto Image = readImage(Bytes);
  if (!Image) {
    llvm::errs() << "cucpu-objdump: " << Name << ": "
                 << llvm::toString(Image.takeError()) << "\n";
    return false;
  }
  if (O.Header)
    outs() << llvm::formatv("{0}: cucpu module image, format {1}{5}, target "
                            "{2}, producer \"{3}\", {4} bytes of bitcode\n",
                            Name, ImageFormatVersion, Image->TargetArch,
                            Image->Producer, Image->Bitcode.size(),
                            Image->Relocatable ? ", relocatable" : "");
  if (O.Kernels)
    printKernels(*Image);
  if (O.Globals)
    printGlobals(*Image);
  return !O.Ir || printIr(*Image, Name);
}

bool showFatBinary(llvm::ArrayRef<uint8_t> Bytes, llvm::StringRef Name,
                   const Options &O) {
  auto Entries = readFatBinary(Bytes);
  if (!Entries) {
    llvm::errs() << "cucpu-objdump: " << Name << ": "
                 << llvm::toString(Entries.takeError()) << "\n";
    return false;
  }
  outs() << llvm::formatv("{0}: fat binary with {1} entries\n", Name,
                          Entries->size());
  bool Ok = true;
  for (size_t I = 0; I < Entries->size(); ++I) {
    const FatBinaryEntry &E = (*Entries)[I];
    std::string EntryName = llvm::formatv("{0}[{1}]", Name, I).str();
    outs() << llvm::formatv(
        "entry {0}: kind {1}, sm_{2}, {3} bytes at offset "
        "{4}: {5}{6}\n",
        I, E.Kind, E.Arch, E.Payload.size(), E.Offset, describe(E.PayloadKind),
        (E.Flags & FatFlagCompressed) ? " (compressed)" : "");
    if (E.PayloadKind == ImageKind::CucpuImage)
      Ok &= showImage(E.Payload, EntryName, O);
  }
  return Ok;
}
} // namespace

int main(int Argc, char **Argv) {
  Options O;
  bool Any = false;
  std::string File;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Arg == "--list-kernels" || Arg == "-lk") {
      O.Kernels = Any = true;
    } else if (Arg == "--list-globals" || Arg == "-lg") {
      O.Globals = Any = true;
    } else if (Arg == "--dump-ir") {
      O.Ir = Any = true;
    } else if (Arg == "--all") {
      O.Kernels = O.Globals = O.Ir = Any = true;
    } else if (Arg == "--help" || Arg == "-h") {
      outs() << Usage;
      return 0;
    } else if (Arg.starts_with("-") || !File.empty()) {
      llvm::errs() << "cucpu-objdump: unexpected argument '" << Arg << "'\n"
                   << Usage;
      return 2;
    } else {
      File = Arg.str();
    }
  }
  if (File.empty()) {
    llvm::errs() << Usage;
    return 2;
  }
  if (!Any)
    O.Kernels = O.Globals = true;
  // With only --dump-ir, the output is IR text alone.
  O.Header = O.Kernels || O.Globals;

  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    llvm::errs() << "cucpu-objdump: " << File << ": "
                 << Buffer.getError().message() << "\n";
    return 1;
  }
  llvm::ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buffer)->getBufferStart()),
      (*Buffer)->getBufferSize());
  std::string Why;
  ImageKind Kind = classifyImage(Bytes.data(), Bytes.size(), Why);
  bool Ok = false;
  if (Bytes.empty()) {
    llvm::errs() << "cucpu-objdump: " << File << ": the file is empty\n";
  } else if (Kind == ImageKind::FatBinary) {
    Ok = showFatBinary(Bytes, File, O);
  } else if (Kind == ImageKind::CucpuImage || Kind == ImageKind::Malformed) {
    // A malformed ELF goes through the reader, whose message is precise.
    Ok = showImage(Bytes, File, O);
  } else {
    llvm::errs() << "cucpu-objdump: " << File << " is " << describe(Kind)
                 << ", not a cucpu module image or fat binary"
                 << (Why.empty() ? "" : ": " + Why) << "\n";
  }
  return Ok ? 0 : 1;
}
