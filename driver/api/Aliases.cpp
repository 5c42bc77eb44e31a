//===- Aliases.cpp - Exported names served by another entry point ---------===//
//
// Every CU_ALIAS(Name, Target) line of Exports.def becomes an exported ELF
// function symbol Name whose whole body is a tail jump to Target. The two
// have identical C signatures, so the arguments are already where Target
// expects them and Target's return goes straight back to the caller; the
// alias adds one direct jump and no stack frame.
//
// The jump goes through Target's PLT entry, as an ordinary call from this
// library would: that is valid in a -fPIC shared library, and the linker
// turns it into a direct jump when the symbol binds locally (-Bsymbolic,
// hidden or protected). Symbols defined by top-level asm are not affected by
// -fvisibility=hidden, so each alias is exported with default visibility.
//
// No cuda.h here: the names are only stringized.
//
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)

// With -fcf-protection=branch (Intel IBT) every function that may be reached
// by an indirect call, as these are through dlsym/PLT, starts with endbr64.
#if defined(__CET__) && (__CET__ & 1)
#define CUCPU_ALIAS_LANDING_PAD "  endbr64\n"
#else
#define CUCPU_ALIAS_LANDING_PAD ""
#endif

#define CUCPU_ALIAS_ASM(Name, Target)                                          \
  __asm__("  .pushsection .text, \"ax\", @progbits\n"                          \
          "  .globl " #Name "\n"                                               \
          "  .type " #Name ", @function\n"                                     \
          "  .p2align 4\n" #Name ":\n" CUCPU_ALIAS_LANDING_PAD                 \
          "  jmp " #Target "@PLT\n"                                            \
          "  .size " #Name ", . - " #Name "\n"                                 \
          "  .popsection\n");

#elif defined(__aarch64__)

// With -mbranch-protection=bti every indirect-call target starts with bti c.
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define CUCPU_ALIAS_LANDING_PAD "  bti c\n"
#else
#define CUCPU_ALIAS_LANDING_PAD ""
#endif

// A B to a preemptible symbol in a shared library gets a PLT stub from the
// linker (R_AARCH64_JUMP26), like a BL would.
#define CUCPU_ALIAS_ASM(Name, Target)                                          \
  __asm__("  .pushsection .text, \"ax\", %progbits\n"                          \
          "  .globl " #Name "\n"                                               \
          "  .type " #Name ", %function\n"                                     \
          "  .p2align 2\n" #Name ":\n" CUCPU_ALIAS_LANDING_PAD "  b " #Target  \
          "\n"                                                                 \
          "  .size " #Name ", . - " #Name "\n"                                 \
          "  .popsection\n");

#else
#error                                                                         \
    "cucpu: Aliases.cpp has tail-jump stubs for x86-64 and AArch64 only; add the new architecture's jump here."
#endif

#define CU_IMPL(Name)
#define CU_LEGACY(Name)
#define CU_TODO(Name)
#define CU_ALIAS(Name, Target) CUCPU_ALIAS_ASM(Name, Target)
#include "api/Exports.def"
#undef CU_IMPL
#undef CU_ALIAS
#undef CU_LEGACY
#undef CU_TODO
