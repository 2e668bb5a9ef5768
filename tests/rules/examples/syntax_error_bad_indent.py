from myAltNimClasses import *


def isLeaf(state):
return state.getNumMatchsticks() <= 1
