#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium for the browser test (tests/web), if missing.
# The test drives it with Playwright for Python (executable_path=/usr/bin/chromium): no
# browser build is downloaded by Playwright itself.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing: run 'apt-get install chromium' as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
