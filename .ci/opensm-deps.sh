#!/usr/bin/env bash
# Installs what the OpenSM oracle (model/fabric/opensm_oracle_test.go,
# .ci/opensm-oracle.sh) needs, idempotently: Debian's opensm (the subnet
# manager, /usr/sbin/opensm) and ibsim-utils (the fabric simulator ibsim and
# its libumad2sim.so, through which OpenSM talks to it).
set -euo pipefail
if command -v ibsim >/dev/null && [ -x /usr/sbin/opensm ]; then
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends opensm ibsim-utils ||
	{ apt-get update && apt-get install -y --no-install-recommends opensm ibsim-utils; }
