"""Launch shapes of generated kernels, and the layout of their buffers."""

from dataclasses import dataclass

# Block shapes (x, y, z): multiples of 32 and odd sizes such as 33, 48, 100.
BLOCKS = [
    (1, 1, 1), (32, 1, 1), (33, 1, 1), (48, 1, 1), (64, 1, 1),
    (100, 1, 1), (128, 1, 1), (256, 1, 1),
    (8, 4, 1), (16, 3, 1), (33, 2, 1), (10, 10, 1), (32, 2, 1),
    (16, 16, 1), (7, 5, 1),
    (4, 4, 4), (8, 2, 3), (2, 3, 5), (32, 2, 2), (16, 2, 4), (3, 3, 3),
]

# Grid shapes (x, y, 1); at most 6 blocks, so that the fiber engine and the
# memory checker stay quick.
GRIDS = [(1, 1, 1), (2, 1, 1), (3, 1, 1), (5, 1, 1), (2, 2, 1),
         (3, 2, 1), (1, 3, 1)]

# Input lengths (the kernel parameter n).
INPUT_LENGTHS = [64, 100, 1024]

# Slots of the shared int array `acc` (integer atomics) and of the global
# atomic counters at the end of `out`; ACC_OPS[k] is the one atomic
# operation applied to slot k, so that every slot's final value is
# independent of the order of the updates.
NACC = 8
ACC_OPS = ["atomicAdd", "atomicAdd", "atomicOr", "atomicXor", "atomicMax",
           "atomicMin", "atomicAnd", "atomicAdd"]


@dataclass(frozen=True)
class Shape:
    """One launch: grid and block dimensions and the buffer lengths."""

    grid: tuple
    block: tuple
    n_in: int

    @property
    def threads(self):
        """Threads per block."""
        x, y, z = self.block
        return x * y * z

    @property
    def blocks(self):
        """Blocks in the grid."""
        x, y, z = self.grid
        return x * y * z

    @property
    def n_out(self):
        """Length of `out`: a digest per thread, then per block its shared
        arrays, then the global atomic counters."""
        total = self.blocks * self.threads
        return total + self.blocks * (self.threads + NACC) + NACC

    @property
    def n_fout(self):
        """Length of `fout`: two floats per thread."""
        return 2 * self.blocks * self.threads

    def sidecar(self, seed, features):
        """The launch description written next to the kernel source."""
        return {
            "seed": seed, "kernel": "k", "grid": list(self.grid),
            "block": list(self.block), "n_in": self.n_in,
            "n_out": self.n_out, "n_fout": self.n_fout,
            "features": sorted(features),
        }


def choose_shape(rng):
    """Pick a launch shape."""
    return Shape(rng.choice(GRIDS), rng.choice(BLOCKS),
                 rng.choice(INPUT_LENGTHS))
