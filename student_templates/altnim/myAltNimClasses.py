#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: myAltNimClasses.py              ##
##   Provided file: DO NOT MODIFY                      ##
#########################################################


class State:
    """A state of altNim: the matchsticks left in the pile, the startOdd flag and
    the actionState (0..3) that selects the removals allowed in this move."""

    def __init__(self, numMatchsticks, startOdd, actionState):
        self.numMatchsticks = numMatchsticks
        self.startOdd = startOdd
        self.actionState = actionState

    def getNumMatchsticks(self):
        """Return the number of matchsticks left in the pile."""
        return self.numMatchsticks

    def getStartOdd(self):
        """Return the startOdd flag of the game."""
        return self.startOdd

    def getActionState(self):
        """Return the actionState (0, 1, 2 or 3) of this move."""
        return self.actionState

    def __str__(self):
        return ("[" + str(self.numMatchsticks) + " matchsticks, startOdd = " +
                str(self.startOdd) + ", actionState = " +
                str(self.actionState) + "]")
