#########################################################
##  CS 3200 (Fall 2024), Assignment #2                 ##
##   Script File Name: myAltNimFunctions.py            ##
##       Student Name: Ada Example                     ##
##         Login Name: XXXXXXXX                        ##
##              MUN #:                                 ##
#########################################################

from myAltNimClasses import *
