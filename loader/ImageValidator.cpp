//===- ImageValidator.cpp - Semantic rules of a module image --------------===//
#include "ImageValidator.h"

#include "cucpu/loader/LoaderError.h"
#include "cucpu/loader/ModuleFormat.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace cucpu::loader;
using llvm::Error;
using llvm::StringRef;

namespace {
/// Names are stored as NUL-terminated ELF strings, so they may not hold NUL.
Error checkName(StringRef Name, StringRef What) {
  if (Name.empty())
    return invalidImage("A {0} has an empty name.", What);
  if (Name.size() > format::MaxNameLength)
    return invalidImage("The name of a {0} is {1} bytes long (at most {2}).",
                        What, Name.size(), format::MaxNameLength);
  if (Name.contains('\0'))
    return invalidImage("The name of {0} \"{1}\" contains a NUL byte.", What,
                        Name);
  return Error::success();
}

/// Printable ASCII without spaces, as "sm_90a" and "compute_52" are.
bool isPlainWord(StringRef S) {
  return !S.empty() && S.size() <= 64 &&
         llvm::all_of(S, [](char C) { return C > ' ' && C < 127; });
}

Error checkKernel(const KernelInfo &K) {
  if (K.ParamBytes > format::MaxParamBytes)
    return invalidImage("Kernel \"{0}\" has {1} bytes of parameters (at most "
                        "{2}).",
                        K.Name, K.ParamBytes, format::MaxParamBytes);
  if (K.Params.size() > format::MaxParamBytes)
    return invalidImage("Kernel \"{0}\" has {1} parameters (at most {2}).",
                        K.Name, K.Params.size(), format::MaxParamBytes);
  uint64_t End = 0;
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const KernelParam &P = K.Params[I];
    if (P.Size == 0)
      return invalidImage("Parameter {0} of kernel \"{1}\" has size 0.", I,
                          K.Name);
    if (!llvm::isPowerOf2_32(P.Align) || P.Align > format::MaxParamBytes)
      return invalidImage("Parameter {0} of kernel \"{1}\" has alignment {2}, "
                          "not a power of two of at most {3}.",
                          I, K.Name, P.Align, format::MaxParamBytes);
    if (P.Offset % P.Align != 0)
      return invalidImage("Parameter {0} of kernel \"{1}\" is at offset {2}, "
                          "which is not a multiple of its alignment {3}.",
                          I, K.Name, P.Offset, P.Align);
    if (P.Offset < End)
      return invalidImage("Parameter {0} of kernel \"{1}\" at offset {2} "
                          "overlaps or precedes the previous one, which ends "
                          "at {3}.",
                          I, K.Name, P.Offset, End);
    End = uint64_t(P.Offset) + P.Size;
    if (End > K.ParamBytes)
      return invalidImage("Parameter {0} of kernel \"{1}\" ends at byte {2}, "
                          "past the parameter size {3}.",
                          I, K.Name, End, K.ParamBytes);
  }
  if (K.Uses & ~format::KnownUses)
    return invalidImage("Kernel \"{0}\" has unknown use bits {1:x}.", K.Name,
                        K.Uses & ~format::KnownUses);
  return Error::success();
}

Error checkGlobal(const GlobalInfo &G) {
  if (G.Space != GlobalSpace::Device && G.Space != GlobalSpace::Constant)
    return invalidImage("Global \"{0}\" is in unknown space {1}.", G.Name,
                        static_cast<uint32_t>(G.Space));
  if (G.Size > format::MaxGlobalSize)
    return invalidImage("Global \"{0}\" has {1} bytes (at most {2}).", G.Name,
                        G.Size, format::MaxGlobalSize);
  if (!llvm::isPowerOf2_32(G.Align) || G.Align > format::MaxGlobalAlign)
    return invalidImage("Global \"{0}\" has alignment {1}, not a power of two "
                        "of at most {2}.",
                        G.Name, G.Align, format::MaxGlobalAlign);
  if (!G.Initializer.empty() && G.Initializer.size() != G.Size)
    return invalidImage("The initializer of global \"{0}\" has {1} bytes, "
                        "but the global has {2}.",
                        G.Name, G.Initializer.size(), G.Size);
  return Error::success();
}

/// Whether \p Type is a cudaTextureType value: 1D, 2D, 3D, cubemap, and the
/// layered 1D, 2D and cubemap forms.
bool isTextureType(uint32_t Type) {
  switch (Type) {
  case 0x01:
  case 0x02:
  case 0x03:
  case 0x0C:
  case 0xF1:
  case 0xF2:
  case 0xFC:
    return true;
  default:
    return false;
  }
}

Error checkTexRef(const TexRefInfo &T) {
  // A surface reference: its type, or 0 if no kernel accesses it.
  if (isSurfaceReference(T)) {
    if ((T.Dimensions == 0 || isTextureType(T.Dimensions)) &&
        T.ChannelKind == 0 && T.ChannelBits == 0 && T.Channels == 0)
      return Error::success();
    return invalidImage("Surface reference \"{0}\" has an invalid "
                        "description (type {1:x}, channel kind {2}, {3} bits, "
                        "{4} channels).",
                        T.Name, T.Dimensions, T.ChannelKind, T.ChannelBits,
                        T.Channels);
  }
  bool Unknown = T.Dimensions == 0 && T.ReadMode == 0 && T.ChannelKind == 0 &&
                 T.ChannelBits == 0 && T.Channels == 0;
  bool Valid =
      Unknown ||
      (isTextureType(T.Dimensions) && T.ReadMode <= 1 && T.ChannelKind <= 2 &&
       (T.ChannelBits == 8 || T.ChannelBits == 16 || T.ChannelBits == 32) &&
       (T.Channels == 1 || T.Channels == 2 || T.Channels == 4));
  if (!Valid)
    return invalidImage("Texture reference \"{0}\" has an invalid description "
                        "(type {1:x}, read mode {2}, channel kind {3}, "
                        "{4} bits, {5} channels).",
                        T.Name, T.Dimensions, T.ReadMode, T.ChannelKind,
                        T.ChannelBits, T.Channels);
  return Error::success();
}
} // namespace

uint32_t cucpu::loader::archNumber(StringRef TargetArch) {
  size_t Underscore = TargetArch.find('_');
  if (Underscore == StringRef::npos)
    return 0;
  StringRef Digits = TargetArch.drop_front(Underscore + 1);
  Digits = Digits.take_while([](char C) { return C >= '0' && C <= '9'; });
  uint32_t N = 0;
  if (Digits.getAsInteger(10, N) || N > format::FlagsArchMask)
    return 0;
  return N;
}

Error cucpu::loader::validateImage(const ModuleImage &Image) {
  if (Image.Producer.size() > format::MaxProducerLength ||
      StringRef(Image.Producer).contains('\0'))
    return invalidImage("The producer string is longer than {0} bytes or "
                        "contains a NUL byte.",
                        format::MaxProducerLength);
  if (!isPlainWord(Image.TargetArch))
    return invalidImage("The target architecture \"{0}\" is not a word of 1 "
                        "to 64 printable characters.",
                        Image.TargetArch);
  if (Image.Bitcode.empty())
    return invalidImage("The image holds no LLVM bitcode.");

  // Kernels, globals and texture references share the module's namespace
  // (cuModuleGetFunction/GetGlobal/GetTexRef look them up by IR name).
  llvm::StringSet<> Names;
  auto Unique = [&](StringRef Name, StringRef What) -> Error {
    if (Error E = checkName(Name, What))
      return E;
    if (!Names.insert(Name).second)
      return invalidImage("The name \"{0}\" of a {1} is used twice in the "
                          "image.",
                          Name, What);
    return Error::success();
  };
  for (const KernelInfo &K : Image.Kernels) {
    if (Error E = Unique(K.Name, "kernel"))
      return E;
    if (Error E = checkKernel(K))
      return E;
  }
  for (const GlobalInfo &G : Image.Globals) {
    if (Error E = Unique(G.Name, "global"))
      return E;
    if (Error E = checkGlobal(G))
      return E;
  }
  for (const TexRefInfo &T : Image.TexRefs) {
    if (Error E = Unique(T.Name, "texture reference"))
      return E;
    if (Error E = checkTexRef(T))
      return E;
  }
  return Error::success();
}
