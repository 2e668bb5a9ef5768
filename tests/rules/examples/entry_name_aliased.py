"""An alias hides the real name: the class is still `StoneHenge`."""
import strategy
from sh_game import StoneHenge as StonehengeGame

playable_games = {'h': StonehengeGame}
usable_strategies = {'i': strategy.interactive_strategy, 'mr': strategy.minimax}
