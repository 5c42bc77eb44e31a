//===- Parser.cpp - PTX text to a ptx::Module -----------------------------===//

#include "Parser.h"
#include "Lexer.h"
#include "PtxError.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace cucpu::ptx {

namespace {

/// Deepest nesting of { } blocks and initializer braces accepted; deeper
/// text is refused rather than risking the stack.
constexpr unsigned MaxNesting = 64;
/// Most registers one %r<N> declaration may name.
constexpr uint64_t MaxRegisterRange = 1u << 20;

std::optional<Space> spaceOf(llvm::StringRef Directive) {
  return llvm::StringSwitch<std::optional<Space>>(Directive)
      .Case("reg", Space::Reg)
      .Case("sreg", Space::Sreg)
      .Case("const", Space::Const)
      .Case("global", Space::Global)
      .Case("local", Space::Local)
      .Case("param", Space::Param)
      .Case("shared", Space::Shared)
      .Case("tex", Space::Tex)
      .Default(std::nullopt);
}

bool isFundamentalType(llvm::StringRef T) {
  return llvm::StringSwitch<bool>(T)
      .Cases("s8", "s16", "s32", "s64", true)
      .Cases("u8", "u16", "u32", "u64", true)
      .Cases("b8", "b16", "b32", "b64", "b128", true)
      .Cases("f16", "f16x2", "bf16", "bf16x2", "f32", "f64", true)
      .Cases("e4m3", "e5m2", "e4m3x2", "e5m2x2", true)
      .Case("pred", true)
      .Cases("texref", "samplerref", "surfref", true)
      .Default(false);
}

class Parser {
public:
  explicit Parser(llvm::StringRef Text) : Lex(Text) { Tok = Lex.next(); }

  llvm::Expected<Module> run();

private:
  // Tokens.
  llvm::Error advance();
  const Token &peek() const { return Tok; }
  llvm::Error expect(char C, llvm::StringRef Context);
  llvm::Expected<std::string> expectName(llvm::StringRef Context);
  llvm::Expected<uint64_t> expectInteger(llvm::StringRef Context);
  llvm::Error error(const llvm::Twine &Message) const {
    return ptxError(Tok.Line, Message);
  }
  std::string spelling() const;

  // Module scope.
  llvm::Error directive(Module &M);
  llvm::Error version(Module &M);
  llvm::Error skipBraces();
  llvm::Error skipLine();
  llvm::Error function(Module &M, bool Visible, bool Extern, bool Weak);
  llvm::Error paramList(std::vector<Variable> &Out, bool AllowEmpty);
  llvm::Error performanceDirectives(Function &F);

  // Declarations.
  llvm::Error declaration(Space S, std::vector<Variable> &Out, bool IsParam);
  llvm::Error initializer(std::vector<Operand> &Out, unsigned Depth);
  llvm::Error initializerElement(std::vector<Operand> &Out);

  // Bodies.
  llvm::Error block(Block &B, unsigned Depth);
  llvm::Error statement(Block &B, unsigned Depth);
  llvm::Error instruction(Instruction &I);
  llvm::Error operand(Operand &Out, unsigned Depth);
  llvm::Error addressItem(Operand &Out, unsigned Depth);
  llvm::Error prototype(Statement &S);

  Lexer Lex;
  Token Tok;
};

llvm::Error Parser::advance() {
  Tok = Lex.next();
  if (Tok.K == Token::Kind::Invalid)
    return error(llvm::formatv("{0} ('{1}')", Lex.error(), Tok.Text));
  return llvm::Error::success();
}

std::string Parser::spelling() const {
  switch (Tok.K) {
  case Token::Kind::End:
    return "the end of the text";
  case Token::Kind::Dotted:
    return "'." + Tok.Text + "'";
  case Token::Kind::String:
    return "a string";
  default:
    return "'" + Tok.Text + "'";
  }
}

llvm::Error Parser::expect(char C, llvm::StringRef Context) {
  if (!Tok.is(C))
    return error(
        llvm::formatv("expected '{0}' {1}, found {2}", C, Context, spelling()));
  return advance();
}

llvm::Expected<std::string> Parser::expectName(llvm::StringRef Context) {
  if (Tok.K != Token::Kind::Name)
    return error(
        llvm::formatv("expected a name {0}, found {1}", Context, spelling()));
  std::string Name = Tok.Text;
  if (auto E = advance())
    return E;
  return Name;
}

llvm::Expected<uint64_t> Parser::expectInteger(llvm::StringRef Context) {
  if (Tok.K != Token::Kind::Integer)
    return error(llvm::formatv("expected an integer {0}, found {1}", Context,
                               spelling()));
  uint64_t V = Tok.Value;
  if (auto E = advance())
    return E;
  return V;
}

llvm::Expected<Module> Parser::run() {
  Module M;
  if (Tok.K == Token::Kind::Invalid)
    return error(llvm::formatv("{0} ('{1}')", Lex.error(), Tok.Text));
  while (Tok.K != Token::Kind::End)
    if (auto E = directive(M))
      return E;
  if (M.VersionMajor == 0)
    return ptxError(0, "the PTX text has no .version directive");
  if (M.Target.empty())
    return ptxError(0, "the PTX text has no .target directive");
  return M;
}

llvm::Error Parser::version(Module &M) {
  unsigned Line = Tok.Line;
  if (Tok.K != Token::Kind::Double)
    return error(llvm::formatv("expected a version such as 9.0 after "
                               ".version, found {0}",
                               spelling()));
  auto [Major, Minor] = llvm::StringRef(Tok.Text).split('.');
  if (Major.getAsInteger(10, M.VersionMajor) ||
      Minor.getAsInteger(10, M.VersionMinor) || Minor.size() != 1)
    return error(llvm::formatv("malformed version '{0}'", Tok.Text));
  unsigned V = M.VersionMajor * 10 + M.VersionMinor;
  if (V > NewestPtxVersion)
    return llvm::make_error<PtxError>(
        PtxErrorKind::UnsupportedVersion, Line,
        llvm::formatv("PTX ISA version {0}.{1} is newer than the newest this "
                      "driver reads ({2}.{3})",
                      M.VersionMajor, M.VersionMinor, NewestPtxVersion / 10,
                      NewestPtxVersion % 10)
            .str());
  return advance();
}

llvm::Error Parser::skipLine() {
  unsigned Line = Tok.Line;
  while (Tok.K != Token::Kind::End && Tok.Line == Line && !Tok.is(';'))
    if (auto E = advance())
      return E;
  if (Tok.is(';') && Tok.Line == Line)
    return advance();
  return llvm::Error::success();
}

llvm::Error Parser::skipBraces() {
  if (auto E = expect('{', "to open the section"))
    return E;
  unsigned Depth = 1;
  while (Depth > 0) {
    if (Tok.K == Token::Kind::End)
      return error("unterminated .section");
    if (Tok.is('{'))
      ++Depth;
    else if (Tok.is('}'))
      --Depth;
    if (auto E = advance())
      return E;
  }
  return llvm::Error::success();
}

llvm::Error Parser::directive(Module &M) {
  if (Tok.K != Token::Kind::Dotted)
    return error(llvm::formatv("expected a directive at module scope, found "
                               "{0}",
                               spelling()));
  std::string D = Tok.Text;
  unsigned Line = Tok.Line;
  if (auto E = advance())
    return E;
  if (D == "version")
    return version(M);
  if (D == "target") {
    auto Target = expectName("after .target");
    if (!Target)
      return Target.takeError();
    M.Target = *Target;
    while (Tok.is(',')) {
      if (auto E = advance())
        return E;
      auto Option = expectName("in the .target list");
      if (!Option)
        return Option.takeError();
      M.TargetOptions.push_back(*Option);
    }
    return llvm::Error::success();
  }
  if (D == "address_size") {
    auto Size = expectInteger("after .address_size");
    if (!Size)
      return Size.takeError();
    if (*Size != 64)
      return ptxError(Line, llvm::formatv(".address_size {0}: only 64-bit "
                                          "addresses are supported",
                                          *Size));
    M.AddressSize = 64;
    return llvm::Error::success();
  }
  if (D == "file" || D == "loc")
    return skipLine();
  if (D == "section") {
    if (Tok.K != Token::Kind::Dotted && Tok.K != Token::Kind::Name)
      return error("expected a section name after .section");
    if (auto E = advance())
      return E;
    return skipBraces();
  }
  if (D == "pragma") {
    if (Tok.K != Token::Kind::String)
      return error("expected a string after .pragma");
    if (auto E = advance())
      return E;
    return expect(';', "after .pragma");
  }
  bool Visible = false, Extern = false, Weak = false;
  for (;;) {
    if (D == "visible")
      Visible = true;
    else if (D == "extern")
      Extern = true;
    else if (D == "weak" || D == "common")
      Weak = true;
    else
      break;
    if (Tok.K != Token::Kind::Dotted)
      return error(llvm::formatv("expected a directive after .{0}, found {1}",
                                 D, spelling()));
    D = Tok.Text;
    if (auto E = advance())
      return E;
  }
  if (D == "entry" || D == "func") {
    Function F;
    F.IsEntry = D == "entry";
    F.Line = Line;
    M.Functions.push_back(std::move(F));
    M.Order.push_back({true, M.Functions.size() - 1});
    return function(M, Visible, Extern, Weak);
  }
  if (auto S = spaceOf(D); S && (*S == Space::Global || *S == Space::Const ||
                                 *S == Space::Shared || *S == Space::Tex)) {
    std::vector<Variable> Vars;
    if (auto E = declaration(*S, Vars, /*IsParam=*/false))
      return E;
    for (Variable &V : Vars) {
      V.Visible = Visible;
      V.Extern = Extern;
      V.Weak = Weak;
      V.Line = Line;
      M.Globals.push_back(std::move(V));
      M.Order.push_back({false, M.Globals.size() - 1});
    }
    return expect(';', "after the variable declaration");
  }
  return ptxError(Line, llvm::formatv("the directive .{0} is not supported at "
                                      "module scope",
                                      D));
}

llvm::Error Parser::function(Module &M, bool Visible, bool Extern, bool Weak) {
  Function &F = M.Functions.back();
  F.Visible = Visible;
  F.Extern = Extern;
  F.Weak = Weak;
  if (!F.IsEntry && Tok.is('('))
    if (auto E = paramList(F.Returns, /*AllowEmpty=*/true))
      return E;
  auto Name = expectName(F.IsEntry ? "after .entry" : "after .func");
  if (!Name)
    return Name.takeError();
  F.Name = *Name;
  if (Tok.is('('))
    if (auto E = paramList(F.Params, /*AllowEmpty=*/true))
      return E;
  if (auto E = performanceDirectives(F))
    return E;
  if (Tok.is(';'))
    return advance();
  if (!Tok.is('{'))
    return error(llvm::formatv("expected '{{' or ';' after the signature of "
                               "{0}, found {1}",
                               F.Name, spelling()));
  F.Body = std::make_shared<Block>();
  if (auto E = advance())
    return E;
  return block(*F.Body, 1);
}

llvm::Error Parser::paramList(std::vector<Variable> &Out, bool AllowEmpty) {
  if (auto E = expect('(', "to open the parameter list"))
    return E;
  if (Tok.is(')'))
    return AllowEmpty ? advance() : error("empty parameter list");
  for (;;) {
    if (!Tok.isDotted("param") && !Tok.isDotted("reg"))
      return error(llvm::formatv("expected .param in the parameter list, "
                                 "found {0}",
                                 spelling()));
    Space S = Tok.isDotted("param") ? Space::Param : Space::Reg;
    unsigned Line = Tok.Line;
    if (auto E = advance())
      return E;
    std::vector<Variable> Vars;
    if (auto E = declaration(S, Vars, /*IsParam=*/true))
      return E;
    for (Variable &V : Vars) {
      V.Line = Line;
      Out.push_back(std::move(V));
    }
    if (Tok.is(')'))
      return advance();
    if (auto E = expect(',', "between parameters"))
      return E;
  }
}

llvm::Error Parser::performanceDirectives(Function &F) {
  while (Tok.K == Token::Kind::Dotted) {
    std::string D = Tok.Text;
    if (auto E = advance())
      return E;
    if (D == "noreturn") {
      F.NoReturn = true;
      continue;
    }
    if (D == "pragma") {
      if (Tok.K != Token::Kind::String)
        return error("expected a string after .pragma");
      if (auto E = advance())
        return E;
      if (auto E = expect(';', "after .pragma"))
        return E;
      continue;
    }
    std::vector<unsigned> Values;
    for (;;) {
      auto V = expectInteger(llvm::formatv("after .{0}", D).str());
      if (!V)
        return V.takeError();
      Values.push_back(static_cast<unsigned>(std::min<uint64_t>(*V, ~0u)));
      if (!Tok.is(','))
        break;
      if (auto E = advance())
        return E;
    }
    if (D == "maxntid" || D == "reqntid") {
      if (Values.size() > 3)
        return error(llvm::formatv(".{0} takes at most 3 values", D));
      unsigned *Dims = D == "maxntid" ? F.MaxNTid : F.ReqNTid;
      for (unsigned I = 0; I < 3; ++I)
        Dims[I] = I < Values.size() ? Values[I] : 1;
    } else if (D == "minnctapersm") {
      F.MinNCtaPerSm = Values[0];
    } else if (D == "maxnreg") {
      F.MaxNReg = Values[0];
    } else if (D != "maxnctapersm" && D != "reqnctapercluster" &&
               D != "maxclusterrank" && D != "explicitcluster") {
      return error(llvm::formatv("the directive .{0} is not supported after "
                                 "a function signature",
                                 D));
    }
  }
  return llvm::Error::success();
}

llvm::Error Parser::declaration(Space S, std::vector<Variable> &Out,
                                bool IsParam) {
  Variable Proto;
  Proto.StateSpace = S;
  // Attributes in any order: .align N, .vN, .ptr .space .align N, the type.
  while (Tok.K == Token::Kind::Dotted) {
    std::string A = Tok.Text;
    if (auto E = advance())
      return E;
    if (A == "align") {
      auto N = expectInteger("after .align");
      if (!N)
        return N.takeError();
      if (*N == 0 || (*N & (*N - 1)) || *N > 4096)
        return error(llvm::formatv(".align {0} is not a power of two up to "
                                   "4096",
                                   *N));
      Proto.Align = static_cast<unsigned>(*N);
    } else if (A == "v2" || A == "v4" || A == "v8") {
      Proto.VectorWidth = A[1] - '0';
    } else if (A == "ptr") {
      if (!IsParam)
        return error(".ptr is only allowed on parameters");
    } else if (auto Pointee = spaceOf(A); Pointee && IsParam) {
      Proto.PointsTo = *Pointee;
    } else if (isFundamentalType(A)) {
      Proto.Type = A;
    } else {
      return error(llvm::formatv("unexpected .{0} in a declaration", A));
    }
  }
  if (Proto.Type.empty())
    return error(llvm::formatv("expected a type in the declaration, found {0}",
                               spelling()));
  for (;;) {
    Variable V = Proto;
    auto Name = expectName("in the declaration");
    if (!Name)
      return Name.takeError();
    V.Name = *Name;
    if (Tok.is('<') && !Tok.SpaceBefore) {
      if (auto E = advance())
        return E;
      auto N = expectInteger("in the register range");
      if (!N)
        return N.takeError();
      if (*N == 0 || *N > MaxRegisterRange)
        return error(llvm::formatv("register range <{0}> is not between 1 "
                                   "and {1}",
                                   *N, MaxRegisterRange));
      V.RangeCount = static_cast<unsigned>(*N);
      if (auto E = expect('>', "to close the register range"))
        return E;
    }
    while (Tok.is('[')) {
      V.IsArray = true;
      if (auto E = advance())
        return E;
      uint64_t Dim = 0;
      if (!Tok.is(']')) {
        auto N = expectInteger("as an array dimension");
        if (!N)
          return N.takeError();
        Dim = *N;
      }
      V.Dims.push_back(Dim);
      if (auto E = expect(']', "to close the array dimension"))
        return E;
    }
    if (Tok.is('=')) {
      if (auto E = advance())
        return E;
      if (auto E = initializer(V.Init, 0))
        return E;
    }
    Out.push_back(std::move(V));
    if (IsParam || !Tok.is(','))
      return llvm::Error::success();
    if (auto E = advance())
      return E;
  }
}

llvm::Error Parser::initializer(std::vector<Operand> &Out, unsigned Depth) {
  if (Depth > MaxNesting)
    return error("initializer nested too deeply");
  if (!Tok.is('{'))
    return initializerElement(Out);
  if (auto E = advance())
    return E;
  if (Tok.is('}'))
    return advance();
  for (;;) {
    if (auto E = initializer(Out, Depth + 1))
      return E;
    if (Tok.is('}'))
      return advance();
    if (auto E = expect(',', "between initializer elements"))
      return E;
  }
}

llvm::Error Parser::initializerElement(std::vector<Operand> &Out) {
  Operand Op;
  bool Negative = false;
  if (Tok.is('-')) {
    Negative = true;
    if (auto E = advance())
      return E;
  }
  switch (Tok.K) {
  case Token::Kind::Integer:
    Op.K = Operand::Kind::Integer;
    Op.Value = Negative ? 0 - Tok.Value : Tok.Value;
    break;
  case Token::Kind::Float:
    Op.K = Operand::Kind::Float;
    Op.Value = Tok.Value ^ (Negative ? 0x80000000u : 0);
    break;
  case Token::Kind::Double:
    Op.K = Operand::Kind::Double;
    Op.Value = Tok.Value ^ (Negative ? 0x8000000000000000ull : 0);
    break;
  case Token::Kind::Name: {
    // sym, sym+N, generic(sym), generic(sym)+N.
    Op.K = Operand::Kind::Register;
    if (Negative)
      return error("a symbol in an initializer cannot be negated");
    if (Tok.Text == "generic" || Tok.Text == "mask") {
      bool IsMask = Tok.Text == "mask";
      if (IsMask)
        return error("mask() initializers are not supported");
      if (auto E = advance())
        return E;
      if (auto E = expect('(', "after generic"))
        return E;
      auto Name = expectName("in generic()");
      if (!Name)
        return Name.takeError();
      Op.Name = *Name;
      if (auto E = expect(')', "to close generic()"))
        return E;
    } else {
      Op.Name = Tok.Text;
      if (auto E = advance())
        return E;
    }
    if (Tok.is('+') || Tok.is('-')) {
      bool Minus = Tok.is('-');
      if (auto E = advance())
        return E;
      auto N = expectInteger("as the offset of the symbol");
      if (!N)
        return N.takeError();
      Op.Value = Minus ? 0 - *N : *N;
    }
    Out.push_back(std::move(Op));
    return llvm::Error::success();
  }
  default:
    return error(
        llvm::formatv("expected an initializer value, found {0}", spelling()));
  }
  Out.push_back(std::move(Op));
  return advance();
}

llvm::Error Parser::block(Block &B, unsigned Depth) {
  if (Depth > MaxNesting)
    return error("blocks nested too deeply");
  while (!Tok.is('}')) {
    if (Tok.K == Token::Kind::End)
      return error("unterminated function body: expected '}'");
    if (auto E = statement(B, Depth))
      return E;
  }
  return advance();
}

llvm::Error Parser::statement(Block &B, unsigned Depth) {
  Statement S;
  S.Line = Tok.Line;
  if (Tok.is('{')) {
    if (auto E = advance())
      return E;
    S.K = Statement::Kind::Block;
    S.Body = std::make_shared<Block>();
    if (auto E = block(*S.Body, Depth + 1))
      return E;
    B.Statements.push_back(std::move(S));
    return llvm::Error::success();
  }
  if (Tok.K == Token::Kind::Dotted) {
    std::string D = Tok.Text;
    if (D == "loc" || D == "file")
      return skipLine();
    if (auto E = advance())
      return E;
    if (D == "pragma") {
      if (Tok.K != Token::Kind::String)
        return error("expected a string after .pragma");
      S.K = Statement::Kind::Pragma;
      S.Pragma = Tok.Text;
      if (auto E = advance())
        return E;
      B.Statements.push_back(std::move(S));
      return expect(';', "after .pragma");
    }
    auto Sp = spaceOf(D);
    if (!Sp)
      return ptxError(S.Line, llvm::formatv("the directive .{0} is not "
                                            "supported in a function body",
                                            D));
    std::vector<Variable> Vars;
    if (auto E = declaration(*Sp, Vars, /*IsParam=*/false))
      return E;
    for (Variable &V : Vars) {
      Statement Decl;
      Decl.K = Statement::Kind::Declaration;
      Decl.Line = S.Line;
      V.Line = S.Line;
      Decl.Decl = std::move(V);
      B.Statements.push_back(std::move(Decl));
    }
    return expect(';', "after the declaration");
  }
  if (Tok.K == Token::Kind::Name) {
    // A label, or a call prototype: name: .callprototype ...
    Token Name = Tok;
    Lexer Saved = Lex;
    if (auto E = advance())
      return E;
    if (Tok.is(':')) {
      if (auto E = advance())
        return E;
      S.Label = Name.Text;
      if (Tok.isDotted("callprototype")) {
        S.K = Statement::Kind::Prototype;
        if (auto E = prototype(S))
          return E;
      } else {
        S.K = Statement::Kind::Label;
      }
      B.Statements.push_back(std::move(S));
      return llvm::Error::success();
    }
    Lex = Saved;
    Tok = Name;
  }
  S.K = Statement::Kind::Instruction;
  if (auto E = instruction(S.Instr))
    return E;
  B.Statements.push_back(std::move(S));
  return llvm::Error::success();
}

llvm::Error Parser::prototype(Statement &S) {
  if (auto E = advance()) // .callprototype
    return E;
  // .callprototype (.param .b32 _) _ (.param .b64 _, ...);
  if (Tok.is('('))
    if (auto E = paramList(S.Returns, /*AllowEmpty=*/true))
      return E;
  if (Tok.K != Token::Kind::Name || Tok.Text != "_")
    return error(llvm::formatv("expected '_' in the call prototype, found {0}",
                               spelling()));
  if (auto E = advance())
    return E;
  if (Tok.is('('))
    if (auto E = paramList(S.Params, /*AllowEmpty=*/true))
      return E;
  while (Tok.K == Token::Kind::Dotted) // .noreturn
    if (auto E = advance())
      return E;
  return expect(';', "after the call prototype");
}

llvm::Error Parser::instruction(Instruction &I) {
  I.Line = Tok.Line;
  if (Tok.is('@')) {
    if (auto E = advance())
      return E;
    if (Tok.is('!')) {
      I.GuardNegated = true;
      if (auto E = advance())
        return E;
    }
    auto Guard = expectName("as the guard predicate");
    if (!Guard)
      return Guard.takeError();
    I.Guard = *Guard;
  }
  if (Tok.K != Token::Kind::Name)
    return error(
        llvm::formatv("expected an instruction, found {0}", spelling()));
  I.Line = Tok.Line;
  I.Opcode = Tok.Text;
  if (auto E = advance())
    return E;
  while (Tok.K == Token::Kind::Dotted && !Tok.SpaceBefore) {
    // A CTA's own shared memory is the .shared window.
    I.Modifiers.push_back(Tok.Text == "shared::cta" ? "shared" : Tok.Text);
    if (auto E = advance())
      return E;
  }
  if (Tok.is(';'))
    return advance();
  for (;;) {
    Operand Op;
    if (auto E = operand(Op, 0))
      return E;
    I.Operands.push_back(std::move(Op));
    if (Tok.is(';'))
      return advance();
    if (!Tok.is(','))
      return error(llvm::formatv("expected ',' or ';' after an operand of "
                                 "'{0}', found {1}",
                                 I.Opcode, spelling()));
    if (auto E = advance())
      return E;
  }
}

llvm::Error Parser::operand(Operand &Out, unsigned Depth) {
  if (Depth > MaxNesting)
    return error("operand nested too deeply");
  if (Tok.is('!')) {
    if (auto E = advance())
      return E;
    if (auto E = operand(Out, Depth + 1))
      return E;
    if (Out.K != Operand::Kind::Register)
      return error("'!' applies to a predicate register");
    Out.Negated = !Out.Negated;
    return llvm::Error::success();
  }
  if (Tok.is('-')) {
    if (auto E = advance())
      return E;
    if (Tok.K == Token::Kind::Integer) {
      Out.K = Operand::Kind::Integer;
      Out.Value = 0 - Tok.Value;
    } else if (Tok.K == Token::Kind::Float) {
      Out.K = Operand::Kind::Float;
      Out.Value = Tok.Value ^ 0x80000000u;
    } else if (Tok.K == Token::Kind::Double) {
      Out.K = Operand::Kind::Double;
      Out.Value = Tok.Value ^ 0x8000000000000000ull;
    } else {
      return error(
          llvm::formatv("expected a number after '-', found {0}", spelling()));
    }
    return advance();
  }
  switch (Tok.K) {
  case Token::Kind::Integer:
    Out.K = Operand::Kind::Integer;
    Out.Value = Tok.Value;
    return advance();
  case Token::Kind::Float:
    Out.K = Operand::Kind::Float;
    Out.Value = Tok.Value;
    return advance();
  case Token::Kind::Double:
    Out.K = Operand::Kind::Double;
    Out.Value = Tok.Value;
    return advance();
  case Token::Kind::Name: {
    Out.K = Tok.Text == "_" ? Operand::Kind::Sink : Operand::Kind::Register;
    Out.Name = Tok.Text;
    if (auto E = advance())
      return E;
    // %tid.x, %r.y: a component selector.
    if (Tok.K == Token::Kind::Dotted && !Tok.SpaceBefore) {
      Out.Name += "." + Tok.Text;
      if (auto E = advance())
        return E;
    }
    if (Tok.is('+') && Out.K == Operand::Kind::Register) {
      // sym+N as an immediate address.
      if (auto E = advance())
        return E;
      auto N = expectInteger("as the offset of the symbol");
      if (!N)
        return N.takeError();
      Out.Value = *N;
    }
    if (Tok.is('|')) {
      Operand First = std::move(Out);
      if (auto E = advance())
        return E;
      Operand Second;
      if (auto E = operand(Second, Depth + 1))
        return E;
      Out = Operand();
      Out.K = Operand::Kind::Pair;
      Out.Elements.push_back(std::move(First));
      Out.Elements.push_back(std::move(Second));
    }
    return llvm::Error::success();
  }
  default:
    break;
  }
  if (Tok.is('{') || Tok.is('(')) {
    bool IsVector = Tok.is('{');
    char Close = IsVector ? '}' : ')';
    Out.K = IsVector ? Operand::Kind::Vector : Operand::Kind::List;
    if (auto E = advance())
      return E;
    if (Tok.is(Close))
      return advance();
    for (;;) {
      Operand Element;
      if (auto E = operand(Element, Depth + 1))
        return E;
      Out.Elements.push_back(std::move(Element));
      if (Tok.is(Close))
        break;
      if (auto E = expect(',', "between vector or list elements"))
        return E;
    }
    if (auto E = advance())
      return E;
    // {d0, d1, d2, d3}|p: a vector and a predicate (sparse texture fetches).
    if (IsVector && Tok.is('|')) {
      Operand First = std::move(Out);
      if (auto E = advance())
        return E;
      Operand Second;
      if (auto E = operand(Second, Depth + 1))
        return E;
      Out = Operand();
      Out.K = Operand::Kind::Pair;
      Out.Elements.push_back(std::move(First));
      Out.Elements.push_back(std::move(Second));
    }
    return llvm::Error::success();
  }
  if (Tok.is('[')) {
    Out.K = Operand::Kind::Address;
    if (auto E = advance())
      return E;
    if (auto E = addressItem(Out, Depth))
      return E;
    while (Tok.is(',')) {
      if (auto E = advance())
        return E;
      Operand Element;
      if (auto E = operand(Element, Depth + 1))
        return E;
      Out.Elements.push_back(std::move(Element));
    }
    return expect(']', "to close the address");
  }
  return error(llvm::formatv("expected an operand, found {0}", spelling()));
}

llvm::Error Parser::addressItem(Operand &Out, unsigned Depth) {
  // [reg], [reg+N], [reg+-N], [sym], [sym+N], [N], or a texture's first
  // element.
  if (Tok.K == Token::Kind::Integer) {
    Out.Value = Tok.Value;
    return advance();
  }
  if (Tok.K != Token::Kind::Name)
    return error(llvm::formatv("expected a register, symbol or integer in the "
                               "address, found {0}",
                               spelling()));
  Operand Base;
  Base.K = Operand::Kind::Register;
  Base.Name = Tok.Text;
  if (auto E = advance())
    return E;
  Out.Elements.push_back(std::move(Base));
  if (Tok.is('+') || Tok.is('-')) {
    bool Minus = Tok.is('-');
    if (auto E = advance())
      return E;
    if (Tok.is('-')) {
      Minus = !Minus;
      if (auto E = advance())
        return E;
    }
    auto N = expectInteger("as the address offset");
    if (!N)
      return N.takeError();
    Out.Value = Minus ? 0 - *N : *N;
  }
  (void)Depth;
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Module> parse(llvm::StringRef Text) {
  Parser P(Text);
  return P.run();
}

} // namespace cucpu::ptx
