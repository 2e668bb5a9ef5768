"""A game view whose menus live in its main block, as the starter's do; the student's game
is called otherwise and the strategy is added by a subscript assignment."""


class GameView:
    pass


if __name__ == '__main__':
    from subtract_square_state import SubtractSquareState
    from strategy_random import StrategyRandom
    from my_tippy import TippyState
    from strategy_minimax import StrategyMinimax
    game_state = {'s': SubtractSquareState,
                  't': TippyState}
    strategy = {'r': StrategyRandom}
    strategy['m'] = StrategyMinimax
    GameView()
