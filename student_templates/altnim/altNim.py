#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: altNim.py                       ##
##   Provided file: DO NOT MODIFY                      ##
#########################################################
##  A human (player 2) plays altNim against the computer
##  (player 1, the max player), which picks its moves with
##  MiniMax to a chosen search depth.

import sys

from myAltNimClasses import State
from myAltNimFunctions import getRemovals, applyRemoval, MiniMax


def ask(prompt):
    try:
        answer = input(prompt)
    except EOFError:
        print()
        print("(no more input: game abandoned)")
        sys.exit(0)
    if not sys.stdin.isatty():
        print(answer)
    return answer.strip()


def computerMove(state, depth):
    best, bestValue = None, None
    for removal in getRemovals(state):
        value = MiniMax(applyRemoval(state, removal), depth - 1, False)
        if bestValue is None or value > bestValue:
            best, bestValue = removal, value
    return best


def humanMove(state):
    allowed = getRemovals(state)
    while True:
        answer = ask("Remove how many matchsticks " + str([-r for r in allowed]) + "? ")
        if answer.lstrip("-").isdigit() and -abs(int(answer)) in allowed:
            return -abs(int(answer))
        print("That is not an allowed removal.")


def play():
    print("Welcome to altNim!")
    state = State(int(ask("Number of matchsticks? ")),
                  ask("startOdd (y/n)? ").lower().startswith("y"), 0)
    depth = int(ask("Search depth of the computer? "))
    player = 1
    while True:
        print("State: " + str(state))
        if state.getNumMatchsticks() == 1:
            print("Player " + str(player) + " finds one matchstick left and loses.")
            break
        if player == 1:
            removal = computerMove(state, depth)
            print("Computer (player 1) removes " + str(-removal) + " matchstick(s).")
        else:
            removal = humanMove(state)
            print("You (player 2) remove " + str(-removal) + " matchstick(s).")
        state = applyRemoval(state, removal)
        if state.getNumMatchsticks() <= 0:
            print("Player " + str(player) + " emptied the pile and loses.")
            break
        player = 3 - player
    print("Player " + str(3 - player) + " wins!")


play()
