//===- Extensions.cpp - cucpu's own exported additions --------------------===//
#include "core/EntryPoint.h"

#include <cucpu/cucpu.h>

CUCPU_EXPORT const char *cucpuGetLastErrorMessage(void) {
  return cucpu::api::lastMessage().c_str();
}
