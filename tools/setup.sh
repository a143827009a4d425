#!/bin/sh
# Installs every Debian package mc's build and tests need (Debian 12). Run it as root, or as a
# user who may use sudo: it calls apt-get through sudo only when it is not root.
set -e
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "tools/setup.sh: not root and no sudo: run it as root" >&2
    exit 1
  fi
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential clang pkg-config libcjson-dev tcc libtcc-dev check libsubunit-dev \
  libdlpack-dev python3 python3-torch python3-torchvision python3-numpy graphviz \
  libopenblas-dev valgrind libclang-rt-14-dev cmake ninja-build \
  gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-s390x-linux-gnu gcc-12-multilib \
  libc6-dev-arm64-cross libc6-dev-armhf-cross libc6-dev-s390x-cross qemu-user \
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
