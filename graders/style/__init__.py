"""Style checkers any pack may declare where a handout asks for style.

python_ta (:mod:`graders.style.python_ta`): run in its own tool environment inside the sandbox
by the child-side :mod:`graders.style.pyta_runner`, parsed and judged on the parent side, with
what a style criterion needs (the files assessed, one run per session and per student, the
kinds of message counted) in :mod:`graders.style.assessed`.
"""
