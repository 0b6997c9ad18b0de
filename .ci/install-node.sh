#!/usr/bin/env bash
# Make sure Node.js and npm are there for the browser client's lint, type check and unit
# tests (package.json; make lint and make test). As root they are installed with apt-get
# (Debian's nodejs and npm) when missing; otherwise this only says so and fails.
set -uo pipefail

if command -v node >/dev/null && command -v npm >/dev/null; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "install-node: no node and npm, and cannot install them (not root or no apt-get)" >&2
    exit 1
fi
echo "install-node: installing Debian's nodejs and npm" >&2
export DEBIAN_FRONTEND=noninteractive
{ apt-get update -q && apt-get install -y -q nodejs npm; } >&2
