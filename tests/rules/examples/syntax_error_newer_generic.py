"""A helper with Python 3.12 type parameters."""


def first[T](items: list[T]) -> T:
    return items[0]
