//===- DevicePrintf.cpp - Device printf formatted on the host -------------===//
#include "core/DevicePrintf.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace cucpu;

namespace {
/// Reads the next argument of \p Bytes bytes from the packed buffer.
template <typename T> T next(const char *Args, size_t &Offset) {
  Offset = (Offset + alignof(T) - 1) & ~(alignof(T) - 1);
  T Value;
  std::memcpy(&Value, Args + Offset, sizeof(T));
  Offset += sizeof(T);
  return Value;
}

/// Appends snprintf(Spec, Value) to Out.
template <typename T>
int appendFormatted(std::string &Out, const std::string &Spec, T Value) {
  char Small[128];
  int N = std::snprintf(Small, sizeof(Small), Spec.c_str(), Value);
  if (N < 0)
    return 0;
  if (static_cast<size_t>(N) < sizeof(Small)) {
    Out.append(Small, N);
    return N;
  }
  std::string Big(static_cast<size_t>(N) + 1, '\0');
  std::snprintf(Big.data(), Big.size(), Spec.c_str(), Value);
  Out.append(Big.data(), N);
  return N;
}
} // namespace

int cucpu::formatDevicePrintf(const char *Format, const char *Args,
                              std::string &Out) {
  if (!Format)
    return -1;
  size_t Start = Out.size();
  size_t Offset = 0;
  const char *P = Format;
  while (*P) {
    if (*P != '%') {
      const char *Run = P;
      while (*P && *P != '%')
        ++P;
      Out.append(Run, P - Run);
      continue;
    }
    if (P[1] == '%') {
      Out.push_back('%');
      P += 2;
      continue;
    }
    // One conversion: %[flags][width][.precision][length]conversion. A '*'
    // width or precision is an int argument of its own; it is resolved into
    // the specification so snprintf gets exactly one value.
    std::string Spec = "%";
    ++P;
    while (*P && std::strchr("-+ #0'", *P))
      Spec.push_back(*P++);
    auto Number = [&] {
      if (*P == '*') {
        ++P;
        Spec += std::to_string(next<int32_t>(Args, Offset));
        return;
      }
      while (*P >= '0' && *P <= '9')
        Spec.push_back(*P++);
    };
    Number();
    if (*P == '.') {
      Spec.push_back(*P++);
      Number();
    }
    // Length modifiers: only the size of the argument matters here.
    bool Wide = false;
    std::string Length;
    while (*P && std::strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'L' || *P == 'q' || *P == 'j' || *P == 'z' ||
          *P == 't')
        Wide = true;
      Length.push_back(*P++);
    }
    char Conv = *P;
    if (!Conv)
      break;
    ++P;
    switch (Conv) {
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      if (Wide) {
        Spec += "ll";
        Spec.push_back(Conv);
        appendFormatted(Out, Spec,
                        static_cast<long long>(next<int64_t>(Args, Offset)));
      } else {
        Spec += Length; // h and hh narrow the promoted int, as in C.
        Spec.push_back(Conv);
        appendFormatted(Out, Spec,
                        static_cast<int>(next<int32_t>(Args, Offset)));
      }
      break;
    case 'c':
      Spec.push_back('c');
      appendFormatted(Out, Spec, static_cast<int>(next<int32_t>(Args, Offset)));
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      Spec.push_back(Conv); // Floats arrive promoted to double.
      appendFormatted(Out, Spec, next<double>(Args, Offset));
      break;
    case 's': {
      Spec.push_back('s');
      auto *Str = reinterpret_cast<const char *>(next<uint64_t>(Args, Offset));
      appendFormatted(Out, Spec, Str ? Str : "(null)");
      break;
    }
    case 'p':
      Spec.push_back('p');
      appendFormatted(Out, Spec,
                      reinterpret_cast<void *>(next<uint64_t>(Args, Offset)));
      break;
    case 'n':
      (void)next<uint64_t>(Args, Offset); // Not supported on the device.
      break;
    default:
      // Not a conversion printf knows: printed as written.
      Out += Spec;
      Out += Length;
      Out.push_back(Conv);
      break;
    }
  }
  return static_cast<int>(Out.size() - Start);
}
