#########################################################
##  header                                             ##
#########################################################

from myAltNimClasses import State


def isLeaf(state):
    return state.getNumMatchsticks() <= 1
