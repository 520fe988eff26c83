#!/bin/sh
# Starts Chromium in a network namespace of its own, used by src/domain/browser-network.ts when `unshare --net`
# works (root, or a container allowed to create namespaces). The namespace has only its loopback, where
# netns-relay.mjs leads 127.0.0.1:$PDF_PROXY_PORT to the service's forward proxy over a Unix socket: Chromium has
# no route to anything else, even if it ignored its proxy settings.
# Environment: PDF_CHROMIUM (the real binary), PDF_PROXY_PORT, PDF_PROXY_SOCKET, PDF_RELAY_READY (a file the relay
# creates once it listens), PDF_NODE (the node binary). Arguments: Chromium's.
set -eu
if [ -z "${PDF_IN_NETNS:-}" ]; then
  PDF_IN_NETNS=1 exec unshare --net -- "$0" "$@"
fi
ip link set lo up
"$PDF_NODE" "$(dirname "$0")/netns-relay.mjs" "$PDF_PROXY_PORT" "$PDF_PROXY_SOCKET" "$PDF_RELAY_READY" &
tries=0
while [ ! -e "$PDF_RELAY_READY" ]; do
  tries=$((tries + 1))
  if [ "$tries" -gt 500 ]; then echo "netns relay did not start" >&2; exit 1; fi
  sleep 0.02
done
exec "$PDF_CHROMIUM" "$@"
