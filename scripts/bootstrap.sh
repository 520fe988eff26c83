#!/usr/bin/env bash
# Installs what the project needs on a fresh machine, then exits.
#   bootstrap.sh start   Debian packages the services use at run time + node packages
#   bootstrap.sh test    the same, plus what the test suite drives (nginx, docker-compose, ...)
#   bootstrap.sh bench   the same as test, plus what the benchmarks under bench/ use (wrk)
# Debian packages are listed in scripts/debian-packages*.txt (one per line, "#" comments); those in
# scripts/debian-packages-latest.txt are also kept at the newest version the archive has (data that goes
# stale, like the tz database), checked at most once a day.
set -euo pipefail
mode="${1:-start}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

wanted_packages() {
  local files=("scripts/debian-packages.txt")
  [ "$mode" = "test" ] || [ "$mode" = "bench" ] && files+=("scripts/debian-packages-test.txt")
  [ "$mode" = "bench" ] && files+=("scripts/debian-packages-bench.txt")
  sed -e 's/#.*//' "${files[@]}" | tr -s ' \t' '\n' | grep -v '^$' || true
}

install_debian_packages() {
  command -v dpkg-query >/dev/null 2>&1 || { echo "bootstrap: not a Debian system; install the packages in scripts/debian-packages*.txt yourself" >&2; return 0; }
  local missing=()
  for pkg in $(wanted_packages); do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      echo "bootstrap: missing Debian packages (${missing[*]}) and no root; services that need them will report not ready" >&2
      return 0
    fi
  fi
  echo "bootstrap: installing Debian packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

upgrade_latest_packages() {
  command -v apt-get >/dev/null 2>&1 || return 0
  [ "$(id -u)" -eq 0 ] || return 0
  local stamp=".tools/apt-latest-$(date +%F)"
  [ -f "$stamp" ] && return 0
  apt-get update -qq >&2 || return 0
  local stale=()
  for pkg in $(sed -e 's/#.*//' scripts/debian-packages-latest.txt | tr -s ' \t' '\n' | grep -v '^$'); do
    local policy installed candidate
    policy="$(apt-cache policy "$pkg")"
    installed="$(echo "$policy" | awk '/Installed:/ {print $2}')"
    candidate="$(echo "$policy" | awk '/Candidate:/ {print $2}')"
    [ -n "$candidate" ] && [ "$installed" != "$candidate" ] && stale+=("$pkg")
  done
  if [ ${#stale[@]} -gt 0 ]; then
    echo "bootstrap: upgrading to the newest ${stale[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${stale[@]}" >&2
  fi
  mkdir -p .tools && touch "$stamp"
}

install_node_packages() {
  # Native packages must not download anything at install time.
  export PUPPETEER_SKIP_DOWNLOAD=1 ONNXRUNTIME_NODE_INSTALL=skip
  local frozen="--frozen-lockfile"
  [ -f pnpm-lock.yaml ] || frozen=""
  bash scripts/pnpm.sh install $frozen --reporter=silent >&2 || bash scripts/pnpm.sh install $frozen >&2
}

install_debian_packages
upgrade_latest_packages
install_node_packages
