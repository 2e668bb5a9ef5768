"""Child side: runs graders/style/pyta_runner.py, whose source the parent passes first."""
import sys

exec(compile(sys.argv.pop(1), "pyta_runner.py", "exec"))  # the engine's runner, sent by it
