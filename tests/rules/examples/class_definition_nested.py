from myAltNimClasses import *


class MyState(State):
    pass


def MiniMax(state, depth, isMax):
    class Node:
        pass
    return Node
