//===- Ops.h - The table of PTX instruction handlers ------------*- C++ -*-===//
//
// Each family of instructions lives in its own file and adds its handlers,
// keyed by opcode, to the one table the translator dispatches through.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_OPS_OPS_H
#define CUCPU_PTX_OPS_OPS_H

#include "FunctionTranslator.h"

#include "llvm/ADT/StringMap.h"

namespace cucpu::ptx {

/// Opcode -> handler.
using OpTable = llvm::StringMap<OpHandler>;

/// add, sub, mul, mad, div, rem, abs, neg, min, max, fma, logic, shifts,
/// bit operations, setp, selp, slct (ops/Arithmetic.cpp, ops/Bits.cpp).
void addArithmeticOps(OpTable &T);
void addBitOps(OpTable &T);
/// mov, cvt, cvta (ops/Conversion.cpp).
void addConversionOps(OpTable &T);
/// ld, st, ldu, prefetch, atom, red (ops/Memory.cpp, ops/Atomics.cpp).
void addMemoryOps(OpTable &T);
void addAtomicOps(OpTable &T);
/// bra, call, ret, exit, trap, brkpt (ops/Control.cpp).
void addControlOps(OpTable &T);
/// bar, barrier, membar, fence, vote, shfl, match, redux, activemask
/// (ops/Sync.cpp).
void addSyncOps(OpTable &T);
/// sin, cos, ex2, lg2, rcp, sqrt, rsqrt, tanh, copysign (ops/Math.cpp).
void addMathOps(OpTable &T);
/// tex, tld4, txq, suld, sust, suq (ops/Textures.cpp).
void addTextureOps(OpTable &T);
/// vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4, vset2/4
/// (ops/Video.cpp).
void addVideoOps(OpTable &T);

/// The table of every handler.
const OpTable &opTable();

} // namespace cucpu::ptx

#endif // CUCPU_PTX_OPS_OPS_H
