"""``python -m aplan ARGS...``: the ``aplan`` command-line tool with ARGS, the same commands, outputs and exit codes.

Stage 1 of the package binds the library, not the tool: this runs the ``aplan`` executable, found as the
environment variable APLAN_CLI names it, else on PATH (``meson install``, or ./build/src/cli/aplan added to PATH).
Without one it says so and exits 2 (the tool's usage status).
"""

from __future__ import annotations

import os
import shutil
import sys


def find_cli() -> str | None:
    """The path of the aplan tool this runs: $APLAN_CLI, else ``aplan`` on PATH; None when there is neither."""
    given = os.environ.get("APLAN_CLI")
    if given:
        return given if os.access(given, os.X_OK) else None
    return shutil.which("aplan")


def main(argv: list[str]) -> int:
    cli = find_cli()
    if cli is None:
        sys.stderr.write(
            "python -m aplan: the aplan command-line tool was not found (APLAN_CLI names none that runs, and there "
            "is no aplan on PATH); this package binds the library only: build the tool with meson (./build/src/cli/"
            "aplan) and put it on PATH or in APLAN_CLI\n")
        return 2
    sys.stdout.flush()
    os.execv(cli, [cli] + argv)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
