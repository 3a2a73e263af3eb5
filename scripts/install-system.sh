#!/usr/bin/env bash
# The Debian packages play's lab, tests and build need, installed as root (the README's first command and
# .ci/run both run this). Safe to run again: what is there is kept.
#   openssh-server/-client, iproute2, util-linux, procps: the lab's hosts; keepalived: ToR hosts;
#   ansible-core: the oracle for host patterns, ansible-inventory and ansible-vault; prometheus: promtool
#   checks play drift --metrics; sudo: the lab's become users; strace: the state store's crash matrix;
#   sqlite3: the oracle reading the store beside play; python3, make, g++: better-sqlite3 compiles SQLite
#   at npm ci (.npmrc); postgresql, openssl: the PostgreSQL store's tests start private servers; zsh: the
#   test that `play completion zsh` parses.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  openssh-server openssh-client iproute2 util-linux procps keepalived ansible-core prometheus sudo strace sqlite3 \
  python3 make g++ postgresql openssl zsh >/dev/null
# The lab's control host runs the real kubectl against the Kubernetes API double: Debian's
# kubernetes-client where the machine has no kubectl (one that is there is kept: it is the newer client).
command -v kubectl >/dev/null || apt-get install -y -qq --no-install-recommends kubernetes-client >/dev/null
# Debian's kubectl 1.20 as a second client for the drain matrix (test/lab/cluster/drain-clients.test.ts),
# unpacked beside the other, not installed.
d=/var/cache/play-ci/kubernetes-client
if [ ! -x "$d/usr/bin/kubectl" ]; then
  mkdir -p "$d"
  (cd "$d" && apt-get download kubernetes-client >/dev/null && dpkg -x kubernetes-client_*.deb . && rm -f kubernetes-client_*.deb)
fi
