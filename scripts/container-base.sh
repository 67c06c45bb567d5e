#!/bin/sh
# Makes the Containerfile's base image, localhost/svc-base:trixie, from Debian's packages with mmdebstrap:
# no image registry is needed. Debian trixie because its nodejs (20.19) is the first Debian one new enough
# for svc (Node.js 20.18 or later); minbase with nodejs and ca-certificates only, without docs, man pages
# or locales. Needs mmdebstrap and buildah (apt-get install mmdebstrap buildah) and a Debian mirror.
#   scripts/container-base.sh [tag] [mirror]
# SVC_BASE_TAR=<file> keeps mmdebstrap's tarball there and reuses it when it exists (the tests do).
set -eu
tag="${1:-localhost/svc-base:trixie}"
mirror="${2:-http://deb.debian.org/debian}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar="${SVC_BASE_TAR:-$work/base.tar}"
[ -s "$tar" ] || mmdebstrap --quiet --variant=minbase --include=nodejs,ca-certificates \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  trixie "$tar" "$mirror"
ctr="$(buildah from scratch)"
buildah add --quiet "$ctr" "$tar" / >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd /bin/sh "$ctr"
buildah commit --quiet --rm "$ctr" "$tag" >/dev/null
echo "$tag"
