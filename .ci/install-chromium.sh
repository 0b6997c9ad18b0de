#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser tests
# (tests/test_browser.py drives it with Playwright; Playwright's own browser download
# is never used). As root it is installed with apt-get when missing; otherwise this
# only says so: the browser tests then skip, except in CI (CI set), where they fail.
set -uo pipefail

if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "install-chromium: no /usr/bin/chromium and cannot install it (not root or no apt-get)" >&2
    exit 0
fi
echo "install-chromium: installing Debian's chromium" >&2
export DEBIAN_FRONTEND=noninteractive
{ apt-get update -q && apt-get install -y -q chromium; } >&2 \
    || echo "install-chromium: apt-get could not install chromium" >&2
exit 0
