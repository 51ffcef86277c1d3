#!/usr/bin/env bash
# Installs (or re-installs: idempotent) the release this script came in (issue 32), as root:
#   tar -xzf balcao-<version>-linux-x64.tar.gz && sudo balcao-<version>/install.sh
# /opt/balcao/releases/<version>/ + /opt/balcao/current, data in /var/lib/balcao (0700), settings in
# /etc/balcao/balcao.env (0600, kept if present), the systemd unit, the service user `balcao`.
# Later releases: `sudo -u balcao /opt/balcao/current/bin/balcao upgrade <archive>`.
set -euo pipefail
SRC="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
VERSION="$(cat "$SRC/VERSION")"
ROOT="${BALCAO_ROOT:-/opt/balcao}"
DATA="${BALCAO_DATA:-/var/lib/balcao}"
ETC="${BALCAO_ETC:-/etc/balcao}"
id balcao >/dev/null 2>&1 || useradd --system --home "$DATA" --shell /usr/sbin/nologin balcao
install -d -m 755 "$ROOT/releases"
install -d -m 700 -o balcao -g balcao "$DATA" "$DATA/backups"
install -d -m 755 "$ETC"
if [ "$SRC" != "$ROOT/releases/$VERSION" ]; then
  rm -rf "$ROOT/releases/$VERSION"
  cp -a "$SRC" "$ROOT/releases/$VERSION"
fi
ln -sfn "releases/$VERSION" "$ROOT/current.next" && mv -T "$ROOT/current.next" "$ROOT/current"
chown -R balcao:balcao "$ROOT"
if [ ! -f "$ETC/balcao.env" ]; then
  install -m 600 -o balcao -g balcao "$SRC/app/deploy/balcao.env.example" "$ETC/balcao.env"
  sed -i "s#^DATA_DIR=.*#DATA_DIR=$DATA#" "$ETC/balcao.env"
  echo "Edit $ETC/balcao.env (ADMIN_EMAIL, ADMIN_PASSWORD, PUBLIC_URL), then: systemctl restart balcao"
fi
install -m 644 "$SRC/app/deploy/release/balcao.service" /etc/systemd/system/balcao.service
systemctl daemon-reload
systemctl enable --now balcao
"$ROOT/current/bin/balcao" doctor || true
