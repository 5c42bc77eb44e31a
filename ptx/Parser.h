//===- Parser.h - PTX text to a ptx::Module ---------------------*- C++ -*-===//
//
// A recursive-descent parser for the PTX ISA's module grammar (PTX ISA 9.0,
// §4 and §5): directives, variables with initializers, .entry and .func
// with their parameters and performance directives, and function bodies.
// Instructions are parsed by their shape alone (guard, opcode, modifiers,
// operands); the translator knows what each means.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_PARSER_H
#define CUCPU_PTX_PARSER_H

#include "Ast.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace cucpu::ptx {

/// The newest PTX ISA version the front end reads (major * 10 + minor).
inline constexpr unsigned NewestPtxVersion = 90;

/// Parses \p Text. Errors are PtxError: the line and what is wrong, kind
/// UnsupportedVersion for a .version newer than NewestPtxVersion.
llvm::Expected<Module> parse(llvm::StringRef Text);

} // namespace cucpu::ptx

#endif // CUCPU_PTX_PARSER_H
