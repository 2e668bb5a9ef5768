"""Child side: runs graders/style/pyta_runner.py, whose source the parent passes first."""
import sys

runner = {"__name__": "pyta_runner"}
exec(compile(sys.argv.pop(1), "pyta_runner.py", "exec"), runner)
runner["main"](sys.argv[1:])
