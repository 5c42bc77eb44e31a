//===- IntegerAddresses.h - PTX's integer addresses as pointers -*- C++ -*-===//
//
// PTX computes addresses in 64-bit registers: a kernel's pointer parameter
// is an integer, an element's address is that integer plus a scaled index,
// and nvcc steps its strength-reduced pointers with integer adds. Translated
// as written, every access is `inttoptr (add i64 ...)`, which hides the
// address's recurrence from scalar evolution: the loop vectorizer finds no
// consecutive access in a thread loop and splits every vector access into
// scalar ones. This pass rewrites each such address as a pointer base
// (`inttoptr` of a parameter, a loaded or a converted pointer) offset by
// `getelementptr i8` of the integer terms, with address phis and selects
// made pointer phis and selects, as clang's IR for the same source is.
// The GEPs carry no `inbounds`: the addresses are exactly the integers'.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_INTEGERADDRESSES_H
#define CUCPU_PTX_INTEGERADDRESSES_H

#include "llvm/IR/PassManager.h"

namespace cucpu::ptx {

/// Rewrites a function's `inttoptr` of 64-bit address arithmetic as pointer
/// arithmetic (see above).
struct IntegerAddressesPass : llvm::PassInfoMixin<IntegerAddressesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace cucpu::ptx

#endif // CUCPU_PTX_INTEGERADDRESSES_H
