#!/usr/bin/env bash
# The install step of action.yml: finds the eni-lint release the action's ref names, takes it
# from the runner's tool cache when an earlier job put it there, else downloads the archive
# for the runner's OS and architecture, checks it against the release's SHA-256 checksums and
# caches it. It writes step outputs:
#   path=…         the binary to run (download or cache)
#   source=…       cache, download or build
#   version=…      the eni-lint version (empty when building)
# and, for a ref that names no release (a branch, or a commit without the version input),
# build=true: the next steps set up Go and build from the action's own checkout. An action
# pinned by commit with `version: vX.Y.Z` downloads that release and checks that the binary
# was built from the pinned commit.
#
# Releases are looked for in the repository the action was taken from (github.action_repository:
# a fork's own releases for `uses: a-fork/eni-lint@v1`). A repository with no release yet, or
# none that the ref names, is no error: eni-lint is built from the action's checkout, which is
# the code the ref names, and the log says so.
#
# Inputs (environment): INPUT_VERSION (eni-lint's version, v1.2.3 or 1.2.3; empty: the action
# ref), ACTION_REF (github.action_ref), ACTION_REPOSITORY (github.action_repository, owner/name),
# RUNNER_OS, RUNNER_ARCH, RUNNER_TOOL_CACHE, RUNNER_TEMP, GITHUB_SERVER_URL, GITHUB_API_URL.
# ENI_LINT_RELEASES (default $GITHUB_SERVER_URL/OWNER/NAME/releases/download) and ENI_LINT_API
# (default $GITHUB_API_URL/repos/OWNER/NAME) name the release host; the tests point them at a
# local server.
set -euo pipefail

out="${GITHUB_OUTPUT:-/dev/null}"

fail() {
  echo "::error title=eni-lint install::$1"
  exit 1
}

build() {
  echo "eni-lint: $1; building it from the action's checkout"
  {
    echo "build=true"
    echo "source=build"
    echo "version="
    echo "path=${RUNNER_TEMP:-/tmp}/eni-lint"
  } >>"$out"
  exit 0
}

repo="${ACTION_REPOSITORY:-${GITHUB_ACTION_REPOSITORY:-}}"
if [ -z "$repo" ] && [ -z "${ENI_LINT_RELEASES:-}" ]; then
  build "the action's repository is unknown (a local action: uses: ./…)"
fi
if [ -n "$repo" ] && ! [[ "$repo" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]]; then
  fail "github.action_repository '$repo' is not owner/name"
fi
releases="${ENI_LINT_RELEASES:-${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download}"
api="${ENI_LINT_API:-${GITHUB_API_URL:-https://api.github.com}/repos/$repo}"

semver='^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'
want="${INPUT_VERSION:-}"
if [ -z "$want" ]; then
  want="${ACTION_REF:-${GITHUB_ACTION_REF:-}}"
  [ -n "$want" ] || build "the action ref is unknown"
  if [[ "$want" =~ ^v[0-9]+$ ]] || [[ "$want" =~ ^v[0-9]+\.[0-9]+$ ]]; then
    # A moving major or minor tag (v1, v1.2): the newest release it covers.
    prefix="$want."
    auth=()
    [ -n "${GITHUB_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $GITHUB_TOKEN")
    listing=$(curl -fsSL --retry 3 --max-time 30 ${auth[@]+"${auth[@]}"} "$api/releases?per_page=100") \
      || fail "could not list the releases at $api to resolve $want"
    # An empty list is a repository with no release yet, not a failure.
    tags=$(printf '%s' "$listing" | grep -oE '"tag_name": *"[^"]+"' | sed -E 's/.*"([^"]+)"$/\1/' || true)
    want=$(printf '%s\n' "$tags" | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' \
      | while IFS= read -r t; do [ "${t#"$prefix"}" != "$t" ] && echo "$t"; done \
      | sort -V | tail -n 1 || true)
    [ -n "$want" ] || build "${repo:-the repository} has no release ${prefix}* yet"
  elif ! [[ "$want" =~ $semver ]]; then
    build "the ref $want names no release"
  fi
elif ! [[ "$want" =~ $semver ]]; then
  fail "input version must be a release such as v1.2.3, not '$want'"
fi
version="${want#v}"
tag="v$version"

case "${RUNNER_OS:-Linux}" in
  Linux) os=linux ;;
  macOS) os=darwin ;;
  Windows) os=windows ;;
  *) fail "no eni-lint release for runner OS ${RUNNER_OS}" ;;
esac
case "${RUNNER_ARCH:-X64}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) fail "no eni-lint release for runner architecture ${RUNNER_ARCH}" ;;
esac
exe=eni-lint
ext=tar.gz
if [ "$os" = windows ]; then
  exe=eni-lint.exe
  ext=zip
fi

# The layout of @actions/tool-cache: TOOL/VERSION/ARCH, complete when ARCH.complete exists,
# so a self-hosted runner keeps one copy per version across jobs.
cache="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}/tool-cache}/eni-lint/$version/$arch"
# finish checks that a binary for an action pinned by commit was built from that commit
# (release binaries print it in `version`), then writes the outputs.
finish() {
  ref="${ACTION_REF:-${GITHUB_ACTION_REF:-}}"
  if [[ "$ref" =~ ^[0-9a-f]{40}$ ]]; then
    built=$("$cache/$exe" version 2>/dev/null || true)
    case "$built" in
      *"commit ${ref:0:12}"*) ;;
      *) fail "the action is pinned at commit ${ref:0:12} but eni-lint $tag says: ${built:-nothing}; set version to the release of that commit" ;;
    esac
  fi
  {
    echo "source=$1"
    echo "version=$tag"
    echo "path=$cache/$exe"
  } >>"$out"
  exit 0
}

if [ -f "$cache.complete" ] && [ -x "$cache/$exe" ]; then
  echo "eni-lint $tag from the tool cache"
  finish cache
fi

archive="eni-lint_${version}_${os}_${arch}.$ext"
sums="eni-lint_${version}_checksums.txt"
work=$(mktemp -d "${RUNNER_TEMP:-/tmp}/eni-lint-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fetch() {
  status=$(curl -sSL --retry 3 --max-time 120 -o "$work/$2" -w '%{http_code}' "$releases/$tag/$1") \
    || fail "could not download $releases/$tag/$1"
  case "$status" in
    200) ;;
    # No such release (yet): the tag's code is the action's checkout. A version the workflow
    # asks for by name is not replaced by a build of other code: that fails the step.
    404) if [ "$2" = archive ] && [ -n "${INPUT_VERSION:-}" ]; then
        fail "input version $INPUT_VERSION: ${repo:-the repository} has no release $tag ($releases/$tag/$1 is not there); name a published release, or remove version: to build the action's ref"
      fi
      [ "$2" = archive ] && build "${repo:-the repository} has no release $tag"
      fail "release $tag has $archive but no $1" ;;
    *) fail "could not download $releases/$tag/$1 (HTTP $status)" ;;
  esac
}
fetch "$archive" archive
fetch "$sums" sums

expected=$(awk -v name="$archive" '$2 == name || $2 == "*"name { print $1 }' "$work/sums")
[ -n "$expected" ] || fail "$sums has no checksum for $archive"
if command -v sha256sum >/dev/null 2>&1; then
  actual=$(sha256sum "$work/archive" | awk '{ print $1 }')
else
  actual=$(shasum -a 256 "$work/archive" | awk '{ print $1 }')
fi
[ "$actual" = "$expected" ] || fail "$archive has SHA-256 $actual, the release says $expected: not installed"

mkdir -p "$work/x"
if [ "$ext" = zip ]; then
  if command -v unzip >/dev/null 2>&1; then
    unzip -q "$work/archive" -d "$work/x"
  else
    powershell -NoProfile -Command "Expand-Archive -LiteralPath '$work/archive' -DestinationPath '$work/x'"
  fi
else
  tar -xzf "$work/archive" -C "$work/x" "$exe"
fi
[ -f "$work/x/$exe" ] || fail "$archive has no $exe"
rm -rf "$cache"
mkdir -p "$cache"
mv "$work/x/$exe" "$cache/$exe"
chmod +x "$cache/$exe"
touch "$cache.complete"
echo "eni-lint $tag downloaded, SHA-256 checked, cached in $cache"
finish download
