"""PNT (pick numbered tokens, COMP 472 A3): students submit a whole alpha-beta program, graded
by running it on test positions and reading the six output lines field by field."""
