"""Random unsigned expressions and conditions, block-uniform or per thread.

Every expression is of type unsigned and free of undefined behaviour:
shift counts are masked to < 32, divisors are forced odd (so never zero),
array indices are reduced modulo the array's length.
"""

THREAD_VARS = ["a", "b", "c", "d"]
UNIFORM_VARS = ["u0", "u1", "u2"]
# Values that differ between threads, besides the variables.
THREAD_LEAVES = ["tid", "threadIdx.x", "threadIdx.y", "threadIdx.z", "gid",
                 "(tid & 31u)", "(unsigned)sh[tid]", "(unsigned)f0",
                 "(unsigned)(f1 * 16.0f)"]
# Values the same for every thread of a block.
UNIFORM_LEAVES = ["bid", "blockIdx.x", "blockIdx.y", "gridDim.x", "nt",
                  "blockDim.x", "blockDim.y", "n"]


class Exprs:
    """Builds expressions from a random generator."""

    def __init__(self, rng):
        """Use rng (a random.Random) for every choice."""
        self.rng = rng

    def const(self):
        """An unsigned literal: small or any 32-bit value."""
        r = self.rng
        if r.random() < 0.6:
            return f"{r.randint(0, 20)}u"
        return f"0x{r.getrandbits(32):08x}u"

    def leaf(self, ctx, uniform, loads=True):
        """A variable, built-in value, constant or load of `in`."""
        r = self.rng
        pick = r.random()
        if pick < 0.15:
            return self.const()
        if pick < 0.25 and loads:
            x = self.leaf(ctx, uniform, False)
            y = self.leaf(ctx, uniform, False)
            return f"(unsigned)in[({x} {r.choice(['+', '^', '*'])} {y}) % n]"
        names = UNIFORM_VARS + UNIFORM_LEAVES + list(ctx.uvars)
        if not uniform:
            names = names + THREAD_VARS * 3 + THREAD_LEAVES + list(ctx.tvars)
        return r.choice(names)

    def expr(self, ctx, uniform, depth=2):
        """An unsigned expression; uniform ones use only block values."""
        r = self.rng
        if depth <= 0 or r.random() < 0.3:
            return self.leaf(ctx, uniform)
        x = self.expr(ctx, uniform, depth - 1)
        y = self.expr(ctx, uniform, depth - 1)
        form = r.randrange(14)
        if form < 6:
            op = r.choice(["+", "-", "*", "^", "|", "&"])
            return f"({x} {op} {y})"
        if form == 6:
            return f"({x} << ({y} & 31u))"
        if form == 7:
            return f"({x} >> ({y} & 31u))"
        if form == 8:
            return f"({x} {r.choice(['/', '%'])} ({y} | 1u))"
        if form == 9:
            return f"({self.cond(ctx, uniform, depth - 1)} ? {x} : {y})"
        if form == 10:
            return f"{r.choice(['min', 'max'])}({x}, {y})"
        if form == 11:
            return r.choice([f"(unsigned)__popc({x})",
                             f"(unsigned)__clz((int)({x}))",
                             f"__brev({x})", f"__umulhi({x}, {y})"])
        if form == 12:
            return f"(unsigned)({x} {r.choice(['<', '>=', '==', '!='])} {y})"
        return f"({x} * {self.const()} + {y})"

    def cond(self, ctx, uniform, depth=1):
        """A condition (an int-valued C expression)."""
        r = self.rng
        x = self.expr(ctx, uniform, depth)
        form = r.randrange(9)
        if form == 0:
            return f"(({x}) & 1u)"
        if form == 1:
            k = r.randint(2, 7)
            return f"(({x}) % {k}u == {r.randrange(k)}u)"
        if form == 2:
            return f"({x} < {self.expr(ctx, uniform, depth)})"
        if form == 3:
            return f"({x} > {self.const()})"
        if form == 4 and depth > 0:
            a = self.cond(ctx, uniform, depth - 1)
            b = self.cond(ctx, uniform, depth - 1)
            return f"({a} {r.choice(['&&', '||'])} {b})"
        if form == 5 and not uniform:
            return r.choice([f"(tid < {r.randint(0, 70)}u)",
                             f"(threadIdx.x % {r.randint(2, 5)}u == 0u)",
                             f"((tid & 31u) >= {r.randint(1, 31)}u)",
                             f"(f0 > {r.randint(0, 400)}.0f)",
                             f"(f1 < {r.randint(1, 12)}.5f)"])
        if form == 6 and uniform:
            return r.choice(["(blockIdx.x & 1u)",
                             f"(bid % 3u == {r.randrange(3)}u)",
                             f"(n > {r.choice([64, 99, 100, 500])}u)"])
        if form == 7:
            return f"!({self.cond(ctx, uniform, 0)})"
        return f"({x} != {self.const()})"

    def warp_cond(self, ctx):
        """A condition the same for all lanes of a warp (not of a block)."""
        r = self.rng
        w = r.choice(["(tid >> 5)", "((tid >> 5) + bid)",
                      "((tid >> 5) * 3u + u0)"])
        k = r.randint(2, 4)
        return f"({w} % {k}u {r.choice(['==', '!='])} {r.randrange(k)}u)"

    def trip(self, ctx, uniform, most):
        """A loop bound whose value is at most `most`."""
        r = self.rng
        if r.random() < 0.3:
            return f"{r.randint(0, most)}u"
        if uniform or r.random() < 0.3:
            x = self.expr(ctx, True, 1)
        else:
            x = r.choice(["tid", "a", "b", "(unsigned)in[gid % n]",
                          self.expr(ctx, False, 1)])
        return f"(({x}) % {most + 1}u)"
