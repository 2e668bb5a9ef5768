# Uses math for a helper: not allowed.
from myAltNimClasses import *
import math


def isLeaf(state):
    return math.floor(state.getNumMatchsticks()) <= 1
