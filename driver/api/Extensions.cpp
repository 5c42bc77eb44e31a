//===- Extensions.cpp - cucpu's own exported additions --------------------===//
#include "core/Entry.h"

#include <cucpu/cucpu.h>

CUCPU_EXPORT const char *cucpuGetLastErrorMessage(void) {
  return cucpu::api::lastMessage().c_str();
}
