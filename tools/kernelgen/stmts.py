"""Straight-line statements: assignments, shared memory, atomics, barriers,
warp operations and early exits."""

from exprs import Exprs, THREAD_VARS, UNIFORM_VARS
from shapes import ACC_OPS, NACC

FULL = "0xffffffffu"
DIGEST = ("(int)(a ^ (b * 0x9e3779b1u) ^ ((c << 7) | (c >> 25)) ^ "
          "(d * 0x85ebca77u) ^ (u0 + 3u * u1 + 5u * u2))")


class Statements:
    """Emits one statement at a time into self.lines."""

    def __init__(self, rng, shape, warp, volatile_warp_sync):
        """A generator for a kernel launched with `shape`; `warp` allows
        warp operations (the block must be whole warps)."""
        self.rng = rng
        self.shape = shape
        self.nt = shape.threads
        self.warp = warp and self.nt % 32 == 0
        self.volatile = volatile_warp_sync and self.nt % 32 == 0 \
            and self.nt >= 64
        self.ex = Exprs(rng)
        self.lines = []
        self.ind = 1
        self.maybe_returned = False
        self.next_id = 0
        self.features = set()

    def emit(self, text):
        """Append one line at the current indentation."""
        self.lines.append("  " * self.ind + text)

    def fresh(self, prefix):
        """A new variable name."""
        self.next_id += 1
        return f"{prefix}{self.next_id}"

    def warp_ok(self, ctx):
        """Whether a full-mask warp operation is valid here."""
        return self.warp and ctx.converged and not self.maybe_returned

    def assign(self, ctx, st):
        """Update a thread variable."""
        v = self.rng.choice(THREAD_VARS)
        op = self.rng.choice(["=", "+=", "^=", "-=", "*=", "|="])
        depth = self.rng.choice([1, 2, 2, 3])
        self.emit(f"{v} {op} {self.ex.expr(ctx, False, depth)};")

    def uniform_assign(self, ctx, st):
        """Update a block-uniform variable (in block-uniform code only),
        possibly from one shared slot that every thread reads."""
        r = self.rng
        v = r.choice(UNIFORM_VARS)
        pick = r.random()
        if pick < 0.3 and st.allows("R"):
            st.access("R")
            idx = self.ex.expr(ctx, True, 1)
            self.emit(f"{v} += (unsigned)sh[({idx}) % nt];")
        elif pick < 0.45 and st.allows("AR"):
            st.access("AR")
            self.emit(f"{v} ^= (unsigned)acc[{r.randrange(NACC)}];")
        else:
            self.emit(f"{v} = {self.ex.expr(ctx, True, 2)};")

    def float_update(self, ctx, st):
        """Update f0 (integer-valued, < 2^20) or f1 (in [1, 4096], products
        only by powers of two) so that every result is exact or rounded the
        same way with or without contraction into fma."""
        r = self.rng
        e = self.ex.expr(ctx, False, 2)
        form = r.randrange(5)
        if form == 0:
            k = r.randint(1, 3)
            self.emit(f"f0 = (float)((unsigned)(f0 * {k}.0f + "
                      f"(float)(({e}) & 255u)) & 0xfffffu);")
        elif form == 1:
            fn = r.choice(["fmaxf", "fminf"])
            self.emit(f"f0 = {fn}(f0, (float)(({e}) & 1023u));")
        elif form == 2:
            m = r.choice(["0.5f", "0.25f"])
            self.emit(f"f1 = f1 * {m} + (float)(({e}) & 7u) + 1.0f;")
        elif form == 3:
            self.emit("f1 = fminf(f1 + f0 * 0.0625f, 4096.0f);")
        else:
            self.emit(f"{r.choice(THREAD_VARS)} += (unsigned)(f1 * 16.0f) "
                      f"+ (unsigned)f0;")

    def shared_write(self, ctx, st):
        """Write the thread's own slot of sh."""
        st.access("W")
        op = self.rng.choice(["=", "+=", "^="])
        value = self.ex.expr(ctx, False, 2)
        if op == "+=":
            # In unsigned arithmetic: a signed sum that overflows is
            # undefined behaviour, which engines may resolve differently.
            self.emit(f"sh[tid] = (int)((unsigned)sh[tid] + ({value}));")
        else:
            self.emit(f"sh[tid] {op} (int)({value});")

    def shared_read(self, ctx, st):
        """Read any slot of sh (no thread writes sh in this interval)."""
        st.access("R")
        r = self.rng
        k = r.randint(1, 40)
        idx = r.choice([f"({self.ex.expr(ctx, False, 2)}) % nt",
                        f"(tid + {k}u) % nt", "nt - 1u - tid",
                        f"(tid ^ {k}u) % nt",
                        f"(tid + nt - {k % 3 + 1}u) % nt"])
        v = r.choice(THREAD_VARS)
        self.emit(f"{v} {r.choice(['+=', '^='])} (unsigned)sh[{idx}];")
        self.features.add("shared")

    def acc_atomic(self, ctx, st):
        """An integer atomic on the shared array acc; its result unused."""
        st.access("A")
        e = self.ex.expr(ctx, False, 2)
        self.emit(self._atomic(ctx, "acc", "", e))
        self.features.add("atomic")

    def acc_read(self, ctx, st):
        """Read acc (no atomics on it in this interval)."""
        st.access("AR")
        e = self.ex.expr(ctx, False, 1)
        self.emit(f"{self.rng.choice(THREAD_VARS)} ^= "
                  f"(unsigned)acc[({e}) % {NACC}u];")

    def global_atomic(self, ctx, st):
        """An integer atomic on one of the global counters of out."""
        e = self.ex.expr(ctx, False, 2)
        self.emit(self._atomic(ctx, "out", "gab + ", e))
        self.features.add("atomic")

    def _atomic(self, ctx, array, base, value):
        """An atomic on a slot of `array`, with that slot's operation."""
        r = self.rng
        if r.random() < 0.3:
            # Slots 0 and 1 both take atomicAdd: the index may vary.
            idx = f"(({self.ex.expr(ctx, False, 1)}) & 1u)"
            return f"atomicAdd(&{array}[{base}{idx}], (int)({value}));"
        k = r.randrange(NACC)
        return f"{ACC_OPS[k]}(&{array}[{base}{k}u], (int)({value}));"

    def barrier(self, ctx, st):
        """__syncthreads() (block-uniform code only)."""
        self.emit("__syncthreads();")
        st.barrier()
        self.features.add("barrier")

    def sync_count(self, ctx, st):
        """__syncthreads_count/_and/_or: a barrier with a uniform result."""
        fn = self.rng.choice(["__syncthreads_count", "__syncthreads_and",
                              "__syncthreads_or"])
        v = self.rng.choice(UNIFORM_VARS)
        self.emit(f"{v} += (unsigned){fn}({self.ex.cond(ctx, False)});")
        st.barrier()
        self.features.add("barrier")

    def early_return(self, ctx, st):
        """Some threads (or whole blocks) leave, maybe saving a digest."""
        r = self.rng
        cond = self.ex.cond(ctx, r.random() < 0.2)
        if r.random() < 0.5:
            self.emit(f"if ({cond}) {{")
            self.emit(f"  out[gid] = {DIGEST};")
            self.emit("  return;")
            self.emit("}")
        else:
            self.emit(f"if ({cond}) return;")
        self.maybe_returned = True
        self.features.add("return")

    def break_continue(self, ctx, st):
        """Leave or skip an iteration of the innermost loop, respecting the
        loop's kind ('U' loops only break, and only uniformly)."""
        loop = ctx.loops[-1]
        if loop.kind == "U":
            if not ctx.uniform:
                return self.assign(ctx, st)
            self.emit(f"if ({self.ex.cond(ctx, True)}) break;")
            loop.break_modes |= st.mode
            return None
        word = self.rng.choice(["break", "break", "continue"])
        self.emit(f"if ({self.ex.cond(ctx, False)}) {word};")
        self.features.add("divergent-" + word)
        return None

    def warp_op(self, ctx, st):
        """A shuffle, vote or match with the full mask in converged code."""
        r = self.rng
        e = self.ex.expr(ctx, False, 2)
        v = r.choice(THREAD_VARS)
        w = r.choice(["", "", f", {r.choice([4, 8, 16, 32])}"])
        form = r.randrange(11)
        self.features.add("warp")
        if form == 0:
            self.emit(f"{v} = __shfl_sync({FULL}, {v}, {e}{w});")
        elif form == 1:
            d = r.choice([f"{r.randint(0, 31)}u", "(u0 & 31u)"])
            fn = r.choice(["__shfl_down_sync", "__shfl_up_sync"])
            self.emit(f"{v} += {fn}({FULL}, {e}, {d}{w});")
        elif form == 2:
            self.emit(f"{v} ^= __shfl_xor_sync({FULL}, {v}, "
                      f"{r.randint(1, 31)}u{w});")
        elif form == 3:
            self.emit(f"{v} ^= __ballot_sync({FULL}, "
                      f"{self.ex.cond(ctx, False)});")
        elif form == 4:
            fn = r.choice(["__any_sync", "__all_sync"])
            self.emit(f"{v} += (unsigned){fn}({FULL}, "
                      f"{self.ex.cond(ctx, False)}) * {r.randint(1, 9)}u;")
        elif form == 5:
            self.emit(f"f1 = __shfl_xor_sync({FULL}, f1, "
                      f"{r.randint(1, 31)}u);")
        elif form == 6:
            fn = r.choice(["__shfl_down_sync", "__shfl_xor_sync"])
            self.emit("for (unsigned o = 16u; o > 0u; o >>= 1)")
            self.emit(f"  {v} += {fn}({FULL}, {v}, o);")
        elif form == 7:
            self.emit("__syncwarp();")
        elif form == 8:
            self.emit(f"{v} ^= __match_any_sync({FULL}, ({e}) & 3u);")
        elif form == 9:
            self.emit(f"{v} += __shfl_sync({FULL}, {e}, "
                      f"{r.randint(0, 31)}u);")
        else:
            self.emit(f"{v} += __shfl_down_sync({FULL}, {v}, "
                      f"(tid * 7u + {v}) & 31u);")

    def volatile_reduce(self, ctx, st):
        """The classic warp-synchronous tree reduction through volatile
        shared memory, without __syncwarp (--volatile-warp-sync only)."""
        self.emit("__syncthreads();")
        self.emit("if (tid < 32u) {")
        self.emit("  volatile int *vs = sh;")
        for off in (32, 16, 8, 4, 2, 1):
            self.emit(f"  vs[tid] += vs[tid + {off}u];")
        self.emit("}")
        self.emit("__syncthreads();")
        st.barrier()
        self.features.add("volatile-warp-sync")
