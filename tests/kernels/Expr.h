//===- Expr.h - The expression evaluator of ARGS and EXPECT -----*- C++ -*-===//
//
// EXPR in kernel_runner's arguments and checks: integers and decimals, i (the
// element index), + - * / % & | ^ << >>, unary minus and parentheses, with
// C's precedence, evaluated in one type (integer division for integers).
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_EXPR_H
#define CUCPU_TESTS_KERNELS_EXPR_H

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace kernelrunner {

/// A tiny recursive-descent evaluator over T: Text evaluated with i = I.
template <typename T> class Expr {
public:
  /// Text is kept by reference: it must outlive the evaluator.
  Expr(const std::string &Text, T I) : S(Text), I(I) {}
  /// Evaluates the whole text into Out; false if it is malformed, trails
  /// other characters or divides by zero.
  bool eval(T &Out) {
    Pos = 0;
    Ok = true;
    Out = parseOr();
    skip();
    return Ok && Pos == S.size();
  }

private:
  /// Steps over spaces.
  void skip() {
    while (Pos < S.size() && S[Pos] == ' ')
      ++Pos;
  }
  /// Consumes the operator Op if it comes next.
  bool eat(const char *Op) {
    skip();
    size_t N = std::strlen(Op);
    if (S.compare(Pos, N, Op) != 0)
      return false;
    // "<" must not swallow "<<" and so on.
    if (N == 1 && Pos + 1 < S.size() && S[Pos + 1] == Op[0] &&
        (Op[0] == '<' || Op[0] == '>'))
      return false;
    Pos += N;
    return true;
  }
  /// One level of the grammar each, from the loosest binding (|) to the
  /// tightest (unary minus, parentheses, numbers and i).
  T parseOr() {
    T V = parseXor();
    while (eat("|"))
      V = bitop(V, parseXor(), '|');
    return V;
  }
  T parseXor() {
    T V = parseAnd();
    while (eat("^"))
      V = bitop(V, parseAnd(), '^');
    return V;
  }
  T parseAnd() {
    T V = parseShift();
    while (eat("&"))
      V = bitop(V, parseShift(), '&');
    return V;
  }
  T parseShift() {
    T V = parseSum();
    for (;;) {
      if (eat("<<"))
        V = bitop(V, parseSum(), '<');
      else if (eat(">>"))
        V = bitop(V, parseSum(), '>');
      else
        return V;
    }
  }
  T parseSum() {
    T V = parseProduct();
    for (;;) {
      if (eat("+"))
        V = V + parseProduct();
      else if (eat("-"))
        V = V - parseProduct();
      else
        return V;
    }
  }
  T parseProduct() {
    T V = parseUnary();
    for (;;) {
      if (eat("*")) {
        V = V * parseUnary();
      } else if (eat("/")) {
        T R = parseUnary();
        if (R == T(0)) {
          Ok = false;
          return V;
        }
        V = V / R;
      } else if (eat("%")) {
        T R = parseUnary();
        if (R == T(0)) {
          Ok = false;
          return V;
        }
        if constexpr (std::is_integral_v<T>)
          V = V % R;
        else
          V = std::fmod(V, R);
      } else {
        return V;
      }
    }
  }
  T parseUnary() {
    if (eat("-"))
      return -parseUnary();
    if (eat("(")) {
      T V = parseOr();
      if (!eat(")"))
        Ok = false;
      return V;
    }
    skip();
    if (Pos < S.size() && S[Pos] == 'i') {
      ++Pos;
      return I;
    }
    const char *Start = S.c_str() + Pos;
    char *End = nullptr;
    T V;
    if constexpr (std::is_integral_v<T>)
      V = static_cast<T>(std::strtoll(Start, &End, 0));
    else
      V = static_cast<T>(std::strtod(Start, &End));
    if (End == Start)
      Ok = false;
    Pos += static_cast<size_t>(End - Start);
    return V;
  }
  /// A bitwise operator or shift ('<', '>'); malformed for floating point.
  T bitop(T A, T B, char Op) {
    if constexpr (std::is_integral_v<T>) {
      switch (Op) {
      case '|':
        return A | B;
      case '^':
        return A ^ B;
      case '&':
        return A & B;
      case '<':
        return A << B;
      default:
        return A >> B;
      }
    } else {
      Ok = false;
      return A;
    }
  }

  const std::string &S; ///< The text.
  T I;                  ///< The value of i.
  size_t Pos = 0;       ///< The next character.
  bool Ok = true;       ///< False once anything was malformed.
};

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_EXPR_H
