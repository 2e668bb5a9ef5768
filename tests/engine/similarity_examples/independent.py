#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: myAltNimFunctions.py            ##
##       Student Name: Ivy Independent                 ##
##         Login Name: iindep                          ##
##              MUN #: 201955555                       ##
#########################################################

from myAltNimClasses import *

## Return the list of matchstick removals allowed in state, as
## negative changes to the pile in the order given by the table in
## the assignment (e.g. [-1, -3]). The list depends only on the
## state's startOdd flag and actionState.

def getRemovals(state):
    table = {True: [[-1, -3], [-2, -4], [-2, -4], [-1, -3]],
             False: [[-2, -4], [-1, -3], [-1, -3], [-2, -4]]}
    row = table[state.getStartOdd()]
    return list(row[state.getActionState()])

## Return the new state reached from state by applying removal (a
## negative change to the pile): the number of matchsticks changes
## by removal, startOdd is unchanged and actionState advances to
## (actionState + 1) mod 4.

def applyRemoval(state, removal):
    nextAction = state.getActionState() + 1
    if nextAction == 4:
        nextAction = 0
    pile = state.getNumMatchsticks()
    return State(pile + removal, state.getStartOdd(), nextAction)

## Return True if state is a leaf of the altNim game tree (at most
## one matchstick left) and False otherwise.

def isLeaf(state):
    if state.getNumMatchsticks() > 1:
        return False
    return True

## Return the static evaluation of state from the point of view of
## the max player, where isMax is True if the max player is to move:
## -1000 if the min player has won, 1000 if the max player has won,
## and the number of matchsticks left otherwise.

def eval(state, isMax):
    count = state.getNumMatchsticks()
    if count > 1:
        return count
    maxWins = (count <= 0) == isMax
    if maxWins:
        return 1000
    else:
        return -1000

## Return the MiniMax value of state, searching depth more moves
## ahead, where isMax is True if the max player is to move in state.
## Children are generated in the order of getRemovals(state).

def MiniMax(state, depth, isMax):
    if isLeaf(state) or depth <= 0:
        return eval(state, isMax)
    best = None
    for move in getRemovals(state):
        child = MiniMax(applyRemoval(state, move), depth - 1, not isMax)
        if best is None:
            best = child
        elif isMax and child > best:
            best = child
        elif not isMax and child < best:
            best = child
    return best
