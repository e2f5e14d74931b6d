#!/usr/bin/env bash
# What the test suite needs outside Python, started or installed if missing:
# - PostgreSQL at 127.0.0.1:5432 (the campaign and server tests run against it, for real);
# - Debian's chromium-headless-shell (browser tests drive it with Playwright; never a browser
#   downloaded by a tool; /usr/bin/chromium serves too when it is there).
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

if [ "${JDR_NEED_BROWSER:-1}" = "1" ] && ! command -v chromium-headless-shell >/dev/null 2>&1; then
    echo "chromium-headless-shell absent : installation (paquet Debian)" >&2
    sudo=""
    [ "$(id -u)" = "0" ] || sudo="sudo"
    if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1; then
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
    fi
fi
