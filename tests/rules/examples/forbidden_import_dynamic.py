from myAltNimClasses import *


def sneaky(state):
    os = __import__("os")
    importlib = __import__("importlib")
    math = importlib.import_module("math")
    loader = getattr(__builtins__, "__import__")
    exec("x = 1")
    value = eval("1 + 1")
    code = compile("2", "<s>", "eval")
    return os, math, loader, value, code


def modules(sys):
    return sys.modules
