"""PNT (pick numbered tokens, COMP 472 A3): students submit a whole alpha-beta program, graded
by running it on test positions and reading the six output lines field by field.

The handout names no file: the engine finds the student's program (``entry_program``) and
runs it as ``python3 pnt.py`` beside their own modules. ``cases``/``positions``/``output``
read cases and outputs, ``grading`` runs and judges them, ``generate`` draws random hidden
positions, and ``variants``/``cover`` choose hidden positions so that every rule of the
handout changes the output of at least three cases.
"""
