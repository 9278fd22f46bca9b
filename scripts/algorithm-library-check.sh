#!/bin/sh
# The GSQL algorithm library's own tests against a data-plane process (docs/data-plane.md,
# "The algorithm library's tests"). Options: scripts/algorithm-library-check.sh --help
set -e
cd "$(dirname "$0")/.."
exec node --import tsx scripts/algorithm-library-check.ts "$@"
