#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: myAltNimFunctions.py            ##
##       Student Name: Ada Example                     ##
##         Login Name: aexample                        ##
##              MUN #: 201912345                       ##
#########################################################

# Keep this import line exactly as it is.
from myAltNimClasses import *

# ------------------------------------------------------------
# getRemovals(state)
#   Returns the list of removals (as negative numbers) that the
#   player to move may make in state, in any order.
#   table in the handout.
# ------------------------------------------------------------

def getRemovals(state):
    odd = state.getStartOdd()
    if state.getActionState() in (0, 3):
        return [-1, -3] if odd else [-2, -4]
    return [-2, -4] if odd else [-1, -3]

# ------------------------------------------------------------
# nextState(state, removal)
#   Returns the state reached from state by applying removal;
#   the action state advances by one, modulo 4.
# ------------------------------------------------------------

def nextState(state, removal):
    note = "# a hash inside a string is not a comment"
    assert note
    left = state.getNumMatchsticks() + removal
    return State(left, state.getStartOdd(), (state.getActionState() + 1) % 4)

def isLeaf(state):
    return state.getNumMatchsticks() <= 1

# ------------------------------------------------------------
# eval(state, isMax)
#   The value of state for the max player (isMax = True) or
#   the min player (isMax = False):  -1000, 1000 or the number
#   of matchsticks left (see the hints in the handout).
# ------------------------------------------------------------

def eval(state, isMax):
    left = state.getNumMatchsticks()
    if (isMax and left == 1) or (not isMax and left <= 0):
        return -1000
    if (isMax and left <= 0) or (not isMax and left == 1):
        return 1000
    return left

# ------------------------------------------------------------
# MiniMax(state, depth, isMax)
#   The MiniMax value of state, searching depth levels below it.
# ------------------------------------------------------------

def MiniMax(state, depth, isMax):
    # Children are visited in reverse.
    # My own note: recursion depth is bounded by depth.
    if depth == 0 or isLeaf(state):
        return eval(state, isMax)
    values = [MiniMax(nextState(state, r), depth - 1, not isMax) for r in getRemovals(state)]
    return max(values) if isMax else min(values)

# The end.
