#!/usr/bin/env bash
# Make sure Debian's nginx is at /usr/sbin/nginx for the reverse-proxy tests
# (tests/test_proxy.py and tests/test_browser_proxy.py run it as a child process with a
# config of their own; the system's nginx service is never started). As root it is
# installed with apt-get when missing; otherwise this only says so: those tests then
# skip, except in CI (CI set), where they fail.
set -uo pipefail

if [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "install-nginx: no /usr/sbin/nginx and cannot install it (not root or no apt-get)" >&2
    exit 0
fi
echo "install-nginx: installing Debian's nginx" >&2
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d answering 101 keeps the package from starting the nginx service on port 80.
policy=/usr/sbin/policy-rc.d
made_policy=
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made_policy=1
fi
{ apt-get update -q && apt-get install -y -q nginx; } >&2 \
    || echo "install-nginx: apt-get could not install nginx" >&2
if [ -n "$made_policy" ]; then rm -f "$policy"; fi
exit 0
