"""`grade`: a thin command line. Every command is a module of :mod:`graders.commands` that
registers itself and calls one function of the engine; this module only groups them."""

from __future__ import annotations

import sys

import click
from click_default_group import DefaultGroup

from graders import console
from graders.commands import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, register_all
from graders.errors import GraderError


@click.group(cls=DefaultGroup, default="run", default_if_no_args=False)
def cli() -> None:
    """Grade game-search assignments: `grade SUBMISSIONS/` marks a class."""


register_all(cli)


def main(argv: list[str] | None = None) -> int:
    """Console entry point; grader and declaration errors exit 2 with a clear message, an
    interrupt 130 (every report written so far is kept, and reused by the next run)."""
    try:
        cli.main(args=argv, prog_name="grade", standalone_mode=False)
    except SystemExit as exc:
        return int(exc.code or 0)
    except (KeyboardInterrupt, click.exceptions.Abort):
        console.console.print("grade: interrupted; the reports written so far are kept")
        return EXIT_INTERRUPTED
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE
    except GraderError as exc:
        # Not markup, not wrapped: the message names paths, which must read (and copy) whole.
        console.console.print(f"grade: {console.printable(str(exc), lines=True)}", style="red",
                              markup=False, soft_wrap=True)
        return EXIT_USAGE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
