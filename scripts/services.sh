#!/usr/bin/env bash
# What the test suite needs outside Python, started or installed if missing:
# - PostgreSQL at 127.0.0.1:5432 (the campaign and server tests run against it, for real);
# - Debian's chromium (browser tests drive it with Playwright; never a browser downloaded by a tool).
set -euo pipefail

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    echo "PostgreSQL arrêté : démarrage" >&2
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
    for _ in $(seq 1 30); do
        pg_isready -q -h 127.0.0.1 -p 5432 && break
        sleep 1
    done
fi
pg_isready -h 127.0.0.1 -p 5432 >/dev/null || { echo "PostgreSQL injoignable sur 127.0.0.1:5432" >&2; exit 1; }

if [ "${JDR_NEED_BROWSER:-1}" = "1" ] && ! command -v chromium >/dev/null 2>&1; then
    echo "chromium absent : installation (paquet Debian)" >&2
    if [ "$(id -u)" = "0" ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    fi
fi
