#!/usr/bin/env bash
# The fleet's signed apt repository, in two rings: venues on `canary` take a version first, the
# others follow once it is promoted to `stable` (docs/fleet.md). The repository is a plain
# directory any web server can serve; the signing key stays in the office's GnuPG home.
#
#   scorebridge-repo.sh publish --repo DIR --suite canary|stable SIGNER DEB...
#       add the .debs (amd64, arm64 or all) to the pool and to that suite, re-index it, sign it
#   scorebridge-repo.sh promote --repo DIR --version V [--package NAME] SIGNER
#       copy exactly version V of the package (every architecture) from canary into stable
#   scorebridge-repo.sh withdraw --repo DIR --suite canary|stable --version V [--package NAME] SIGNER
#       take version V out of a suite (its .debs stay in the pool: the other suite may list them)
#   scorebridge-repo.sh resign --repo DIR [--suite canary|stable] SIGNER
#       sign the suites again with a fresh Date and Valid-Until, unchanged otherwise (run it weekly)
#   scorebridge-repo.sh list --repo DIR [--suite canary|stable]
#       one line a package: suite, package, version, architecture
#
#   SIGNER is --key KEYID (a secret key in $GNUPGHOME, else ~/.gnupg; KEYID! for one subkey) and/or
#   --keyring FILE (an exported secret key, imported into a throw-away GnuPG home for this run).
#   --valid-days N   Valid-Until this many days after signing (default 30; 0: no Valid-Until).
#                    Signing time is now, or SOURCE_DATE_EPOCH when set (reproducible builds).
#   --replace-keyring   sign with a key the published keyring does not hold (a key rotation: the
#                    venues must have the new keyring first, or they refuse every update)
#
# Layout: dists/<suite>/{InRelease,Release,Release.gpg}, dists/<suite>/main/binary-<arch>/Packages
# (.gz, .xz), pool/main/<p>/<package>/<package>_<version>_<arch>.deb, and the public key as
# scorebridge-archive-keyring.gpg (binary, for signed-by). A suite's Packages files are the record of
# what it holds: there is no other state. Each suite is built beside the live one and swapped in.
set -euo pipefail
umask 022

suites=(canary stable)
architectures=(amd64 arm64)
keyring_name=scorebridge-archive-keyring.gpg

usage() { sed -n '2,28s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "scorebridge-repo: $*" >&2; exit 1; }
usage_error() { echo "scorebridge-repo: $*" >&2; echo "(scorebridge-repo.sh --help shows the commands)" >&2; exit 2; }

command=""
repo=""
suite=""
version=""
package=scorebridge
key=""
keyring=""
valid_days=30
replace_keyring=""
debs=()

if (($# == 0)); then usage; exit 2; fi
case "$1" in
  -h | --help | help) usage; exit 0 ;;
  publish | promote | withdraw | resign | list) command=$1; shift ;;
  *) usage_error "unknown command '$1'" ;;
esac
while (($# > 0)); do
  case "$1" in
    --repo) repo=${2:?--repo needs a directory}; shift 2 ;;
    --suite) suite=${2:?--suite needs canary or stable}; shift 2 ;;
    --version) version=${2:?--version needs a version}; shift 2 ;;
    --package) package=${2:?--package needs a name}; shift 2 ;;
    --key) key=${2:?--key needs a key id or fingerprint}; shift 2 ;;
    --keyring) keyring=${2:?--keyring needs a file}; shift 2 ;;
    --valid-days) valid_days=${2:?--valid-days needs a number of days}; shift 2 ;;
    --replace-keyring) replace_keyring=1; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) usage_error "unknown option '$1'" ;;
    *) debs+=("$1"); shift ;;
  esac
done

[[ -n "$repo" ]] || usage_error "$command needs --repo DIR"
if [[ -n "$suite" && " ${suites[*]} " != *" $suite "* ]]; then usage_error "--suite is canary or stable, not '$suite'"; fi
[[ "$valid_days" =~ ^[0-9]+$ ]] || usage_error "--valid-days is a whole number of days, not '$valid_days'"
case "$command" in
  publish)
    [[ -n "$suite" ]] || usage_error "publish needs --suite canary|stable"
    ((${#debs[@]} > 0)) || usage_error "publish needs at least one .deb" ;;
  promote | withdraw) [[ -n "$version" ]] || usage_error "$command needs --version V" ;;&
  withdraw) [[ -n "$suite" ]] || usage_error "withdraw needs --suite canary|stable" ;;
esac
if [[ "$command" != publish ]] && ((${#debs[@]} > 0)); then usage_error "unexpected argument '${debs[0]}'"; fi

for tool in apt-ftparchive dpkg-deb gpg gpgv gzip xz flock; do
  command -v "$tool" >/dev/null || die "$tool is missing: apt-get install apt-utils dpkg gpg gpgv gzip xz-utils util-linux"
done

if [[ "$command" == publish ]]; then mkdir -p "$repo"; fi
[[ -d "$repo" ]] || die "no repository at $repo (publish creates one)"
repo=$(cd "$repo" && pwd -P)

# One change at a time: two people publishing at once would each rebuild a suite from what they read.
exec 9<"$repo"
flock -w 120 9 || die "another scorebridge-repo.sh is changing $repo (waited 2 minutes)"

work=$(mktemp -d -t scorebridge-repo.XXXXXX)
cleanup() {
  if [[ -n "${GNUPGHOME_OWN:-}" ]]; then gpgconf --homedir "$GNUPGHOME_OWN" --kill all >/dev/null 2>&1 || true; fi
  rm -rf "$work"
  find "$repo/dists" -maxdepth 1 -name '.*.new.*' -exec rm -rf {} + 2>/dev/null || true
}
trap cleanup EXIT

# "package version architecture filename" for each stanza of a suite's Packages for one architecture.
suite_entries() {
  local file="$repo/dists/$1/main/binary-$2/Packages"
  [[ -f "$file" ]] || return 0
  awk '
    /^Package:/ { p = $2 } /^Version:/ { v = $2 } /^Architecture:/ { a = $2 } /^Filename:/ { f = $2 }
    /^$/ { if (f != "") print p, v, a, f; p = v = a = f = "" }
    END { if (f != "") print p, v, a, f }' "$file"
}

inside_repo() {
  local path
  path=$(realpath -m "$1")
  [[ "$path" == "$repo" || "$path" == "$repo"/* ]]
}

# --- signing --------------------------------------------------------------------------------------

signer=""
setup_signer() {
  if [[ -z "$key" && -z "$keyring" ]]; then usage_error "$command signs: give --key KEYID or --keyring FILE"; fi
  if [[ -n "$keyring" ]]; then
    [[ -r "$keyring" ]] || die "cannot read the secret key file $keyring"
    inside_repo "$keyring" && die "the secret key $keyring is inside the repository, which is served to everyone: move it out (and consider the key leaked if the directory was served)"
    GNUPGHOME_OWN="$work/gnupg"
    mkdir -m 700 "$GNUPGHOME_OWN"
    export GNUPGHOME="$GNUPGHOME_OWN"
    gpg --batch --quiet --import "$keyring" 2>"$work/import.log" || die "gpg could not import $keyring: $(cat "$work/import.log")"
  fi
  local home="${GNUPGHOME:-$HOME/.gnupg}"
  inside_repo "$home" && die "the GnuPG home $home is inside the repository, which is served to everyone: keep it elsewhere"
  if [[ -z "$key" ]]; then
    local secrets
    secrets=$(gpg --batch --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "sec" { s = 1 } $1 == "fpr" && s { print $10; s = 0 }')
    [[ -n "$secrets" ]] || die "$keyring holds no secret key: export one with gpg --export-secret-subkeys KEYID!"
    (($(wc -l <<<"$secrets") == 1)) || die "$keyring holds several secret keys: say which with --key KEYID"
    key=$secrets
  fi
  gpg --batch --list-secret-keys -- "${key%!}" >/dev/null 2>&1 ||
    die "no secret key '$key' in the GnuPG home $home: set GNUPGHOME, import the signing subkey, or give --keyring FILE"
  signer=$key
}

export_keyring() {
  gpg --batch --export --export-options export-minimal -- "${signer%!}" >"$work/keyring.gpg"
  [[ -s "$work/keyring.gpg" ]] || die "gpg exported nothing for '$signer'"
}

# Signs $1/Release into InRelease and Release.gpg, then checks them with gpgv against the keyring
# the venues already have (the published one), and the one about to be published.
sign_release() {
  local dir=$1 published="$repo/$keyring_name"
  gpg --batch --yes --quiet --local-user "$signer" --digest-algo SHA512 --clearsign -o "$dir/InRelease" "$dir/Release" 2>"$work/sign.log" ||
    die "gpg could not sign with '$signer': $(cat "$work/sign.log")"
  gpg --batch --yes --quiet --local-user "$signer" --digest-algo SHA512 --armor --detach-sign -o "$dir/Release.gpg" "$dir/Release" 2>"$work/sign.log" ||
    die "gpg could not sign with '$signer': $(cat "$work/sign.log")"
  gpgv --quiet --keyring "$work/keyring.gpg" "$dir/InRelease" 2>"$work/verify.log" ||
    die "the signature does not verify against the exported public key: $(cat "$work/verify.log")"
  if [[ -f "$published" && -z "$replace_keyring" ]] && ! gpgv --quiet --keyring "$published" "$dir/InRelease" 2>"$work/verify.log"; then
    die "'$signer' is not in the published $keyring_name, so every venue would refuse this suite. Sign with the key the venues trust, or rotate: give the venues the new keyring first, then --replace-keyring"
  fi
}

# --- indexes --------------------------------------------------------------------------------------

# Rebuilds one suite from the pool files listed in $work/<arch>.files (paths relative to the repo),
# signs it beside the live one and swaps it in.
build_suite() {
  local suite=$1 arch stage file
  mkdir -p "$repo/dists"
  stage=$(mktemp -d "$repo/dists/.$suite.new.XXXXXX")
  chmod 755 "$stage"
  for arch in "${architectures[@]}"; do
    mkdir -p "$stage/main/binary-$arch"
    : >"$stage/main/binary-$arch/Packages"
    if [[ -f "$work/$arch.files" ]]; then
      while read -r file; do
        (cd "$repo" && apt-ftparchive -o APT::FTPArchive::MD5=false -o APT::FTPArchive::SHA1=false packages "$file") >>"$stage/main/binary-$arch/Packages"
      done < <(sort -u "$work/$arch.files")
    fi
    gzip -9n <"$stage/main/binary-$arch/Packages" >"$stage/main/binary-$arch/Packages.gz"
    xz -9 <"$stage/main/binary-$arch/Packages" >"$stage/main/binary-$arch/Packages.xz"
  done
  local signed_at=${SOURCE_DATE_EPOCH:-$(date +%s)}
  (cd "$stage" && apt-ftparchive \
    -o APT::FTPArchive::MD5=false -o APT::FTPArchive::SHA1=false \
    -o APT::FTPArchive::Release::Origin=scorebridge \
    -o APT::FTPArchive::Release::Label=scorebridge \
    -o "APT::FTPArchive::Release::Suite=$suite" \
    -o "APT::FTPArchive::Release::Codename=$suite" \
    -o "APT::FTPArchive::Release::Architectures=${architectures[*]}" \
    -o APT::FTPArchive::Release::Components=main \
    -o "APT::FTPArchive::Release::Date=$(date -u -R -d "@$signed_at")" \
    -o "APT::FTPArchive::Release::Description=scorebridge for venues, $suite ring" \
    release .) >"$work/Release"
  # Valid-Until written here: apt-ftparchive counts it from its own clock only, not from Date.
  if ((valid_days > 0)); then
    sed -i "/^Date: /a Valid-Until: $(date -u -R -d "@$((signed_at + valid_days * 86400))")" "$work/Release"
  fi
  mv "$work/Release" "$stage/Release"
  sign_release "$stage"
  if [[ -d "$repo/dists/$suite" ]]; then
    mv "$repo/dists/$suite" "$repo/dists/.$suite.new.old"
    mv "$stage" "$repo/dists/$suite"
    rm -rf "$repo/dists/.$suite.new.old"
  else
    mv "$stage" "$repo/dists/$suite"
  fi
  cp "$work/keyring.gpg" "$repo/.$keyring_name.new"
  mv "$repo/.$keyring_name.new" "$repo/$keyring_name"
}

# Starts $work/<arch>.files from what the suite lists now, leaving out lines matching $2 (awk).
current_files() {
  local suite=$1 skip=${2:-0} arch
  for arch in "${architectures[@]}"; do
    suite_entries "$suite" "$arch" | awk -v p="$package" -v v="$version" "!($skip) { print \$4 }" >"$work/$arch.files"
  done
}

pool_path() {
  local name=$1 ver=$2 arch=$3 prefix=${1:0:1}
  if [[ "$name" == lib?* ]]; then prefix=${name:0:4}; fi
  echo "pool/main/$prefix/$name/${name}_${ver#*:}_$arch.deb"
}

# --- commands -------------------------------------------------------------------------------------

publish() {
  local deb name ver arch target
  for deb in "${debs[@]}"; do
    [[ -f "$deb" ]] || die "no such file: $deb"
    dpkg-deb --info "$deb" >/dev/null 2>&1 || die "$deb is not a Debian package (dpkg-deb --info fails)"
  done
  setup_signer
  export_keyring
  current_files "$suite"
  for deb in "${debs[@]}"; do
    name=$(dpkg-deb -f "$deb" Package)
    ver=$(dpkg-deb -f "$deb" Version)
    arch=$(dpkg-deb -f "$deb" Architecture)
    case "$arch" in amd64 | arm64 | all) ;; *) die "$deb is for $arch; the repository serves amd64 and arm64 (and all)" ;; esac
    target=$(pool_path "$name" "$ver" "$arch")
    if [[ -f "$repo/$target" ]]; then
      # A version is published once: venues that fetched it already would fail its new checksum.
      cmp -s "$deb" "$repo/$target" || die "$target is already in the pool with other contents: give the new build a new version"
    else
      mkdir -p "$(dirname "$repo/$target")"
      cp "$deb" "$repo/$target.new"
      chmod 644 "$repo/$target.new"
      mv "$repo/$target.new" "$repo/$target"
    fi
    if [[ "$arch" == all ]]; then
      for a in "${architectures[@]}"; do echo "$target" >>"$work/$a.files"; done
    else
      echo "$target" >>"$work/$arch.files"
    fi
    echo "$suite: $name $ver $arch"
  done
  build_suite "$suite"
}

promote() {
  local arch found=""
  for arch in "${architectures[@]}"; do
    if suite_entries canary "$arch" | awk -v p="$package" -v v="$version" '$1 == p && $2 == v { f = 1 } END { exit !f }'; then found=1; fi
  done
  if [[ -z "$found" ]]; then
    die "canary has no $package $version (it has: $(list_suite canary | awk -v p="$package" '$2 == p { print $3 }' | sort -uV | paste -sd ' ' -)): publish it to canary first"
  fi
  setup_signer
  export_keyring
  # Exactly V: stable keeps what it had (older versions to go back to) and gains V's files.
  current_files stable
  for arch in "${architectures[@]}"; do
    suite_entries canary "$arch" | awk -v p="$package" -v v="$version" '$1 == p && $2 == v { print $4 }' >>"$work/$arch.files"
  done
  build_suite stable
  list_suite stable | awk -v p="$package" -v v="$version" '$2 == p && $3 == v'
}

withdraw() {
  local arch found=""
  for arch in "${architectures[@]}"; do
    if suite_entries "$suite" "$arch" | awk -v p="$package" -v v="$version" '$1 == p && $2 == v { f = 1 } END { exit !f }'; then found=1; fi
  done
  [[ -n "$found" ]] || die "$suite has no $package $version"
  setup_signer
  export_keyring
  current_files "$suite" '$1 == p && $2 == v'
  build_suite "$suite"
  echo "$suite: withdrew $package $version"
}

resign() {
  local s todo=("${suites[@]}")
  if [[ -n "$suite" ]]; then todo=("$suite"); fi
  setup_signer
  export_keyring
  for s in "${todo[@]}"; do
    [[ -d "$repo/dists/$s" ]] || continue
    current_files "$s"
    build_suite "$s"
    echo "$s: signed again, $(grep -E '^(Date|Valid-Until):' "$repo/dists/$s/Release" | paste -sd ' ' -)"
  done
}

list_suite() {
  local arch
  for arch in "${architectures[@]}"; do
    suite_entries "$1" "$arch" | awk -v s="$1" '{ print s, $1, $2, $3 }'
  done | sort -u | sort -k2,2 -k3,3V -k4,4
}

list() {
  local s
  for s in "${suites[@]}"; do
    if [[ -z "$suite" || "$suite" == "$s" ]]; then list_suite "$s"; fi
  done
}

"$command"
