from myAltNimClasses import *

if (limit := 10) > 5:
    pass
squares = [(last := n * n) for n in range(3)]
print([y for x in range(3) if (y := x)])


def MiniMax(state, depth, isMax):
    if (left := state.getNumMatchsticks()) <= 1:
        return left
    return [(best := v) for v in (1, 2)][0] + best
