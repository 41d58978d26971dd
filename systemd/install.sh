#!/usr/bin/env bash
# Installs scorebridge as a systemd service on a venue mini-PC, or removes it.
#
#   sudo systemd/install.sh [--token-file FILE] [--example FILE]   install or upgrade, enable, (re)start
#   sudo systemd/install.sh --uninstall [--purge]                   remove; --purge also config and outbox
#
# The token is read from --token-file, else from stdin (a pipe, or typed without echo at a
# terminal when none is stored yet). It is never a command-line argument: those show in `ps`.
#
# A fleet's venue also sends its metrics to the office (docs/fleet.md), outbound only:
#
#   sudo systemd/install.sh --prometheus-agent URL --venue NAME --remote-write-password-file FILE
#
#   runs systemd/prometheus-agent-setup.sh: deploy/prometheus/agent.yml as /etc/scorebridge/prometheus-agent.yml
#   (remote write to URL, user NAME), the password as a root-only credential, and scorebridge-prometheus-agent.service
#   (Debian's prometheus package, in agent mode). Leaving them out later keeps what was installed.
#
#   --root DIR   prefix every path with DIR and call no systemctl: for tests and image builds
#   --skip-npm   do not run npm (`npm ci` brings the pinned Node 24 and builds dist/; then dev tools are pruned)
#   --dry-run    print each action instead of doing it
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

root=""
dry_run=""
skip_npm=""
uninstall=""
purge=""
token_file=""
example="$repo/config/daktronics-basketball-usb.yaml"
agent_url=""
venue=""
remote_write_password_file=""

usage() { sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "install.sh: $*" >&2; exit 1; }

while (($# > 0)); do
  case "$1" in
    --root) root=${2:?--root needs a directory}; shift ;;
    --dry-run) dry_run=1 ;;
    --skip-npm) skip_npm=1 ;;
    --uninstall) uninstall=1 ;;
    --purge) purge=1 ;;
    --token-file) token_file=${2:?--token-file needs a file}; shift ;;
    --example) example=${2:?--example needs a config file}; shift ;;
    --prometheus-agent) agent_url=${2:?--prometheus-agent needs the remote-write URL of the office}; shift ;;
    --venue) venue=${2:?--venue needs the name of the venue}; shift ;;
    --remote-write-password-file) remote_write_password_file=${2:?--remote-write-password-file needs a file}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done
[[ -n "$purge" && -z "$uninstall" ]] && die "--purge only goes with --uninstall"
agent_setup=()
if [[ -n "$agent_url" ]]; then
  [[ -n "$remote_write_password_file" ]] || die "--prometheus-agent needs --remote-write-password-file FILE (the office's password for this venue)"
  agent_setup=(bash "$here/prometheus-agent-setup.sh" --url "$agent_url" ${venue:+--venue "$venue"} --password-file "$remote_write_password_file"
    --unit "$here/scorebridge-prometheus-agent.service" ${root:+--root "$root"} ${dry_run:+--dry-run})
  # Its refusals come now, before anything is installed.
  "${agent_setup[@]}" --check
elif [[ -n "$venue" || -n "$remote_write_password_file" ]]; then
  die "--venue and --remote-write-password-file go with --prometheus-agent URL"
fi
[[ -n "$root" ]] && root=$(cd "$root" && pwd)
if [[ -z "$root" && -z "$dry_run" && $EUID -ne 0 ]]; then die "run as root (or with --root DIR / --dry-run)"; fi

opt="$root/opt/scorebridge"
etc="$root/etc/scorebridge"
credentials="$etc/credentials"
token_path="$credentials/token"
unit="$root/etc/systemd/system/scorebridge.service"
agent_unit="$root/etc/systemd/system/scorebridge-prometheus-agent.service"
# The setup page's unit (`sudo scorebridge setup` starts it, as user scorebridge-setup) and the two fixed
# privileged steps a save may set off: the reload (config.yaml) and the restart (the token). As the package ships them.
setup_units=(scorebridge-setup.service scorebridge-reload.path scorebridge-reload.service scorebridge-token.path scorebridge-token.service)
path_units=(scorebridge-reload.path scorebridge-token.path)
setup_user=scorebridge-setup
# The commissioning commands (sniff, doctor, capture …) are typed at the venue: put them on PATH.
command_link="$root/usr/local/bin/scorebridge"
# DynamicUser keeps the state under /var/lib/private, with /var/lib/scorebridge a link to it.
state_dirs=("$root/var/lib/scorebridge" "$root/var/lib/private/scorebridge")

# Every change goes through here, so --dry-run shows exactly what a real run does.
run() {
  echo "+ $*"
  [[ -n "$dry_run" ]] || "$@"
}

systemctl_() {
  if [[ -n "$root" ]]; then echo "(--root: skipped) systemctl $*"; else run systemctl "$@"; fi
}

# The page's own system user (no home, no shell), as the package's postinst makes it; under --root only
# when that root has a passwd of its own (an image build).
make_setup_user() {
  if [[ -n "$root" ]]; then
    [[ -f "$root/etc/passwd" ]] || return 0
    grep -q "^$setup_user:" "$root/etc/passwd" && return 0
    run useradd --prefix "$root" --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$setup_user"
  else
    getent passwd "$setup_user" >/dev/null && return 0
    run useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$setup_user"
  fi
}

# The page writes the config, its kept versions, the change journal and the token as that user, so it owns them;
# the config stays 0644 (the daemon's DynamicUser reads it), the token 0600 (systemd reads it for the daemon).
own_setup_files() {
  local owner
  owner=$(grep "^$setup_user:" "$root/etc/passwd" 2>/dev/null | cut -d: -f3,4 || true)
  [[ -n "$owner" ]] || return 0
  run chown "$owner" "$etc" "$credentials"
  for file in "$etc/config.yaml" "$etc/config-changes.log" "$token_path" "$credentials/token.origin"; do
    if [[ -f "$file" ]]; then run chown "$owner" "$file"; fi
  done
  if [[ -d "$etc/config.yaml.previous" ]]; then run chown -R "$owner" "$etc/config.yaml.previous"; fi
}

if [[ -n "$uninstall" ]]; then
  if [[ -z "$root" ]]; then systemctl_ disable --now scorebridge.service "${path_units[@]}" || true; fi
  if [[ -z "$root" ]]; then systemctl_ stop scorebridge-setup.service || true; fi
  if [[ -z "$root" && -f "$agent_unit" ]]; then systemctl_ disable --now scorebridge-prometheus-agent.service || true; fi
  run rm -f "$unit" "$agent_unit" "${setup_units[@]/#/$root/etc/systemd/system/}" "$root/run/scorebridge-setup.env"
  # Only our own link: a scorebridge installed there by other means is not ours to remove.
  if [[ "$(readlink "$command_link" 2>/dev/null)" == /opt/scorebridge/bin/scorebridge ]]; then run rm -f "$command_link"; fi
  systemctl_ daemon-reload
  run rm -rf "$opt"
  if [[ -n "$purge" ]]; then
    run rm -rf "$etc" "${state_dirs[@]}"
    if [[ -z "$root" ]] && getent passwd "$setup_user" >/dev/null; then run userdel "$setup_user" || true; fi
  else
    echo "kept: $etc (config, token) and ${state_dirs[0]} (outbox); --purge removes them"
  fi
  exit 0
fi

# --- the token: read before changing anything, so a missing token leaves the machine as it was ---
token=""
if [[ -n "$token_file" ]]; then
  token=$(<"$token_file")
elif [[ ! -t 0 ]]; then
  token=$(cat)
elif [[ ! -f "$token_path" ]]; then
  read -r -s -p "Event Highlights Service API token (not shown): " token
  echo
fi
# Same rule as the daemon: trimmed, one printable word (it goes into an HTTP header as is).
token="${token#"${token%%[![:space:]]*}"}"
token="${token%"${token##*[![:space:]]}"}"
if [[ -n "$token" && "$token" =~ [^[:graph:]] ]]; then die "the token contains spaces or control characters; give only the token"; fi
if [[ -z "$token" && ! -f "$token_path" ]]; then die "no token given and none stored: use --token-file FILE or pipe it on stdin"; fi

# --- program files: world-readable, root-owned; the service's dynamic user only reads them ---
umask 022
run install -d -m 0755 "$opt"
# simulator/: the `demo` and `sim` commands load it (the bundle that npm ci builds has it as a chunk).
for item in bin src adapters simulator config systemd deploy scripts package.json package-lock.json README.md docs; do
  run rm -rf "${opt:?}/$item"
  run cp -R "$repo/$item" "$opt/$item"
done
if [[ -z "$skip_npm" ]]; then
  # Full install first: its prepare script bundles dist/scorebridge.mjs with the dev-only esbuild.
  run npm --prefix "$opt" ci --no-audit --no-fund
  run npm --prefix "$opt" prune --omit=dev --no-audit --no-fund
fi

# The link names the path the running system will have, also under --root (an image build).
run install -d -m 0755 "$(dirname "$command_link")"
run ln -sfn /opt/scorebridge/bin/scorebridge "$command_link"

# --- config: written once from the example, never overwritten (it is the venue's) ---
run install -d -m 0755 "$etc"
config_created=""
if [[ -f "$etc/config.yaml" ]]; then
  echo "kept: $etc/config.yaml"
else
  run install -m 0644 "$example" "$etc/config.yaml"
  config_created=1
fi
# The example score-bug template that two-courts.yaml points its templateFile at.
if [[ ! -f "$etc/scorebug.html" ]]; then
  run install -m 0644 "$repo/config/scorebug.html" "$etc/scorebug.html"
fi

# --- token: root-only; systemd hands it to the service through LoadCredential= ---
umask 077
run install -d -m 0700 "$credentials"
if [[ -n "$token" ]]; then
  echo "+ write the token to $token_path (mode 0600)"
  if [[ -z "$dry_run" ]]; then
    printf '%s\n' "$token" >"$token_path.new"
    chmod 0600 "$token_path.new"
    mv -f "$token_path.new" "$token_path"
  fi
else
  echo "kept: $token_path"
fi
token=""
umask 022

# --- the setup page's user and what it writes ---
make_setup_user
own_setup_files

# --- the units ---
run install -d -m 0755 "$(dirname "$unit")"
run install -m 0644 "$here/scorebridge.service" "$unit"
for setup_unit in "${setup_units[@]}"; do run install -m 0644 "$here/$setup_unit" "$root/etc/systemd/system/$setup_unit"; done
systemctl_ daemon-reload
systemctl_ enable scorebridge.service "${path_units[@]}"
# restart, not start: an upgrade must run the new files.
systemctl_ restart "${path_units[@]}"
systemctl_ restart scorebridge.service

# --- the Prometheus agent (a fleet's venue): config and credential written on every run that names it ---
if ((${#agent_setup[@]} > 0)); then "${agent_setup[@]}"; fi

if [[ -n "$config_created" ]]; then
  echo "NOTE: $etc/config.yaml is the example; edit it for this venue, check it with"
  echo "      scorebridge check --config /etc/scorebridge/config.yaml"
  echo "      then: systemctl reload scorebridge"
fi
