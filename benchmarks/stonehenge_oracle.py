"""How long the stonehenge oracle takes to solve the empty side-3 board (not a timed test).

Run: .venv/bin/python benchmarks/stonehenge_oracle.py
"""

from __future__ import annotations

import time

from graders.packs.stonehenge import oracle


def main() -> None:
    for side in (1, 2, 3):
        oracle._solver.cache_clear()  # a fresh memo each time: measure the whole search
        start = time.perf_counter()
        score = oracle.solve(oracle.start(side))
        best = oracle.best_moves(oracle.start(side))
        seconds = time.perf_counter() - start
        states = len(oracle._solver(side).memo)
        print(f"side {side}: score {score:+d} for p1, optimal first moves {''.join(best)}, "
              f"{states} positions memoised, {seconds:.3f} s")


if __name__ == "__main__":
    main()
