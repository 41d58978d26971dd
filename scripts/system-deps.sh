#!/usr/bin/env bash
# The system tools the test suite (and the bench) run, in one place, and the check that they are
# there. `npm test` runs it first (package.json), and CI (.ci/run) before anything else: one list,
# one check, on a developer's machine and on a fresh CI machine alike.
#
# - Everything there: exit 0 at once, silent (it runs before every `npm test`, so no apt-get then).
# - Something missing, root, apt-get at hand: install only what is missing, quietly, check again.
# - Otherwise: exit 1 with one line saying what is missing and the command that installs it.
#
# The FUSE slow-disk tests also need the device /dev/fuse, which no package brings.
# SCOREBRIDGE_WITHOUT_FUSE=1 opts out of them: their packages and the device are not required
# here, and the tests skip (scripts/support/slow-disk.ts), also in CI.
#
# For test/preflight/system-deps.test.ts, which plays machines that lack tools:
#   SCOREBRIDGE_DEPS_ROOT=DIR       prefix of the absolute paths checked (DIR/usr/sbin/mosquitto, DIR/dev/fuse)
#   SCOREBRIDGE_DEPS_PATH=DIRS      the PATH in which commands are looked up (default: $PATH)
#   SCOREBRIDGE_DEPS_NO_INSTALL=1   never install or load a module, as when not root
set -uo pipefail

prefix="${SCOREBRIDGE_DEPS_ROOT:-}"
lookup_path="${SCOREBRIDGE_DEPS_PATH:-$PATH}"
without_fuse=""
if [[ "${SCOREBRIDGE_WITHOUT_FUSE:-}" == 1 ]]; then without_fuse=1; fi

# Debian package, then what proves it is installed: a command looked up on the PATH (the tests
# spawn it by name), an absolute path that must be executable (the tests spawn that path), or
# python:MODULE, a module /usr/bin/python3 must import, or file:PATH, a file that must be there
# (a library, which need not be executable).
deps=(
  # pseudo-terminal pairs standing in for serial cables (scripts/support/pty.ts)
  "socat socat"
  # the MQTT broker the tests start on free loopback ports (scripts/support/mosquitto.ts)
  "mosquitto /usr/sbin/mosquitto"
  # the unit file's verify/security tests, and the daemon's readiness and watchdog notifications
  "systemd systemd-analyze systemd-notify"
  # boots this machine's systemd as PID 1 of a throw-away container, for the package's units
  # under a real systemd (scripts/support/systemd-container.ts)
  "systemd-container systemd-nspawn"
  # runs slowfs.py and the power-cut disk's ext4 shutdown; also the notify tests' datagram receiver
  "python3 /usr/bin/python3"
  # headless browser for the status page and timeline tests (playwright-core brings none)
  "chromium /usr/bin/chromium"
  # the slow disk's mount point: unmounted with fusermount (scripts/support/slow-disk.ts)
  "fuse fusermount"
  # the slow disk itself, scripts/support/slowfs.py (Debian names the module fusepy)
  "python3-fusepy python:fusepy"
  # the slow disk's block mode (ext4 on a loop device); Debian 12 ships these three in "mount".
  # losetup and mkfs.ext4 by path: /usr/sbin is on root's PATH (that mode needs root) but often
  # not on a user's, whose npm test must not be told to install what is there.
  "mount /usr/sbin/losetup mount umount"
  "e2fsprogs /usr/sbin/mkfs.ext4"
  # the read-only and full state-directory tests (a tmpfs in a private mount namespace)
  "util-linux unshare nsenter"
  # the fleet: promtool checks and unit-tests the alerting rules (test/fleet/alert-rules.test.ts),
  # and the fleet tests run Prometheus (an agent at the venue, the office's server) ...
  "prometheus promtool prometheus"
  # ... and the Alertmanager the office's Prometheus sends its alerts to
  "prometheus-alertmanager prometheus-alertmanager"
  # the fleet's apt repository: apt-ftparchive indexes it (deploy/apt/scorebridge-repo.sh), xz
  # compresses its Packages.xz, and gpg makes the test's archive key and signs it
  # (test/fleet/apt-repository.test.ts)
  "apt-utils apt-ftparchive"
  "xz-utils xz"
  "gpg gpg"
  # the venue's packages: dpkg-deb builds them (scripts/package.ts), readelf reads their ELF files'
  # machine and glibc needs, and dpkg installs them into throw-away roots (test/package/)
  "dpkg dpkg-deb dpkg"
  "binutils readelf"
  # the arm64 package's Node and serialport binding run under emulation, with Debian's arm64 C
  # and C++ libraries as their sysroot (test/package/arm64-under-qemu.test.ts)
  "qemu-user qemu-aarch64"
  "libc6-arm64-cross file:/usr/aarch64-linux-gnu/lib/libc.so.6"
  "libstdc++6-arm64-cross file:/usr/aarch64-linux-gnu/lib/libstdc++.so.6"
)
fuse_packages=" fuse python3-fusepy "

on_lookup_path() {
  local dir dirs
  IFS=: read -ra dirs <<<"$lookup_path"
  for dir in "${dirs[@]}"; do
    if [[ -f "${dir:-.}/$1" && -x "${dir:-.}/$1" ]]; then return 0; fi
  done
  return 1
}

present() {
  case "$1" in
    python:*) "$prefix/usr/bin/python3" -c "import ${1#python:}" >/dev/null 2>&1 ;;
    file:*) [[ -f "$prefix${1#file:}" && -r "$prefix${1#file:}" ]] ;;
    /*) [[ -f "$prefix$1" && -x "$prefix$1" ]] ;;
    *) on_lookup_path "$1" ;;
  esac
}

# Sets `missing` to the packages with a proof that fails.
check() {
  local entry package proofs proof
  missing=()
  for entry in "${deps[@]}"; do
    read -r package proofs <<<"$entry"
    if [[ -n "$without_fuse" && "$fuse_packages" == *" $package "* ]]; then continue; fi
    for proof in $proofs; do
      if ! present "$proof"; then
        missing+=("$package")
        break
      fi
    done
  done
}

# Root (id -u, not $EUID: the test stands in an `id`) with apt-get: we may install. Never when
# told not to.
can_install() {
  [[ -z "${SCOREBRIDGE_DEPS_NO_INSTALL:-}" && "$(id -u)" == 0 ]] && command -v apt-get >/dev/null
}

sudo_=""
if [[ "$(id -u)" != 0 ]]; then sudo_="sudo "; fi

check
if ((${#missing[@]} > 0)); then
  why="missing"
  if can_install; then
    echo "system-deps: installing ${missing[*]}" >&2
    log=$(mktemp -t scorebridge-apt.XXXXXX.log)
    # --no-remove: a test run may add packages, never take any away (fuse, for one, breaks fuse3).
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-remove "${missing[@]}" >>"$log" 2>&1; then
      rm -f "$log"
    else
      why="missing; apt-get failed, its output is in $log"
    fi
    check
  fi
  if ((${#missing[@]} > 0)); then
    list="${missing[*]}"
    pronoun=them
    if ((${#missing[@]} == 1)); then pronoun=it; fi
    echo "npm test needs ${list// /, } ($why): install $pronoun with: ${sudo_}apt-get install -y ${list}" >&2
    exit 1
  fi
fi

# /dev/fuse: the kernel's FUSE device, needed read-write (as scripts/support/slow-disk.ts checks it).
fuse_usable() { [[ -r "$prefix/dev/fuse" && -w "$prefix/dev/fuse" ]]; }
if [[ -z "$without_fuse" ]] && ! fuse_usable; then
  if can_install && command -v modprobe >/dev/null; then modprobe fuse >/dev/null 2>&1; fi
  if ! fuse_usable; then
    echo "npm test needs /dev/fuse (missing or not read-writable) for the FUSE slow-disk tests: load the module (${sudo_}modprobe fuse), or run the container with --device /dev/fuse --cap-add SYS_ADMIN; or set SCOREBRIDGE_WITHOUT_FUSE=1 to run the suite with those tests skipped" >&2
    exit 1
  fi
fi
exit 0
