#!/usr/bin/env bash
# Installs Debian's RabbitMQ server (and the Erlang runtime it needs) for the broker test
# (tests/integration/test_rabbitmq_broker.py), if missing. The test starts its own node on
# free loopback ports from these binaries (scripts/localrabbit.py); the packaged service is
# not needed, so on a machine whose policy lets services start at install it is stopped and
# disabled again (it would hold port 5672 and an epmd for nothing).
set -euo pipefail
if [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "rabbitmq-server is missing: run 'apt-get install rabbitmq-server' as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends rabbitmq-server >/dev/null
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl disable --now rabbitmq-server.service epmd.socket epmd.service >/dev/null 2>&1 || true
fi
