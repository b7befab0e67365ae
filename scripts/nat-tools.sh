#!/bin/sh
# The NAT browser tests' tools (e2e/test_nat.py, e2e/netns.py): coturn's turnserver (a STUN
# server) and iptables (the two NATs). As root on Debian, what is missing is installed (as
# find-chromium.sh installs Chromium); elsewhere this says what is missing, and the NAT tests
# fail saying the same.
PATH="$PATH:/usr/sbin:/sbin"
missing=""
command -v turnserver >/dev/null 2>&1 || missing="$missing coturn"
command -v iptables >/dev/null 2>&1 || missing="$missing iptables"
command -v ip >/dev/null 2>&1 || missing="$missing iproute2"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    # shellcheck disable=SC2086  # one word per package
    apt-get install -y --no-install-recommends $missing >&2 \
        || { apt-get update >&2 && apt-get install -y --no-install-recommends $missing >&2; }
else
    echo "The NAT tests need:$missing (as root: apt-get install -y$missing)" >&2
fi
exit 0
