"""Structured control flow: if/else and loops, block-uniform or divergent,
and the choice of the next statement."""

from state import Collector, Interval, Loop, conflicting
from stmts import Statements

# At most this many iterations of the innermost body per thread.
WORK_MAX = 160


class Generator(Statements):
    """Statements plus the control flow that nests them."""

    def statement(self, ctx, st):
        """Emit one statement that is valid at this point."""
        r = self.rng
        room = self.budget - len(self.lines)
        opts = [(6, self.assign), (2, self.float_update),
                (1, self.global_atomic)]
        if st.allows("W"):
            opts.append((3, self.shared_write))
        if st.allows("R"):
            opts.append((3, self.shared_read))
        if st.allows("A"):
            opts.append((2, self.acc_atomic))
        if st.allows("AR"):
            opts.append((1, self.acc_read))
        if ctx.uniform:
            opts += [(3, self.barrier), (1, self.sync_count),
                     (2, self.uniform_assign)]
        if ctx.depth < 3 and room > 4:
            opts += [(3, self.if_stmt), (4, self.loop)]
            if ctx.uniform:
                opts.append((2, self.break_then_sync))
        if ctx.returns_ok:
            opts.append((1, self.early_return))
        if ctx.loops:
            opts.append((3, self.break_continue))
        if self.warp_ok(ctx):
            opts.append((5, self.warp_op))
            if self.volatile and ctx.uniform and room > 10:
                opts.append((8, self.volatile_reduce))
        total = sum(w for w, _ in opts)
        pick = r.uniform(0, total)
        for w, fn in opts:
            pick -= w
            if pick <= 0:
                return fn(ctx, st)
        return opts[-1][1](ctx, st)

    def body(self, ctx, st, most=5):
        """Emit the statements of a nested block, one level indented."""
        self.ind += 1
        for _ in range(self.rng.randint(1, most)):
            if len(self.lines) >= self.budget:
                break
            self.statement(ctx, st)
        self.ind -= 1

    def if_stmt(self, ctx, st):
        """if/else on a block-uniform, warp-uniform or per-thread
        condition."""
        r = self.rng
        has_else = r.random() < 0.4
        if ctx.uniform and r.random() < 0.5:
            inner = ctx.nested()
            self.emit(f"if ({self.ex.cond(ctx, True)}) {{")
            then = st.copy()
            self.body(inner, then)
            other = st.copy()
            if has_else:
                self.emit("} else {")
                self.body(inner, other)
            then.merge(other)
            st.mode, st.open = then.mode, then.open
            self.emit("}")
            return
        if self.warp_ok(ctx) and r.random() < 0.4:
            inner = ctx.nested(uniform=False)
            cond = self.ex.warp_cond(ctx)
            self.features.add("warp-uniform-if")
        else:
            inner = ctx.divergent()
            cond = self.ex.cond(ctx, False)
        self.emit(f"if ({cond}) {{")
        self.body(inner, st)
        if has_else:
            self.emit("} else {")
            self.body(inner, st)
        self.emit("}")

    def trip_limit(self, ctx):
        """The largest trip count a new loop may have here."""
        return min(20 if ctx.depth == 0 else 8, WORK_MAX // ctx.work)

    def loop(self, ctx, st):
        """A for, while or do-while loop, uniform or divergent."""
        most = self.trip_limit(ctx)
        if most < 1:
            return self.assign(ctx, st)
        if ctx.uniform and self.rng.random() < 0.55:
            return self.uniform_loop(ctx, st, most)
        return self.divergent_loop(ctx, st, most)

    def header(self, loop, bound, step):
        """Open a loop whose counter starts at 0 and stays below bound
        (a do-while loop runs at least once)."""
        i = loop.counter
        loop.form = self.rng.choice(["for", "for", "while", "do"])
        if loop.form == "for":
            self.emit(f"for (unsigned {i} = 0u; {i} < {bound}; {i} += "
                      f"{step}) {{")
            return
        self.emit(f"unsigned {i} = 0u;")
        self.emit(f"while ({i} < {bound}) {{" if loop.form == "while"
                  else "do {")
        # The increment comes first, so that `continue` cannot skip it.
        self.emit(f"  {i} += {step};")

    def close(self, loop, bound):
        """Close a loop opened by header()."""
        if loop.form == "do":
            self.emit(f"}} while ({loop.counter} < {bound});")
        else:
            self.emit("}")

    def uniform_loop(self, ctx, st, most):
        """A loop with a block-uniform trip count and only uniform breaks:
        its body may hold barriers (and warp operations when converged)."""
        r = self.rng
        loop = Loop("U", self.fresh("i"))
        bound = self.ex.trip(ctx, True, most)
        step = "1u" if r.random() < 0.8 else "2u"
        returns_ok = ctx.returns_ok
        converged = ctx.converged
        if returns_ok:
            if self.warp_ok(ctx) and r.random() < 0.7:
                returns_ok = False
            else:
                converged = False
        inner = ctx.nested(loops=ctx.loops + (loop,), work=ctx.work * most,
                           uvars=ctx.uvars + (loop.counter,),
                           returns_ok=returns_ok, converged=converged)
        coll = Collector()
        body_st = Interval(st.mode, st.open + [coll])
        self.header(loop, bound, step)
        self.body(inner, body_st, 6)
        # The end of one iteration and the start of the next share an
        # interval: end the body with a barrier if they could race.
        if conflicting(body_st.mode | coll.kinds):
            self.ind += 1
            self.barrier(inner, body_st)
            self.ind -= 1
        self.close(loop, bound)
        st.mode |= body_st.mode | loop.break_modes
        self.features.add("uniform-loop")

    def divergent_loop(self, ctx, st, most):
        """A loop whose trip count or exits differ between threads: no
        barrier or warp operation inside."""
        r = self.rng
        loop = Loop("D", self.fresh("i"))
        bound = self.ex.trip(ctx, r.random() < 0.4, most)
        step = "1u" if r.random() < 0.8 else "(1u + (a & 1u))"
        inner = ctx.divergent(loops=ctx.loops + (loop,),
                              work=ctx.work * most,
                              tvars=ctx.tvars + (loop.counter,))
        self.header(loop, bound, step)
        self.body(inner, st, 6)
        self.close(loop, bound)
        self.features.add("divergent-loop")

    def break_then_sync(self, ctx, st):
        """A counted loop with a data-dependent break, then a barrier."""
        most = self.trip_limit(ctx)
        if most < 2:
            return self.barrier(ctx, st)
        loop = Loop("D", self.fresh("i"))
        bound = self.ex.trip(ctx, True, most)
        inner = ctx.divergent(loops=ctx.loops + (loop,),
                              work=ctx.work * most,
                              tvars=ctx.tvars + (loop.counter,))
        i = loop.counter
        self.emit(f"for (unsigned {i} = 0u; {i} < {bound}; ++{i}) {{")
        self.body(inner, st, 3)
        self.emit(f"  if ({self.ex.cond(inner, False)}) break;")
        self.body(inner, st, 2)
        self.emit("}")
        self.barrier(ctx, st)
        self.features.add("break-then-sync")
        return None
