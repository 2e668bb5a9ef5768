#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: myAltNimFunctions.py            ##
##       Student Name: Course Instructor             ##
##         Login Name: instructor                      ##
##              MUN #: 000000000                       ##
#########################################################

from myAltNimClasses import *

## Return the list of matchstick removals allowed in state, as
## negative changes to the pile in the order given by the table in
## the assignment (e.g. [-1, -3]). The list depends only on the
## state's startOdd flag and actionState.

def getRemovals(state):
    oddFirst = state.getActionState() in [0, 3]
    if oddFirst == state.getStartOdd():
        return [-1, -3]
    return [-2, -4]

## Return the new state reached from state by applying removal (a
## negative change to the pile): the number of matchsticks changes
## by removal, startOdd is unchanged and actionState advances to
## (actionState + 1) mod 4.

def applyRemoval(state, removal):
    return State(state.getNumMatchsticks() + removal, state.getStartOdd(),
                 (state.getActionState() + 1) % 4)

## Return True if state is a leaf of the altNim game tree (at most
## one matchstick left) and False otherwise.

def isLeaf(state):
    return state.getNumMatchsticks() <= 1

## Return the static evaluation of state from the point of view of
## the max player, where isMax is True if the max player is to move:
## -1000 if the min player has won, 1000 if the max player has won,
## and the number of matchsticks left otherwise.

def eval(state, isMax):
    left = state.getNumMatchsticks()
    if (isMax and left == 1) or (not isMax and left <= 0):
        return -1000
    if (isMax and left <= 0) or (not isMax and left == 1):
        return 1000
    return left

## Return the MiniMax value of state, searching depth more moves
## ahead, where isMax is True if the max player is to move in state.
## Children are generated in the order of getRemovals(state).

def MiniMax(state, depth, isMax):
    if depth == 0 or isLeaf(state):
        return eval(state, isMax)
    values = [MiniMax(applyRemoval(state, removal), depth - 1, not isMax)
              for removal in getRemovals(state)]
    if isMax:
        return max(values)
    return min(values)
