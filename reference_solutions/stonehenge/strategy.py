"""Strategies: functions that take a game and return a move to make in its
current state."""
from typing import Optional

from game import Game
from game_state import GameState


def interactive_strategy(game: Game) -> object:
    """Return the move that the player types in."""
    move = input("Enter a move: ")
    return game.str_to_move(move)


def outcome(game: Game, state: GameState) -> int:
    """Return the score of the finished state for the player to move in it:
    WIN, LOSE or DRAW.

    The game's current state is restored before returning.
    """
    player = state.get_current_player_name()
    opponent = "p2" if player == "p1" else "p1"
    saved = game.current_state
    game.current_state = state
    try:
        if game.is_winner(player):
            return state.WIN
        if game.is_winner(opponent):
            return state.LOSE
        return state.DRAW
    finally:
        game.current_state = saved


def minimax_score(game: Game, state: GameState) -> int:
    """Return the highest score the player to move in state can guarantee."""
    moves = state.get_possible_moves()
    if game.is_over(state) or not moves:
        return outcome(game, state)
    return max(-minimax_score(game, state.make_move(move)) for move in moves)


def recursive_minimax_strategy(game: Game) -> object:
    """Return a move that guarantees the highest possible score for the
    player to move in the game's current state."""
    state = game.current_state
    best_move, best_score = None, None
    for move in state.get_possible_moves():
        score = -minimax_score(game, state.make_move(move))
        if best_score is None or score > best_score:
            best_move, best_score = move, score
    return best_move


class MinimaxNode:
    """A game state in the tree that iterative minimax explores.

    state - the game state of this node
    move - the move that led here from the parent node
    children - the nodes one move away, or None until they are made
    score - the highest score the player to move can guarantee, or None
        until it is known
    """
    state: GameState
    move: object
    children: Optional[list]
    score: Optional[int]

    def __init__(self, state: GameState, move: object = None) -> None:
        """Make a node for state, reached by move, with nothing known yet."""
        self.state = state
        self.move = move
        self.children = None
        self.score = None


def iterative_minimax_strategy(game: Game) -> object:
    """Return a move that guarantees the highest possible score for the
    player to move in the game's current state, searching with a stack of
    nodes instead of recursion."""
    root = MinimaxNode(game.current_state)
    stack = [root]
    while stack:
        node = stack.pop()
        if game.is_over(node.state) or not node.state.get_possible_moves():
            node.score = outcome(game, node.state)
        elif node.children is None:
            node.children = [MinimaxNode(node.state.make_move(move), move)
                             for move in node.state.get_possible_moves()]
            stack.append(node)
            stack.extend(node.children)
        else:
            node.score = max(-kid.score for kid in node.children)
    children = root.children or []
    if not children:
        return None
    best = children[0]
    for child in children:
        if child.score < best.score:
            best = child
    return best.move


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
