#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: testAltNim.py                   ##
##   Provided file: DO NOT MODIFY                      ##
#########################################################
##  Runs the assignment's tests in order and prints each
##  result; with a correct myAltNimFunctions.py its output
##  is exactly the contents of out.script.

from myAltNimClasses import State
from myAltNimFunctions import getRemovals, applyRemoval, isLeaf, eval, MiniMax


def showState(state):
    return str(state)


def testRemovals():
    print("== getRemovals ==")
    for startOdd in [True, False]:
        for actionState in range(4):
            state = State(10, startOdd, actionState)
            print("getRemovals(" + showState(state) + ") = " + str(getRemovals(state)))


def testApplyRemoval():
    print("== applyRemoval ==")
    cases = [(10, True, 0, -1), (10, True, 3, -3), (5, False, 1, -4), (2, False, 2, -3)]
    for num, startOdd, actionState, removal in cases:
        state = State(num, startOdd, actionState)
        print("applyRemoval(" + showState(state) + ", " + str(removal) + ") = " +
              showState(applyRemoval(state, removal)))
    state = State(10, True, 0)
    applyRemoval(state, -3)
    print("state after applyRemoval: " + showState(state))


def testIsLeaf():
    print("== isLeaf ==")
    for num in [-2, -1, 0, 1, 2, 5]:
        state = State(num, True, 0)
        print("isLeaf(" + showState(state) + ") = " + str(isLeaf(state)))


def testEval():
    print("== eval ==")
    for num in [-1, 0, 1, 2, 7]:
        for isMax in [True, False]:
            state = State(num, False, 1)
            print("eval(" + showState(state) + ", " + str(isMax) + ") = " +
                  str(eval(state, isMax)))


def testMiniMax():
    print("== MiniMax ==")
    for num in [2, 3, 5, 8, 11]:
        for startOdd in [True, False]:
            for actionState in range(4):
                for depth in [1, 2, 4, 7]:
                    state = State(num, startOdd, actionState)
                    print("MiniMax(" + showState(state) + ", " + str(depth) + ", True) = " +
                          str(MiniMax(state, depth, True)))
    for num in [6, 9, 14]:
        state = State(num, True, 1)
        print("MiniMax(" + showState(state) + ", 5, False) = " +
              str(MiniMax(state, 5, False)))


testRemovals()
testApplyRemoval()
testIsLeaf()
testEval()
testMiniMax()
