from tiles import Tile

raise RuntimeError("menu.py was run")
shapes = {'s': Tile}
