"""A stand-in for the locked myAltNimClasses.py (written for these tests)."""


class State:
    """A position in altNim: matchsticks left, the startOdd flag and the action state."""

    MOVES_PER_ROUND = 4

    def __init__(self, numMatchsticks, startOdd, actionState=0):
        self.numMatchsticks = numMatchsticks
        self.startOdd = startOdd
        self.actionState = actionState

    def getNumMatchsticks(self):
        """The number of matchsticks left."""
        return self.numMatchsticks

    def getStartOdd(self):
        return self.startOdd

    def getActionState(self):
        return self.actionState

    def setActionState(self, actionState):
        self.actionState = actionState

    def __str__(self):
        return f"{self.numMatchsticks} ({self.startOdd}, {self.actionState})"
