#!/bin/sh
# Starts the bridge as the unprivileged `node` user. In the add-on, /data is a root-owned mount and
# the Supervisor rewrites options.json (root, 0600) before every start, so ownership is handed over
# on every start, not once at build time. Run with --user (not root), there is nothing to hand over.
set -eu

data_dir="${REWARD_FACTS_DATA_DIR:-/data}"

if [ "$(id -u)" = "0" ]; then
  if [ -d "$data_dir" ]; then
    chown -R node:node "$data_dir"
  fi
  exec su-exec node:node "$@"
fi

exec "$@"
