"""How long the stonehenge oracle takes to solve the empty board of sides 1-3 (not a timed
test): a fresh engine negamax over the oracle's rules each time, so the whole search is
measured, not the process's memo.

Run: .venv/bin/python benchmarks/stonehenge_oracle.py
"""

from __future__ import annotations

import time

from graders.packs.stonehenge import oracle
from graders.solver import Negamax


def main() -> None:
    for side in (1, 2, 3):
        solver = Negamax(oracle.SOLVER.moves, oracle.SOLVER.play, oracle.SOLVER.outcome,
                         oracle.SOLVER.key)
        start = time.perf_counter()
        score = solver.score(oracle.start(side))
        best = solver.best_moves(oracle.start(side))
        seconds = time.perf_counter() - start
        print(f"side {side}: score {score:+d} for p1, optimal first moves {''.join(best)}, "
              f"{solver.known} positions memoised, {seconds:.3f} s")


if __name__ == "__main__":
    main()
