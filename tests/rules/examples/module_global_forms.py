from myAltNimClasses import *

__author__ = "Ada"
counter = 0
counter += 1
total: int
depth: int = 3
first, (second, *rest) = 1, (2, 3, 4)
for index in range(3):
    pass
with open(__file__) as handle:
    pass
try:
    cache = {}
except Exception as problem:
    pass
while False:
    spare = 1
State.MOVES = 4


def MiniMax(state, depth, isMax):
    global counter, calls
    local = depth - 1
    return local


if __name__ == "__main__":
    start = State(5, True, 0)
