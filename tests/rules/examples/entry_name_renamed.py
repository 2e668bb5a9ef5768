"""A game interface whose game class is called otherwise (and lives in the student's module)."""
from sh_game import StoneHenge
from strategy import interactive_strategy

playable_games = {'h': StoneHenge}
usable_strategies = {'i': interactive_strategy}
