"""Assignment 2 functions."""
#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: myAltNimFunctions.py            ##
##       Student Name: Ada Example                     ##
##         Login Name: aexample                        ##
##              MUN #: 201912345                       ##
#########################################################

from myAltNimClasses import *
