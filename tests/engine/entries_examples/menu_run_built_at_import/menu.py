import tiles

shapes = dict(s=tiles.Tile)  # not a dict display: only running the file tells
