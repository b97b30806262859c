#!/usr/bin/env bash
# Installs what the tests of docs/schema.md's examples need, idempotently:
# Debian's sqlite3 command and python3-pandas (with NumPy), for
# /usr/bin/python3. (DuckDB's example is not tested: no package of it is
# reachable from the build machines.)
set -euo pipefail

if ! command -v sqlite3 >/dev/null || ! /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends sqlite3 python3-pandas ||
		{ apt-get update && apt-get install -y --no-install-recommends sqlite3 python3-pandas; }
fi
