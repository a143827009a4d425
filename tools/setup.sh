#!/bin/sh
# Installs every Debian package mc's build and tests need (Debian 12).
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  build-essential clang pkg-config libcjson-dev tcc libtcc-dev check libsubunit-dev \
  libdlpack-dev python3 python3-torch python3-torchvision python3-numpy graphviz \
  libopenblas-dev valgrind libclang-rt-14-dev cmake ninja-build
