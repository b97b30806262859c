#!/usr/bin/env bash
# Installs what the tests of docs/schema.md's examples need, idempotently:
# Debian's sqlite3 command and python3-pandas (with NumPy), for
# /usr/bin/python3; and DuckDB, as its Node.js client @duckdb/node-api from
# npm (which ships the engine prebuilt for linux-x64; PyPI, where the Python
# client lives, is not reachable from the build machines), in
# $CCSWEEP_DUCKDB (default /usr/local/lib/ccsweep-duckdb), with Debian's
# nodejs to run it.
set -euo pipefail

need=()
command -v sqlite3 >/dev/null || need+=(sqlite3)
/usr/bin/python3 -c 'import pandas' 2>/dev/null || need+=(python3-pandas)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "${need[@]}" ||
		{ apt-get update && apt-get install -y --no-install-recommends "${need[@]}"; }
fi

duckdb=${CCSWEEP_DUCKDB:-/usr/local/lib/ccsweep-duckdb}
version=1.5.6-r.1 # @duckdb/node-api, DuckDB 1.5.6
if [ ! -f "$duckdb/node_modules/@duckdb/node-api/package.json" ] ||
	! grep -q "\"version\": \"$version\"" "$duckdb/node_modules/@duckdb/node-api/package.json"; then
	mkdir -p "$duckdb"
	npm install --prefix "$duckdb" --no-audit --no-fund --loglevel=error "@duckdb/node-api@$version"
fi
