from myAltNimClasses import *


def getRemovals(state)
    return [-1, -3]
