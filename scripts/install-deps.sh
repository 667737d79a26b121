#!/usr/bin/env bash
# Installs the Debian 12 packages rnnsearch needs to build and test, and nothing
# when they are all present. Safe to run again; used by the README commands and .ci/run.
# --bench adds what the side-by-side benchmarks run: the PyTorch implementation in
# shared/peer needs Debian's python3-torch (run with /usr/bin/python3); scripts/bench-scale.sh
# compares nmt-bpe with sentencepiece's spm_train and spm_encode; scripts/bench-aligners.sh
# builds and runs eflomal with numpy, Cython and Python's headers; scripts/bench-serve.sh
# loads nmt-serve with hey. --fuzz adds clang
# and its sanitizer runtimes for scripts/fuzz.sh.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libboost-program-options-dev libboost-serialization-dev libboost-test-dev
  # nmt-serve: JSON (header-only); its HTTP and WebSocket are Boost.Beast, in libboost1.74-dev
  nlohmann-json3-dev
  # ocl-icd-opencl-dev: libdnnl-dev only recommends it, but its CMake config fails without it
  libicu-dev libeigen3-dev libopenblas-dev libdnnl-dev ocl-icd-opencl-dev
  libboost-mpi-dev openmpi-bin
  # scripts/code-size.sh (ctest code_size) reads function lengths with universal-ctags
  universal-ctags
  # qemu-x86_64 runs the tools as CPUs without AVX or AVX-512 would (ctest cpu_isa, cpu_guard)
  qemu-user
  # the Debian package (cmake --build build --target deb, ctest deb_package): CPack reads
  # the tools' libraries with file and dpkg-shlibdeps; groff renders a packaged man page
  dpkg-dev file groff-base
  # the recipes find and end their children on a signal with ps (pipelines/common.sh)
  procps
)
for option in "$@"; do
  case $option in
    --bench) packages+=(python3-torch sentencepiece python3-numpy cython3 python3-dev hey) ;;
    # libFuzzer and the sanitizer runtimes ship in libclang-rt-14-dev; clang's OpenMP
    # (for oneDNN builds) in libomp-14-dev.
    --fuzz) packages+=(clang libclang-rt-14-dev libomp-14-dev) ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
