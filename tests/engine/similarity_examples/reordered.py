#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: myAltNimFunctions.py            ##
##       Student Name: Course Instructor             ##
##         Login Name: instructor                      ##
##              MUN #: 000000000                       ##
#########################################################

from myAltNimClasses import *

## Return the list of matchstick rs allowed in state, as
## negative changes to the pile in the order given by the table in
## the assignment (e.g. [-1, -3]). The list depends only on the
## state's startOdd flag and actionState.

def MiniMax(state, depth, maxTurn):
    if depth == 0 or isLeaf(state):
        return eval(state, maxTurn)
    scores = [MiniMax(applyRemoval(state, r), depth - 1, not maxTurn)
              for r in getRemovals(state)]
    if maxTurn:
        return max(scores)
    return min(scores)

def eval(state, maxTurn):
    sticks = state.getNumMatchsticks()
    if (maxTurn and sticks == 1) or (not maxTurn and sticks <= 0):
        return -1000
    if (maxTurn and sticks <= 0) or (not maxTurn and sticks == 1):
        return 1000
    return sticks

## Return the MiniMax value of state, searching depth more moves
## ahead, where maxTurn is True if the max player is to move in state.
## Children are generated in the order of getRemovals(state).

def isLeaf(state):
    return state.getNumMatchsticks() <= 1

## Return the static evaluation of state from the point of view of
## the max player, where maxTurn is True if the max player is to move:
## -1000 if the min player has won, 1000 if the max player has won,
## and the number of matchsticks sticks otherwise.

def applyRemoval(state, r):
    return State(state.getNumMatchsticks() + r, state.getStartOdd(),
                 (state.getActionState() + 1) % 4)

## Return True if state is a leaf of the altNim game tree (at most
## one matchstick sticks) and False otherwise.

def getRemovals(state):
    flip = state.getActionState() in [0, 3]
    if flip == state.getStartOdd():
        return [-1, -3]
    return [-2, -4]

## Return the new state reached from state by applying r (a
## negative change to the pile): the number of matchsticks changes
## by r, startOdd is unchanged and actionState advances to
## (actionState + 1) mod 4.
