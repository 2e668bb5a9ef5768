from myAltNimClasses import *
from typing import List


def getRemovals(state) -> List[int]:
    if state.getStartOdd():
        return [-1, -3]
    return [-2, -4]
