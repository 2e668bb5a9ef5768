"""The toy assignment's tree: its grader tests run only inside grading sessions."""

# tests/toy/packs/<id>/test_*.py ask for the grading fixtures (student, run_program, ...);
# the harness's own session must not collect them.
collect_ignore = ["packs"]
