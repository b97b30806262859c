#!/usr/bin/env bash
# Installs what the report's browser tests need, idempotently:
#   - Debian's chromium at /usr/bin/chromium (apt-get), and
#   - the pinned echarts and echarts-gl bundles from npm, copied as
#     echarts.min.js and echarts-gl.min.js into $CCSWEEP_ASSETS
#     (default $HOME/.cache/ccsweep/assets).
# The versions must match report.EChartsVersion and report.EChartsGLVersion.
set -euo pipefail

ECHARTS_VERSION=5.6.0
ECHARTS_GL_VERSION=2.0.9
assets="${CCSWEEP_ASSETS:-$HOME/.cache/ccsweep/assets}"

if [ ! -x /usr/bin/chromium ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends chromium ||
		{ apt-get update && apt-get install -y --no-install-recommends chromium; }
fi

stamp="$assets/.versions"
want="echarts@$ECHARTS_VERSION echarts-gl@$ECHARTS_GL_VERSION"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	[ -s "$assets/echarts.min.js" ] && [ -s "$assets/echarts-gl.min.js" ]; then
	exit 0
fi
mkdir -p "$assets"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
	cd "$work"
	npm pack --silent "echarts@$ECHARTS_VERSION" "echarts-gl@$ECHARTS_GL_VERSION" >/dev/null
	mkdir echarts echarts-gl
	tar -xzf "echarts-$ECHARTS_VERSION.tgz" -C echarts --strip-components=1
	tar -xzf "echarts-gl-$ECHARTS_GL_VERSION.tgz" -C echarts-gl --strip-components=1
)
cp "$work/echarts/dist/echarts.min.js" "$work/echarts-gl/dist/echarts-gl.min.js" "$assets/"
echo "$want" >"$stamp"
echo "report assets in $assets: $want"
