//===- Lexer.cpp - Tokens of PTX text -------------------------------------===//

#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <cstring>

namespace cucpu::ptx {

namespace {
bool isNameStart(char C) {
  return llvm::isAlpha(C) || C == '_' || C == '$' || C == '%';
}
bool isNameChar(char C) { return llvm::isAlnum(C) || C == '_' || C == '$'; }
} // namespace

void Lexer::skipSpaceAndComments(bool &SawSpace) {
  while (Pos < Text.size()) {
    char C = Text[Pos];
    if (C == '\n') {
      ++Line;
      ++Pos;
      SawSpace = true;
    } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++Pos;
      SawSpace = true;
    } else if (Text.substr(Pos).starts_with("//")) {
      size_t End = Text.find('\n', Pos);
      Pos = End == llvm::StringRef::npos ? Text.size() : End;
      SawSpace = true;
    } else if (Text.substr(Pos).starts_with("/*")) {
      size_t End = Text.find("*/", Pos + 2);
      if (End == llvm::StringRef::npos) {
        Error = "unterminated /* comment";
        Pos = Text.size();
        return;
      }
      Line += Text.substr(Pos, End - Pos).count('\n');
      Pos = End + 2;
      SawSpace = true;
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  Error.clear();
  Token T;
  bool SawSpace = Pos == 0;
  skipSpaceAndComments(SawSpace);
  T.SpaceBefore = SawSpace;
  T.Line = Line;
  if (!Error.empty() || Pos >= Text.size()) {
    T.K = Error.empty() ? Token::Kind::End : Token::Kind::Invalid;
    return T;
  }
  char C = Text[Pos];
  size_t Start = Pos;
  // A modifier may start with a digit (tex.1d, suld.b.2d): a '.' right after
  // a name, with no space, is a modifier, not a number like .5.
  bool DigitModifier = C == '.' && !SawSpace && Pos > 0 &&
                       isNameChar(Text[Pos - 1]) && Pos + 1 < Text.size() &&
                       llvm::isDigit(Text[Pos + 1]);
  if ((C == '.' && Pos + 1 < Text.size() && isNameStart(Text[Pos + 1]) &&
       Text[Pos + 1] != '%') ||
      DigitModifier) {
    ++Pos;
    while (Pos < Text.size() && isNameChar(Text[Pos]))
      ++Pos;
    // A qualified modifier: .shared::cta, .L2::128B, .L1::evict_last.
    while (Pos + 2 < Text.size() && Text[Pos] == ':' && Text[Pos + 1] == ':' &&
           isNameChar(Text[Pos + 2])) {
      Pos += 2;
      while (Pos < Text.size() && isNameChar(Text[Pos]))
        ++Pos;
    }
    T.K = Token::Kind::Dotted;
    T.Text = Text.slice(Start + 1, Pos).str();
    return T;
  }
  if (isNameStart(C)) {
    ++Pos;
    while (Pos < Text.size() && isNameChar(Text[Pos]))
      ++Pos;
    T.K = Token::Kind::Name;
    T.Text = Text.slice(Start, Pos).str();
    return T;
  }
  if (llvm::isDigit(C) ||
      (C == '.' && Pos + 1 < Text.size() && llvm::isDigit(Text[Pos + 1])))
    return number(T);
  if (C == '"') {
    ++Pos;
    std::string S;
    while (Pos < Text.size() && Text[Pos] != '"') {
      if (Text[Pos] == '\n') {
        break;
      }
      if (Text[Pos] == '\\' && Pos + 1 < Text.size()) {
        ++Pos;
        char E = Text[Pos];
        S.push_back(E == 'n' ? '\n' : E == 't' ? '\t' : E);
      } else {
        S.push_back(Text[Pos]);
      }
      ++Pos;
    }
    if (Pos >= Text.size() || Text[Pos] != '"') {
      Error = "unterminated string";
      T.K = Token::Kind::Invalid;
      T.Text = "\"";
      return T;
    }
    ++Pos;
    T.K = Token::Kind::String;
    T.Text = std::move(S);
    return T;
  }
  ++Pos;
  T.Text = std::string(1, C);
  T.K = std::strchr(",;:()[]{}<>+-!|@=*", C) ? Token::Kind::Punct
                                             : Token::Kind::Invalid;
  if (T.K == Token::Kind::Invalid)
    Error = "unexpected character";
  return T;
}

Token Lexer::number(Token T) {
  size_t Start = Pos;
  auto Hex = [&](size_t Digits, Token::Kind K) {
    size_t From = Pos + 2;
    size_t End = From;
    while (End < Text.size() && llvm::isHexDigit(Text[End]))
      ++End;
    Pos = End;
    T.Text = Text.slice(Start, End).str();
    if (End - From != Digits) {
      Error = "a " + std::string(K == Token::Kind::Float ? "0f" : "0d") +
              " literal takes " + std::to_string(Digits) + " hex digits";
      T.K = Token::Kind::Invalid;
      return T;
    }
    T.K = K;
    llvm::StringRef(Text.slice(From, End)).getAsInteger(16, T.Value);
    return T;
  };
  if (Text.substr(Pos).starts_with_insensitive("0f") && Pos + 2 < Text.size() &&
      llvm::isHexDigit(Text[Pos + 2]))
    return Hex(8, Token::Kind::Float);
  if (Text.substr(Pos).starts_with_insensitive("0d") && Pos + 2 < Text.size() &&
      llvm::isHexDigit(Text[Pos + 2]))
    return Hex(16, Token::Kind::Double);
  // Decimal floating-point literal: digits with a point or an exponent.
  size_t End = Pos;
  while (End < Text.size() && llvm::isDigit(Text[End]))
    ++End;
  bool IsFloat = false;
  if (End < Text.size() && Text[End] == '.' &&
      !(End + 1 < Text.size() && llvm::isAlpha(Text[End + 1]))) {
    IsFloat = true;
    ++End;
    while (End < Text.size() && llvm::isDigit(Text[End]))
      ++End;
  }
  if (End < Text.size() && (Text[End] == 'e' || Text[End] == 'E') &&
      !Text.substr(Pos).starts_with_insensitive("0x")) {
    size_t E = End + 1;
    if (E < Text.size() && (Text[E] == '+' || Text[E] == '-'))
      ++E;
    if (E < Text.size() && llvm::isDigit(Text[E])) {
      IsFloat = true;
      End = E;
      while (End < Text.size() && llvm::isDigit(Text[End]))
        ++End;
    }
  }
  if (IsFloat) {
    std::string S = Text.slice(Pos, End).str();
    Pos = End;
    double D = std::strtod(S.c_str(), nullptr);
    std::memcpy(&T.Value, &D, sizeof D);
    T.K = Token::Kind::Double;
    T.Text = S;
    return T;
  }
  End = Pos;
  while (End < Text.size() && isNameChar(Text[End]))
    ++End;
  llvm::StringRef Spelling = Text.slice(Pos, End);
  Pos = End;
  T.Text = Spelling.str();
  llvm::StringRef Digits = Spelling;
  if (Digits.ends_with("U") || Digits.ends_with("u"))
    Digits = Digits.drop_back();
  unsigned Radix = 10;
  if (Digits.starts_with_insensitive("0x")) {
    Radix = 16;
    Digits = Digits.drop_front(2);
  } else if (Digits.starts_with_insensitive("0b")) {
    Radix = 2;
    Digits = Digits.drop_front(2);
  } else if (Digits.size() > 1 && Digits.starts_with("0")) {
    Radix = 8;
    Digits = Digits.drop_front(1);
  }
  if (Digits.empty() || Digits.getAsInteger(Radix, T.Value)) {
    Error = "malformed number";
    T.K = Token::Kind::Invalid;
    return T;
  }
  T.K = Token::Kind::Integer;
  return T;
}

} // namespace cucpu::ptx
