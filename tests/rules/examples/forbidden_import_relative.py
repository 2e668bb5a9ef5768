from myAltNimClasses import *
from . import helpers
from ..shared import tools as t
