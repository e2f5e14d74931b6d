#!/usr/bin/env bash
# Copy htmx from the npm registry's `htmx.org` package into src/jdr/web/static/ (run by hand when
# upgrading; the copied file is committed, so CI and `make run` never need npm or the network).
# Usage: scripts/fetch_htmx.sh [VERSION]   (default: the latest 2.x)
set -euo pipefail
cd "$(dirname "$0")/.."
spec="htmx.org@${1:-2}"
dest=src/jdr/web/static
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$spec" >/dev/null && tar -xzf htmx.org-*.tgz)
pkg="$work/package"
version=$(node -p "require('$pkg/package.json').version")
cp "$pkg/dist/htmx.min.js" "$dest/htmx.min.js"
cp "$pkg/LICENSE" "$dest/htmx.LICENSE"
printf 'htmx.org %s (npm), dist/htmx.min.js, licence BSD Zero Clause (htmx.LICENSE)\n' "$version" \
    > "$dest/htmx.VERSION"
echo "htmx $version copié dans $dest"
