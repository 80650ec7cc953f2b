#!/usr/bin/env bash
# Packs drift as npm would publish it, installs the tarball in an empty folder as a user would, and
# runs the installed drift on a copy of the bundled example project: --version, rules, diff, then every
# subcommand its --help lists (scripts/smoke-package.mjs).
#
# The installed package holds no Python set-up (that belongs to this repository: `npm install` here
# runs it from `prepare`, which an installed tarball never runs). The copied project sets up its own
# .venv next to its providers, as docs/adapters.md's "Using drift as a package" says, and the adapters'
# command (`../../.venv/bin/python`, relative to each provider.yaml) finds it there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/drift-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT
python="${DRIFT_PYTHON:-python3}"

echo "drift: packing the build in dist/ (npm pack --ignore-scripts: npm ci or npm run build built it)"
if [ ! -f "$root/dist/cli/main.js" ]; then
  echo "drift: no build in dist/: run npm run build first" >&2
  exit 1
fi
tarball="$(cd "$root" && npm pack --silent --ignore-scripts --pack-destination "$work" | tail -n 1)"
if tar -tzf "$work/$tarball" | grep -qE '^package/(scripts|src|test|providers)/'; then
  echo "drift: the tarball ships files meant only for this repository" >&2
  exit 1
fi

echo "drift: installing $tarball into an empty folder"
mkdir "$work/install"
# --prefer-offline: what npm ci already fetched comes from npm's cache without asking the registry again (measured 29.5 to 20.0 s).
(cd "$work/install" && npm install --prefer-offline --no-audit --no-fund --loglevel=warn "$work/$tarball") 2>&1 | tee "$work/install.log"
# This repository's own install overrides them (package.json "overrides"); npm applies overrides
# only to the root project, so a user's install still meets these: say which, without failing.
if grep -q EBADENGINE "$work/install.log"; then
  echo "drift: note: dependencies that declare a newer Node than $(node --version) (drift runs on it all the same):"
  grep -A1 "EBADENGINE Unsupported engine" "$work/install.log" | grep -o "package: '[^']*'" | sort -u | sed 's/^/  /'
fi
drift="$work/install/node_modules/.bin/drift"

want="$(node -p "require('$root/package.json').version")"
got="$("$drift" --version)"
if [ "$got" != "$want" ]; then
  echo "drift: the installed drift --version says $got, package.json says $want" >&2
  exit 1
fi
echo "drift --version: $got"
"$drift" rules > "$work/rules.txt"
echo "drift rules: $(grep -c . "$work/rules.txt") lines"

echo "drift: a copy of the example project, with its own Python environment"
example="$work/example"
mkdir "$example"
cp -R "$root/providers" "$root/scenarios" "$root/goldens" "$root/drift.config.yaml" "$example/"
find "$example" \( -name __pycache__ -o -name .pytest_cache \) -prune -exec rm -rf {} +
# The repository's own pip (npm ci's prepare made .venv) installs into a venv made without one:
# bootstrapping pip into every new venv cost 7 s of the check; pip's wheel cache serves the packages.
if [ -x "$root/.venv/bin/python" ]; then
  "$python" -m venv --without-pip "$example/.venv"
  "$root/.venv/bin/python" -m pip --python "$example/.venv/bin/python" install --quiet --disable-pip-version-check -r "$example/providers/requirements.txt"
else
  "$python" -m venv "$example/.venv"
  "$example/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$example/providers/requirements.txt"
fi
(cd "$example" && "$drift" --no-color diff)
echo "drift: every subcommand drift --help lists, through the installed bin"
node "$root/scripts/smoke-package.mjs" "$drift" "$example"
echo "drift: the packed package installs and runs"
