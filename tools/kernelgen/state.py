"""What the generator knows at a point of the kernel: its control context
and the shared-memory accesses of the current barrier interval.

Shared-memory discipline (no races, so every order of the threads gives the
same result). Between two barriers the kernel may do, per array:
  sh:  W (each thread writes its own slot sh[tid]) or R (reads of any
       slot), never both; a thread's reads of its own slot are always fine;
  acc: A (integer atomics, one operation per slot) or AR (plain reads),
       never both.
"""

from dataclasses import dataclass, field, replace

CONFLICTS = [frozenset({"W", "R"}), frozenset({"A", "AR"})]


def conflicting(kinds):
    """Whether a set of access kinds may race within one interval."""
    return any(pair <= kinds for pair in CONFLICTS)


class Collector:
    """Access kinds on the way from the start of a loop body to its first
    barrier: they share an interval with the end of the previous iteration."""

    def __init__(self):
        """An empty collector."""
        self.kinds = set()


class Interval:
    """Access kinds since the last barrier on some path to this point."""

    def __init__(self, mode=(), open_collectors=()):
        """A state with the given kinds and open collectors."""
        self.mode = set(mode)
        self.open = list(open_collectors)

    def copy(self):
        """An independent copy (for the branches of a uniform construct)."""
        return Interval(self.mode, self.open)

    def allows(self, kind):
        """Whether an access of this kind may happen here."""
        return not conflicting(self.mode | {kind})

    def access(self, kind):
        """Record an access."""
        self.mode.add(kind)
        for c in self.open:
            c.kinds.add(kind)

    def barrier(self):
        """A barrier ends the interval on this path."""
        self.mode = set()
        self.open = []

    def merge(self, other):
        """Join the state of another path into this one."""
        self.mode |= other.mode
        for c in other.open:
            if not any(c is d for d in self.open):
                self.open.append(c)


@dataclass
class Loop:
    """An enclosing loop: 'U' (uniform trip count and breaks, may hold
    barriers) or 'D' (anything goes, no barriers or warp operations)."""

    kind: str
    counter: str
    form: str = "for"
    break_modes: set = field(default_factory=set)


@dataclass(frozen=True)
class Ctx:
    """The control context of a statement.

    uniform:   every thread of the block that has not returned runs it
               (barriers and block-uniform values allowed);
    converged: every warp runs it with all 32 lanes, and no enclosing loop
               body may return (warp operations allowed once nothing has
               returned before);
    returns_ok: an early return may be generated here.
    """

    uniform: bool = True
    converged: bool = True
    returns_ok: bool = True
    loops: tuple = ()
    depth: int = 0
    work: int = 1
    uvars: tuple = ()
    tvars: tuple = ()

    def divergent(self, **changes):
        """The context inside a branch or loop that threads take apart."""
        return self.nested(uniform=False, converged=False, **changes)

    def nested(self, **changes):
        """A context one level deeper, with some fields changed."""
        return replace(self, **{"depth": self.depth + 1, **changes})
