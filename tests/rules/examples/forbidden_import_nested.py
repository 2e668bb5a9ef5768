from myAltNimClasses import *

try:
    import numpy as np
except ImportError:
    np = None


def MiniMax(state, depth, isMax):
    import random
    return random.choice([-1000, 1000])


if __name__ == "__main__":
    import doctest
    doctest.testmod()
