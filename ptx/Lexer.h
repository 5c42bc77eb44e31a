//===- Lexer.h - Tokens of PTX text -----------------------------*- C++ -*-===//
//
// Splits PTX text into tokens: names (%r1, $L__BB0_2, _Z3fooi), directives
// and modifiers (.reg, .f32), numbers, strings and punctuation. Comments
// (// and /* */) are skipped; each token knows its line.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_LEXER_H
#define CUCPU_PTX_LEXER_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace cucpu::ptx {

/// One token.
struct Token {
  enum class Kind {
    End,     ///< End of the text.
    Name,    ///< An identifier: [A-Za-z_$%][A-Za-z0-9_$]*.
    Dotted,  ///< A directive or modifier: .name (Text holds the name
             ///< without the dot).
    Integer, ///< Decimal, 0x hexadecimal, 0 octal or 0b binary; U suffix.
    Float,   ///< 0f followed by 8 hexadecimal digits.
    Double,  ///< 0d followed by 16 hexadecimal digits, or a decimal
             ///< literal with a point or an exponent.
    String,  ///< "..." (Text holds the contents).
    Punct,   ///< One of , ; : ( ) [ ] { } < > + - ! | @ = *.
    Invalid, ///< A character PTX does not use (Text holds it).
  };
  Kind K = Kind::End;
  std::string Text;   ///< The spelling (see Kind).
  uint64_t Value = 0; ///< Integer value or float bits.
  unsigned Line = 1;
  /// Whether whitespace separated this token from the previous one.
  bool SpaceBefore = true;

  /// Whether this is the punctuation \p C.
  bool is(char C) const {
    return K == Kind::Punct && Text.size() == 1 && Text[0] == C;
  }
  /// Whether this is the directive or modifier .\p Name.
  bool isDotted(llvm::StringRef Name) const {
    return K == Kind::Dotted && Text == Name;
  }
};

/// Reads tokens from PTX text one at a time.
class Lexer {
public:
  /// Tokenizes \p Text, which must outlive the lexer.
  explicit Lexer(llvm::StringRef Text) : Text(Text) {}
  /// The next token; Kind::End at the end, forever after.
  Token next();
  /// An error message from the last token, empty if it was well formed
  /// (an unterminated string or comment, a malformed number).
  const std::string &error() const { return Error; }

private:
  void skipSpaceAndComments(bool &SawSpace);
  Token number(Token T);

  llvm::StringRef Text;
  size_t Pos = 0;
  unsigned Line = 1;
  std::string Error;
};

} // namespace cucpu::ptx

#endif // CUCPU_PTX_LEXER_H
