#!/usr/bin/env bash
# README command 2 (and all of .ci/run): install the Debian packages, configure,
# build, and run every test registered with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
