#!/usr/bin/env bash
# Install everything grading needs on a Debian/Ubuntu machine: bubblewrap (the sandbox),
# python3-venv (the pack tools' environments), python3-tk (tkinter: the standard library is
# whole in the sandbox), the harness in .venv, and the packs' tools and environments
# (`grade setup`: python_ta for stonehenge), and a wheelhouse for the harness's own tests.
# Safe to run again. Chromium and PostgreSQL are only for the harness's own tests (the report
# pages in a browser; the shared gradebook on a server the tests start): pass --with-browser
# to install them too.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(bubblewrap python3 python3-venv python3-tk)
if [ "${1:-}" = "--with-browser" ]; then
  packages+=(chromium postgresql)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install ${missing[*]} with your package manager, then run this again" >&2
    exit 2
  fi
  run=()
  [ "$(id -u)" -eq 0 ] || run=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${run[@]}" apt-get update -qq
  "${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A run again skips what is already done: the venv's packages are installed again only when
# pyproject.toml changed since (the stamp lives in .venv, so a new venv installs them).
[ -x .venv/bin/python ] || python3 -m venv .venv
installed="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat .venv/.installed 2>/dev/null)" != "$installed" ]; then
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e '.[dev]'
  echo "$installed" >.venv/.installed
fi
# The wheelhouse (.wheelhouse/, or $GRADERS_WHEELHOUSE): wheels of the harness's dependencies,
# of its build backend, and of every pack's kit requirements. The suite's fresh virtual
# environments (the student kits, the harness installed as a wheel) install from it with
# `pip install --no-index`, so the tests never reach the package index.
wheelhouse="${GRADERS_WHEELHOUSE:-.wheelhouse}"
mkdir -p "$wheelhouse"
.venv/bin/python - >"$wheelhouse/kits.txt" <<'PY'
from graders.kit.builder import requirements
from graders.pack import discover_packs

pins = {pin for pack in discover_packs().values() for pin in requirements(pack)}
print("\n".join(sorted(pins)))
PY
# Gathered again only when the harness's requirements or the kits' pins changed.
gathered="$(cat pyproject.toml "$wheelhouse/kits.txt" | sha256sum | cut -d' ' -f1)"
gather() {
  if [ "$(cat "$wheelhouse/.gathered" 2>/dev/null)" != "$gathered" ]; then
    .venv/bin/pip wheel -q --wheel-dir "$wheelhouse" -r "$wheelhouse/kits.txt" . 'setuptools>=68'
    rm -f "$wheelhouse"/graders-*.whl  # the tests build the harness's wheel from the code they test
    echo "$gathered" >"$wheelhouse/.gathered"
  fi
}
# Gathering waits mostly on the index and `grade setup` on building its environments: side by
# side, and the step fails if either does.
gather &
gathering=$!
# The harness's bytecode, written now: where PYTHONDONTWRITEBYTECODE is set, every process
# that imports the engine (each pool worker, each `grade`) would compile it again, about
# 0.15 s each. A file edited later is compiled afresh as usual (its bytecode is out of date).
.venv/bin/python -m compileall -q graders benchmarks >/dev/null
.venv/bin/grade setup
wait "$gathering"
