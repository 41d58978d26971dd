#!/usr/bin/env bash
# Turns on a fleet venue's Prometheus agent: the bridge's metrics go to the office (docs/fleet.md), outbound only.
#
#   sudo scorebridge-prometheus-agent-setup --url URL --venue NAME --password-file FILE    (the Debian package)
#   sudo systemd/prometheus-agent-setup.sh --url URL --venue NAME --password-file FILE     (a checkout)
#
#   writes /etc/scorebridge/prometheus-agent.yml from the template (remote write to URL, user NAME) and the
#   password as a root-only credential, then enables and (re)starts scorebridge-prometheus-agent.service
#   (Debian's prometheus package, in agent mode). Run it again to change any of them.
#
#   --agent-config FILE  the template; by default deploy/prometheus/agent.yml of the checkout this script is in,
#                        or /usr/share/scorebridge/deploy/prometheus/agent.yml when the package installed it
#   --unit FILE          also install this unit as /etc/systemd/system/scorebridge-prometheus-agent.service
#                        (systemd/install.sh does; the package has the unit in /lib/systemd/system already)
#   --root DIR           prefix every path with DIR and call no systemctl: for tests and image builds
#   --dry-run            print each action instead of doing it
#   --check              only check the arguments and change nothing (install.sh, before it installs anything)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
me=${0##*/}

root=""
dry_run=""
check_only=""
url=""
venue=""
password_file=""
template=""
unit_file=""

usage() { sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "$me: $*" >&2; exit 1; }

while (($# > 0)); do
  case "$1" in
    --url) url=${2:?--url needs the remote-write URL of the office}; shift ;;
    --venue) venue=${2:?--venue needs the name of the venue}; shift ;;
    --password-file) password_file=${2:?--password-file needs a file}; shift ;;
    --agent-config) template=${2:?--agent-config needs the agent.yml template}; shift ;;
    --unit) unit_file=${2:?--unit needs a unit file}; shift ;;
    --root) root=${2:?--root needs a directory}; shift ;;
    --dry-run) dry_run=1 ;;
    --check) check_only=1 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done
[[ "$url" =~ ^https?://[^[:space:]\'\"]+$ ]] || die "--url needs an http(s) URL, e.g. https://prometheus.example.com/api/v1/write"
[[ "$venue" =~ ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$ ]] || die "the agent needs --venue NAME (1–64 letters, digits, '.', '_' or '-'; the config's venue:)"
[[ -n "$password_file" ]] || die "the agent needs --password-file FILE (the office's password for this venue)"
[[ -r "$password_file" ]] || die "cannot read $password_file"
if [[ -z "$root" ]] && ! command -v prometheus >/dev/null; then die "the agent is Debian's prometheus: apt-get install prometheus (then run this again)"; fi
if [[ -z "$template" ]]; then
  # A checkout (or install.sh's /opt/scorebridge) has deploy/ beside systemd/; the package puts this
  # script in /usr/sbin and deploy/ in /usr/share/scorebridge.
  for candidate in "$here/../deploy/prometheus/agent.yml" "$here/../share/scorebridge/deploy/prometheus/agent.yml"; do
    if [[ -f "$candidate" ]]; then template=$(cd "$(dirname "$candidate")" && pwd)/agent.yml; break; fi
  done
  [[ -n "$template" ]] || die "no agent.yml template beside $here: give --agent-config FILE (deploy/prometheus/agent.yml)"
fi
[[ -r "$template" ]] || die "cannot read the template $template"
[[ -z "$unit_file" || -r "$unit_file" ]] || die "cannot read the unit $unit_file"
[[ -z "$check_only" ]] || exit 0
[[ -n "$root" ]] && root=$(cd "$root" && pwd)
if [[ -z "$root" && -z "$dry_run" && $EUID -ne 0 ]]; then die "run as root (or with --root DIR / --dry-run)"; fi

etc="$root/etc/scorebridge"
credentials="$etc/credentials"
agent_unit="$root/etc/systemd/system/scorebridge-prometheus-agent.service"

# Every change goes through here, so --dry-run shows exactly what a real run does.
run() {
  echo "+ $*"
  [[ -n "$dry_run" ]] || "$@"
}

systemctl_() {
  if [[ -n "$root" ]]; then echo "(--root: skipped) systemctl $*"; else run systemctl "$@"; fi
}

# Directories the package or install.sh made keep their modes; these are only for a bare root.
umask 022
[[ -d "$etc" ]] || run install -d -m 0755 "$etc"
[[ -d "$credentials" ]] || run install -d -m 0700 "$credentials"

# Config and credential are written on every run: a second run is how a venue changes URL, name or password.
echo "+ write $etc/prometheus-agent.yml (remote write to $url as $venue)"
if [[ -z "$dry_run" ]]; then
  # sed would read '&' (a query string's) as the matched text, and '|' or '\' as its own syntax.
  url_replacement=${url//\\/\\\\}
  url_replacement=${url_replacement//&/\\&}
  url_replacement=${url_replacement//|/\\|}
  sed -e "s|https://prometheus.example.com/api/v1/write|$url_replacement|" -e "s|username: VENUE |username: $venue |" \
    "$template" >"$etc/prometheus-agent.yml.new"
  chmod 0644 "$etc/prometheus-agent.yml.new"
  mv -f "$etc/prometheus-agent.yml.new" "$etc/prometheus-agent.yml"
fi
umask 077
echo "+ write the remote-write password to $credentials/remote-write-password (mode 0600)"
if [[ -z "$dry_run" ]]; then
  tr -d '\r\n' <"$password_file" >"$credentials/remote-write-password.new"
  mv -f "$credentials/remote-write-password.new" "$credentials/remote-write-password"
fi
umask 022
if [[ -n "$unit_file" ]]; then
  [[ -d "$(dirname "$agent_unit")" ]] || run install -d -m 0755 "$(dirname "$agent_unit")"
  run install -m 0644 "$unit_file" "$agent_unit"
fi
systemctl_ daemon-reload
systemctl_ enable scorebridge-prometheus-agent.service
# restart, not start: a second run must load the new config.
systemctl_ restart scorebridge-prometheus-agent.service
echo "NOTE: Debian's own prometheus.service (a full server on :9090) is not needed at a venue:"
echo "      systemctl disable --now prometheus"
