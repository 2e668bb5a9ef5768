from tiles import Tile


class View:
    def __init__(self, shape, colour):
        self.shape, self.colour = shape, colour


if __name__ == '__main__':
    kinds = {'s': Tile}
    View(kinds['s'], 'red')
