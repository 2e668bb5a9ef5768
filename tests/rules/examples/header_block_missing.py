# My solution to assignment 2.

from myAltNimClasses import *
