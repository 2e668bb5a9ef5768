from myAltNimClasses import *


def isLeaf(state):
    return state.numMatchsticks <= 1


def nextState(s, removal):
    child = State(s.getNumMatchsticks() + removal, s.startOdd, s.getActionState())
    child.actionState = (s.getActionState() + 1) % 4
    return child


def sneaky(state):
    left = getattr(state, "numMatchsticks")
    del state.startOdd
    rounds = State.MOVES_PER_ROUND
    return left + rounds + state.__dict__["actionState"]


def fine(state):
    return state.getNumMatchsticks(), state.getStartOdd(), getattr(state, "getActionState")()
