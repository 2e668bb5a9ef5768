"""A type alias written with Python 3.12's `type` statement."""

type Move = tuple[int, int]


def moves(size: int) -> list[Move]:
    return [(row, col) for row in range(size) for col in range(size)]
