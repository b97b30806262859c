#!/usr/bin/env bash
# Installs what the report's browser tests need, idempotently: Debian's
# chromium at /usr/bin/chromium (apt-get). The chart scripts (echarts and
# echarts-gl) ship with ccsweep in report/assets/ and need no download.
set -euo pipefail

if [ ! -x /usr/bin/chromium ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends chromium ||
		{ apt-get update && apt-get install -y --no-install-recommends chromium; }
fi
