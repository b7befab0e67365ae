#!/usr/bin/env bash
# Print the path of a Chromium for the browser tests, installing one where we can.
# Order: $CHROMIUM, /usr/bin/chromium, Playwright's own browser where it can be installed,
# then (Debian, as root) `apt-get install -y chromium`.
set -euo pipefail
if [ -n "${CHROMIUM:-}" ] && [ -x "$CHROMIUM" ]; then echo "$CHROMIUM"; exit 0; fi
if [ -x /usr/bin/chromium ]; then echo /usr/bin/chromium; exit 0; fi
venv_py="${1:-.venv/bin/python}"
if "$venv_py" -m playwright install chromium >/dev/null 2>&1; then
  found=$("$venv_py" - <<'PY'
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    print(p.chromium.executable_path)
PY
)
  if [ -x "$found" ]; then echo "$found"; exit 0; fi
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "no Chromium found: installing Debian's chromium" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >&2
  if [ -x /usr/bin/chromium ]; then echo /usr/bin/chromium; exit 0; fi
fi
echo "no Chromium found: set CHROMIUM=/path/to/chromium" >&2
exit 1
