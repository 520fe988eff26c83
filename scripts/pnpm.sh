#!/usr/bin/env bash
# Runs the pnpm version pinned in package.json ("packageManager").
# A pnpm already on PATH is used when it is that version; otherwise the pinned
# version is installed once into .tools/ with plain npm. This avoids corepack,
# whose signature check fails against some registries, and needs no root.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(node -p "require('$root/package.json').packageManager.split('@')[1]")"
if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$version" ]; then
  exec pnpm "$@"
fi
local_pnpm="$root/.tools/pnpm-$version/node_modules/.bin/pnpm"
if [ ! -x "$local_pnpm" ]; then
  echo "bootstrap: installing pnpm $version into .tools/" >&2
  npm install --silent --no-audit --no-fund --prefix "$root/.tools/pnpm-$version" "pnpm@$version" >&2
fi
exec "$local_pnpm" "$@"
