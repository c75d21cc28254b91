#!/usr/bin/env bash
# Container test: builds the image from the project's Dockerfile with podman and runs it the way an orchestrator
# would — read-only root filesystem, the image's non-root user, a host directory as the /data volume, configuration
# only through TABCONFIG_* environment variables — then checks: /healthz within 10 s of start, the sample tab bar,
# a user's tab order surviving a new container on the same volume, `podman stop` (SIGTERM) exiting 0 within 10 s,
# a non-zero uid, the image's own HEALTHCHECK, and compose.yaml with podman-compose; then compose.replicas.yaml
# (PostgreSQL, two replicas, haproxy): a write through haproxy read on each replica, a publish reaching both, one
# replica stopped while requests go on, and started again with everything. Prints the image size and what dominates
# it, timings, and ends with a PASS/FAIL line (exit status 1 on any failure).
#
# Run: `make container-test` (or `bash scripts/container-test.sh`), as root or as a user with sudo.
# It installs podman, buildah, debootstrap, runc and podman-compose from Debian when missing.
#
# Base images: the official docker.io/library/swift:6.3-bookworm and debian:bookworm-slim are pulled when a
# registry answers. When it does not (no registry is reachable on the project's build machines), local stand-ins
# are built under the same names: debian:bookworm-slim by debootstrap from the Debian mirror this machine's apt uses,
# and swift:6.3-bookworm as that plus the official image's build packages, using the host's Swift toolchain and
# Swift package mirror, which are mounted into the build rather than copied. postgres:15-bookworm and
# haproxy:2.6-bookworm (for compose.replicas.yaml) have stand-ins too: Debian's packages on the debian stand-in, from
# scripts/stand-ins/. Stand-ins are built once and reused.
#
# The base images, the image (and its build stage, tagged :build-stage) stay for the next run, which rebuilds only
# what changed; untagged leftovers of earlier builds are removed.
#
# Environment: CONTAINER_TEST_IMAGE (default localhost/tabconfig:latest, the name compose.yaml uses) names the
# image it builds.
set -euo pipefail
cd "$(dirname "$0")/.."
# Timings use $EPOCHREALTIME, whose decimal separator follows the locale.
export LC_NUMERIC=C

image="${CONTAINER_TEST_IMAGE:-localhost/tabconfig:latest}"
swift_base=docker.io/library/swift:6.3-bookworm
debian_base=docker.io/library/debian:bookworm-slim
postgres_base=docker.io/library/postgres:15-bookworm
haproxy_base=docker.io/library/haproxy:2.6-bookworm
stand_in_label=org.tabconfig.stand-in
# Cached stand-ins carry this in their label; a stand-in made by another recipe is rebuilt.
stand_in_recipe=recipe2
run_id="tabconfig-ct-$$"
test_user=alice
script_start=$EPOCHREALTIME

passed=0
failed=0
started_containers=()
compose_project=""
compose_file=compose.yaml
work=""
admin_token=""
postgres_password=""

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# podman with this script's containers.conf and registries.conf (see write_podman_config).
pm() {
  as_root env CONTAINERS_CONF="$work/containers.conf" CONTAINERS_REGISTRIES_CONF="$work/registries.conf" podman "$@"
}

pm_timeout() {
  local limit=$1
  shift
  as_root timeout "$limit" env CONTAINERS_CONF="$work/containers.conf" \
    CONTAINERS_REGISTRIES_CONF="$work/registries.conf" podman "$@"
}

section() { printf '\n== %s\n' "$*"; }
ok() { passed=$((passed + 1)); printf '  ok    %s\n' "$*"; }
not_ok() { failed=$((failed + 1)); printf '  FAIL  %s\n' "$*"; }

# Milliseconds since the $EPOCHREALTIME value given.
ms_since() {
  awk -v start="$1" -v now="$EPOCHREALTIME" 'BEGIN { printf "%d", (now - start) * 1000 }'
}

seconds_since() {
  awk -v start="$1" -v now="$EPOCHREALTIME" 'BEGIN { printf "%.1f", now - start }'
}

finish() {
  local status=$?
  for container in "${started_containers[@]}"; do
    pm rm --force --time 0 "$container" >/dev/null 2>&1 || true
  done
  if [ -n "$compose_project" ]; then
    compose down --volumes >/dev/null 2>&1 || true
    pm volume rm "${compose_project}_postgres-data" >/dev/null 2>&1 || true
    pm network rm "${compose_project}_default" >/dev/null 2>&1 || true
  fi
  if [ -n "$work" ]; then
    as_root rm -rf "$work"
  fi
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    printf '\ncontainer-test: FAIL (stopped with status %s, see above)\n' "$status"
  fi
}
trap finish EXIT

install_missing() {
  local packages=()
  command -v podman >/dev/null 2>&1 || packages+=(podman)
  command -v buildah >/dev/null 2>&1 || packages+=(buildah)
  command -v debootstrap >/dev/null 2>&1 || packages+=(debootstrap)
  command -v runc >/dev/null 2>&1 || packages+=(runc)
  command -v podman-compose >/dev/null 2>&1 || packages+=(podman-compose)
  command -v curl >/dev/null 2>&1 || packages+=(curl)
  command -v python3 >/dev/null 2>&1 || packages+=(python3)
  if [ ${#packages[@]} -gt 0 ]; then
    echo "apt-get install ${packages[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${packages[@]}" >/dev/null
  fi
}

# As in the recipe seen working on the project's machines: they refuse setrlimit and pid limits inside containers,
# and need the runc runtime (crun fails on their cgroup layout); containers share the host network unless they ask
# for another (compose.yaml's own network is exercised too). Short image names resolve on docker.io, as with Docker.
write_podman_config() {
  cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = []
pids_limit = 0
netns = "host"

[engine]
runtime = "runc"
EOF
  cat >"$work/registries.conf" <<'EOF'
unqualified-search-registries = ["docker.io"]
short-name-mode = "permissive"
EOF
}

# The Debian mirror this machine's apt uses for bookworm (not the security archive).
debian_mirror() {
  local uri
  uri=$(
    {
      if [ -f /etc/apt/sources.list ]; then
        awk '{ sub(/\[[^]]*\] */, "") } $1 == "deb" && $3 == "bookworm" { print $2 }' /etc/apt/sources.list
      fi
      for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        awk 'BEGIN { RS = ""; FS = "\n" }
             /(^|\n)Suites:[^\n]*bookworm( |$|\n)/ && /(^|\n)Types:[^\n]*deb( |$|\n)/ {
               for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, a, " "); print a[2] }
             }' "$file"
      done
    } | grep -v -- '-security' | head -n 1 || true
  )
  if [ -z "$uri" ]; then
    echo "cannot find a Debian bookworm mirror in /etc/apt" >&2
    return 1
  fi
  echo "$uri"
}

# The stand-in label of image $1: empty for an official image, "recipeN:what" for a stand-in.
stand_in_of() {
  pm image inspect --format "{{index .Config.Labels \"$stand_in_label\"}}" "$1" 2>/dev/null || true
}

# Pulls an official base image, giving up after $2 seconds.
try_pull() {
  local name=$1 limit=$2 output status=0 reason
  output=$(pm_timeout "$limit" pull -q "$name" 2>&1) || status=$?
  if [ "$status" -eq 0 ]; then
    return 0
  elif [ "$status" -eq 124 ]; then
    reason="no answer within $limit s"
  else
    reason=$(printf '%s' "$output" | tail -n 1)
    reason=${reason##*: }
  fi
  echo "  pull $name failed: $reason"
  return 1
}

build_debian_stand_in() {
  local mirror rootfs
  mirror=$(debian_mirror)
  rootfs="$work/debian-rootfs"
  echo "  debootstrap --variant=minbase bookworm from $mirror"
  as_root debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    tail -n 20 "$work/debootstrap.log"
    return 1
  }
  # Slim it the way the official -slim image is: no docs, man pages or locales, and apt keeps no caches.
  as_root sh -c "cat >'$rootfs/etc/dpkg/dpkg.cfg.d/slim'" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
  as_root sh -c "cat >'$rootfs/etc/apt/apt.conf.d/docker-clean'" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  echo 'Acquire::Languages "none";' | as_root sh -c "cat >'$rootfs/etc/apt/apt.conf.d/docker-no-languages'"
  as_root sh -c "printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' '$mirror' '$mirror' \
    >'$rootfs/etc/apt/sources.list'"
  as_root find "$rootfs/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
  as_root find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  as_root rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old
  as_root tar -C "$rootfs" -c . | pm import --quiet --change 'CMD ["bash"]' \
    --change "LABEL $stand_in_label=$stand_in_recipe:debootstrap-bookworm-minbase" - "$debian_base" >/dev/null
  as_root rm -rf "$rootfs"
}

# The host's git URL rewrites (the Swift package mirror), as "base<TAB>insteadOf" lines.
git_rewrites() {
  git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r key value; do
    key=${key#url.}
    printf '%s\t%s\n' "${key%.insteadof}" "$value"
  done
}

# Mount options for the host's toolchain and package mirror, which the swift stand-in uses in place.
stand_in_mounts() {
  local toolchain base
  toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
  printf -- '-v\n%s:%s:ro\n' "$toolchain" "$toolchain"
  git_rewrites | cut -f1 | sort -u | while read -r base; do
    if [ -d "$base" ]; then printf -- '-v\n%s:%s:ro\n' "${base%/}" "${base%/}"; fi
  done
}

build_swift_stand_in() {
  local toolchain dir base value
  toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
  dir="$work/swift-stand-in"
  mkdir -p "$dir"
  {
    echo "FROM $debian_base"
    echo "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\"
    echo "    binutils git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libpython3-dev \\"
    echo "    libpython3.11 libncurses6 libsqlite3-0 libstdc++-12-dev libxml2-dev libz3-dev pkg-config tzdata \\"
    echo "    zlib1g-dev ca-certificates && rm -rf /var/lib/apt/lists/*"
    git_rewrites | while IFS=$'\t' read -r base value; do
      echo "RUN git config --system --add 'url.$base.insteadOf' '$value'"
    done
    echo "ENV PATH=$toolchain/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    echo "LABEL $stand_in_label=$stand_in_recipe:debian-with-host-toolchain-$toolchain"
  } >"$dir/Dockerfile"
  pm build --isolation chroot --network host --pull=never -t "$swift_base" "$dir" >"$work/swift-stand-in.log" 2>&1 || {
    tail -n 30 "$work/swift-stand-in.log"
    return 1
  }
}

# The stand-ins of the images compose.replicas.yaml runs beside tabconfig's: Debian's packages on the debian base.
build_postgres_stand_in() {
  build_stand_in "$postgres_base" scripts/stand-ins/postgres postgres-15-from-debian
}

build_haproxy_stand_in() {
  build_stand_in "$haproxy_base" scripts/stand-ins/haproxy haproxy-from-debian
}

build_stand_in() {
  local name=$1 dir=$2 what=$3 log
  log="$work/$(basename "$dir")-stand-in.log"
  pm build --isolation chroot --network host --pull=never --format docker \
    --label "$stand_in_label=$stand_in_recipe:$what" -t "$name" "$dir" >"$log" 2>&1 || {
    tail -n 30 "$log"
    return 1
  }
}

# Makes sure $1 exists locally: official when it can be pulled, else the cached or a newly built stand-in ($4 =
# rebuild forces a new stand-in). Sets $base_pulled and $base_built to yes or no.
ensure_base() {
  local name=$1 limit=$2 builder=$3 rebuild=${4:-} start label old_id
  base_pulled=no
  base_built=no
  label=$(stand_in_of "$name")
  if try_pull "$name" "$limit"; then
    base_pulled=yes
    base_used+=("$name: official (pulled)")
  elif [ "${label%%:*}" = "$stand_in_recipe" ] && [ "$rebuild" != rebuild ]; then
    base_used+=("$name: stand-in (cached, built earlier by this script)")
  elif [ -z "$label" ] && pm image exists "$name"; then
    base_used+=("$name: official (cached, the registry did not answer)")
  else
    start=$EPOCHREALTIME
    old_id=$(pm image inspect --format '{{.Id}}' "$name" 2>/dev/null || true)
    echo "  building the stand-in for $name"
    "$builder"
    base_built=yes
    base_used+=("$name: stand-in (built now in $(seconds_since "$start") s)")
    if [ -n "$old_id" ]; then pm rmi "$old_id" >/dev/null 2>&1 || true; fi
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# An HS256 JWT for user $2 signed with secret $1, valid for 15 minutes.
mint_jwt() {
  python3 - "$1" "$2" <<'EOF'
import base64, hashlib, hmac, json, sys, time

def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

secret, subject = sys.argv[1], sys.argv[2]
now = int(time.time())
header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
claims = b64(json.dumps({"sub": subject, "iat": now, "exp": now + 900}, separators=(",", ":")).encode())
signature = b64(hmac.new(secret.encode(), f"{header}.{claims}".encode(), hashlib.sha256).digest())
print(f"{header}.{claims}.{signature}")
EOF
}

# podman without systemd logs an error for every HEALTHCHECK timer it cannot make or remove; leave those out.
pm_without_timer_errors() {
  pm "$@" 2> >(grep -v 'unable to get systemd connection' >&2)
}

# Starts a container of the image on the data directory; sets $container and $start_time.
start_container() {
  container="$run_id-$1"
  start_time=$EPOCHREALTIME
  pm_without_timer_errors run --detach --name "$container" \
    --read-only --read-only-tmpfs=false --cap-drop all --security-opt no-new-privileges \
    --volume "$data_dir:/data" \
    --env TABCONFIG_PORT="$port" --env TABCONFIG_JWT_HS256_SECRET="$secret" \
    "$image" >/dev/null
  started_containers+=("$container")
}

# Waits up to 10 s for /healthz; sets $healthy_ms (empty when it never answered).
wait_healthy() {
  healthy_ms=""
  local deadline
  deadline=$(awk -v t="$start_time" 'BEGIN { printf "%.3f", t + 10 }')
  while awk -v d="$deadline" -v now="$EPOCHREALTIME" 'BEGIN { exit !(now < d) }'; do
    if curl -fsS -m 1 -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null; then
      healthy_ms=$(ms_since "$start_time")
      return 0
    fi
    sleep 0.05
  done
  return 1
}

# GET/PUT helpers: print the body, set $http_status.
http() {
  local method=$1 path=$2 body=${3:-} response
  local args=(-sS -m 5 -X "$method" -w '\n%{http_code}' -H "Authorization: ${HTTP_AUTHORIZATION:-Bearer $jwt}")
  if [ -n "$body" ]; then args+=(-H 'Content-Type: application/json' --data-binary "$body"); fi
  response=$(curl "${args[@]}" "http://127.0.0.1:$port$path" 2>&1) || true
  http_status=${response##*$'\n'}
  http_body=${response%$'\n'*}
}

json_get() {
  python3 -c "import json, sys; d = json.loads(sys.argv[1]); print(json.dumps($2, separators=(',', ':')))" "$1"
}

container_logs() {
  echo "  --- logs of $1"
  pm logs "$1" 2>&1 | tail -n 15 | sed 's/^/  | /'
}

# Stops the container with SIGTERM (SIGKILL after 10 s) and checks it exited 0 in time.
stop_container() {
  local start ms code
  start=$EPOCHREALTIME
  pm_without_timer_errors stop --time 10 "$container" >/dev/null
  ms=$(ms_since "$start")
  code=$(pm inspect --format '{{.State.ExitCode}}' "$container")
  if [ "$code" = 0 ] && [ "$ms" -lt 10000 ]; then
    ok "podman stop (SIGTERM): exit code $code after $ms ms"
  else
    not_ok "podman stop (SIGTERM): exit code $code after $ms ms (want 0 within 10000 ms)"
    container_logs "$container"
  fi
}

compose() {
  as_root env CONTAINERS_CONF="$work/containers.conf" CONTAINERS_REGISTRIES_CONF="$work/registries.conf" \
    TABCONFIG_IMAGE="$image" TABCONFIG_PORT="$port" TABCONFIG_JWT_HS256_SECRET="$secret" \
    TABCONFIG_ADMIN_TOKEN="$admin_token" POSTGRES_PASSWORD="$postgres_password" \
    podman-compose --project-name "$compose_project" -f "$compose_file" "$@"
}

# ---------------------------------------------------------------------------------------------------------------

section "setup"
install_missing
work=$(mktemp -d /tmp/tabconfig-container-test.XXXXXX)
chmod 755 "$work"
write_podman_config
echo "  $(podman --version), $(runc --version | head -n 1), podman-compose $(podman-compose --version 2>/dev/null \
  | awk '/podman-composer? version/ { print $NF; exit }')"

section "base images (official when a registry answers, else local stand-ins)"
base_used=()
ensure_base "$debian_base" 60 build_debian_stand_in
# The swift image is large: give its pull time only when the registry answered for debian. Its stand-in is built on
# the debian one, so a new debian stand-in means a new swift stand-in.
swift_limit=30
if [ "$base_pulled" = yes ]; then swift_limit=1200; fi
ensure_base "$swift_base" "$swift_limit" build_swift_stand_in "$([ "$base_built" = yes ] && echo rebuild)"
debian_rebuilt=$base_built
for base in "$postgres_base:build_postgres_stand_in" "$haproxy_base:build_haproxy_stand_in"; do
  ensure_base "${base%:*}" "$swift_limit" "${base##*:}" "$([ "$debian_rebuilt" = yes ] && echo rebuild)"
done
for line in "${base_used[@]}"; do echo "  used $line"; done

section "podman build (the project's Dockerfile)"
# The docker format keeps the HEALTHCHECK (the OCI format has no field for it and podman would drop it).
build_args=(--format docker --isolation chroot --network host --pull=never)
if [ -n "$(stand_in_of "$swift_base")" ]; then
  mapfile -t mounts < <(stand_in_mounts)
  build_args+=("${mounts[@]}")
  echo "  stand-in swift image: mounting ${mounts[*]}"
fi
# The build stage gets a tag of its own so that its layers stay cached for the next run while the untagged leftovers
# of earlier builds (close to 1 GB each) are removed.
build_stage="${image%:*}:build-stage"
build_start=$EPOCHREALTIME
if pm build "${build_args[@]}" --target build -t "$build_stage" . >"$work/build.log" 2>&1 \
    && pm build "${build_args[@]}" -t "$image" . >>"$work/build.log" 2>&1; then
  ok "image $image built in $(seconds_since "$build_start") s"
  pruned=$(pm image prune --force --filter "until=$(date -u -d "@${build_start%.*}" +%Y-%m-%dT%H:%M:%SZ)" | wc -l)
  echo "  removed $pruned untagged images left by earlier builds"
else
  tail -n 40 "$work/build.log" | sed 's/^/  | /'
  not_ok "podman build failed after $(seconds_since "$build_start") s"
  exit 1
fi

section "image size"
size_bytes=$(pm image inspect --format '{{.Size}}' "$image")
echo "  image size: $((size_bytes / 1000 / 1000)) MB ($size_bytes bytes)"
echo "  layers with content (podman history), share of the image:"
pm history --format json "$image" | python3 -c '
import json, re, sys
total = int(sys.argv[1])
for layer in json.load(sys.stdin):
    size = layer["size"]
    if size > 0:
        step = re.sub(r"^/bin/sh -c (#\(nop\) )?", "", layer["CreatedBy"])[:80]
        print(f"    {size / 1e6:6.1f} MB {100 * size / total:3.0f}%  {step}")
' "$size_bytes"
echo "  largest paths in the image (du -sk, KiB):"
pm run --rm --no-healthcheck --entrypoint /bin/sh "$image" -c \
  'du -xsk /opt/tabconfig/* /usr/lib/x86_64-linux-gnu /usr/bin /usr/share /var /etc 2>/dev/null | sort -rn' \
  | sed 's/^/    /'

section "run read-only, non-root, /data from the host, configuration by TABCONFIG_* only"
if [ ! -d /run/systemd/system ]; then
  echo "  no systemd here: podman cannot time the HEALTHCHECK, so the script runs it with podman healthcheck run"
fi
data_dir="$work/data"
mkdir -p "$data_dir"
as_root chown 10001:10001 "$data_dir"
port=$(free_port)
# start_and_await_health NAME: starts the container and checks that /healthz answers within 10 s; stops the test
# (with the container's logs) when it does not.
start_and_await_health() {
  start_container "$1"
  if wait_healthy; then
    ok "/healthz answered $healthy_ms ms after podman run"
  else
    not_ok "/healthz did not answer within 10 s"
    container_logs "$container"
    exit 1
  fi
}

secret=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
jwt=$(mint_jwt "$secret" "$test_user")
echo "  port $port (host network), data $data_dir (owner uid 10001), TABCONFIG_JWT_HS256_SECRET set"
start_and_await_health first

pid=$(pm inspect --format '{{.State.Pid}}' "$container")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
if [ -n "$uid" ] && [ "$uid" != 0 ]; then
  ok "server process runs as uid $uid (gid $(awk '/^Gid:/ { print $2 }' "/proc/$pid/status"))"
else
  not_ok "server process uid is '$uid' (want non-zero)"
fi

http GET /v1/clients/ios-phone/tabs
if [ "$http_status" = 200 ]; then
  ok "sample tab bar served: $(json_get "$http_body" '[t["id"] for t in d["tabs"]]')"
else
  not_ok "GET /v1/clients/ios-phone/tabs: $http_status $http_body"
fi

http GET /openapi.yaml
if [ "$http_status" = 200 ] && [ "${http_body%%$'\n'*}" = "openapi: 3.1.0" ]; then
  ok "openapi.yaml served from the resource bundle next to the binary"
else
  not_ok "GET /openapi.yaml: $http_status ${http_body:0:200}"
fi

console_head=$(curl -sS -m 5 -D - -o /dev/null "http://127.0.0.1:$port/admin/" 2>&1 | tr -d '\r') || true
if [[ "$console_head" == "HTTP/1.1 200"* && "$console_head" == *"Content-Security-Policy: default-src 'none';"* ]]; then
  ok "admin console served from the resource bundle, with its Content-Security-Policy"
else
  not_ok "GET /admin/: ${console_head:0:300}"
fi

order='{"order": ["profile", "favorites", "search", "home"], "hidden": ["settings"]}'
http PUT "/v1/clients/ios-phone/users/$test_user/tab-order" "$order"
if [ "$http_status" = 200 ]; then
  ok "PUT tab order of $test_user with a HS256 JWT: $http_body"
else
  not_ok "PUT tab order: $http_status $http_body"
fi
http GET "/v1/clients/ios-phone/users/$test_user/tabs"
before=$(json_get "$http_body" '[t["id"] for t in d["tabs"]]' 2>/dev/null || echo "$http_body")
if [ "$http_status" = 200 ] && [ "$before" = '["home","profile","library","favorites","search","downloads"]' ]; then
  ok "user tab bar reflects the order: $before"
else
  not_ok "user tab bar: $http_status $before"
fi

health_cmd=$(pm inspect --format '{{json .Config.Healthcheck.Test}}' "$container")
if hc_output=$(pm healthcheck run "$container" 2>&1); then
  ok "image HEALTHCHECK $health_cmd: podman healthcheck run says '${hc_output:-healthy}'"
else
  not_ok "image HEALTHCHECK $health_cmd failed: $hc_output"
fi

token_file=$(as_root stat -c '%a %u' "$data_dir/admin-token" 2>/dev/null || true)
token_hash=$(as_root sha256sum "$data_dir/admin-token" 2>/dev/null | cut -c1-16 || true)
if [ "$token_file" = "600 10001" ]; then
  ok "generated admin token on the volume: mode 600, owner uid 10001"
else
  not_ok "admin token on the volume: '$token_file' (want mode 600, owner 10001)"
fi

stop_container

section "restart: a new container on the same volume"
start_and_await_health second
http GET "/v1/clients/ios-phone/users/$test_user/tabs"
after=$(json_get "$http_body" '[t["id"] for t in d["tabs"]]' 2>/dev/null || echo "$http_body")
if [ "$http_status" = 200 ] && [ "$after" = "$before" ]; then
  ok "restart survival: $test_user's tab bar after the restart is the same: $after"
else
  not_ok "restart survival: $http_status $after (before: $before)"
fi
http GET "/v1/clients/ios-phone/users/$test_user/tab-order"
if [ "$http_status" = 200 ] && [ "$(json_get "$http_body" '[d["order"], d["hidden"], d["revision"]]')" \
    = '[["profile","favorites","search","home"],["settings"],1]' ]; then
  ok "restart survival: stored order, hidden tabs and revision unchanged: $http_body"
else
  not_ok "restart survival: stored tab order $http_status $http_body"
fi
if [ -n "$token_hash" ] && [ "$(as_root sha256sum "$data_dir/admin-token" | cut -c1-16)" = "$token_hash" ]; then
  ok "restart survival: the generated admin token is the same (sha256 $token_hash...)"
else
  not_ok "restart survival: the admin token changed or is missing"
fi
stop_container

section "compose.yaml with podman-compose"
compose_project="$run_id"
if config_output=$(compose config 2>&1); then
  ok "podman-compose config accepts compose.yaml"
elif grep -q "invalid choice: 'config'" <<<"$config_output"; then
  echo "  this podman-compose has no config command: up -d below is what checks compose.yaml"
else
  not_ok "podman-compose config: $(tail -n 5 <<<"$config_output")"
fi
compose_start=$EPOCHREALTIME
if compose up -d >"$work/compose-up.log" 2>&1; then
  compose_container=$(pm ps --filter "label=io.podman.compose.project=$compose_project" --format '{{.Names}}' \
    | head -n 1)
  start_time=$compose_start
  if [ -n "$compose_container" ] && wait_healthy; then
    ok "podman-compose up -d: $compose_container healthy $healthy_ms ms after up"
    if hc_output=$(pm healthcheck run "$compose_container" 2>&1); then
      ok "compose healthcheck: podman healthcheck run says '${hc_output:-healthy}'"
    else
      not_ok "compose healthcheck failed: $hc_output"
    fi
  else
    not_ok "podman-compose up -d: no healthy container within 10 s"
    tail -n 20 "$work/compose-up.log" | sed 's/^/  | /'
    [ -z "$compose_container" ] || container_logs "$compose_container"
  fi
else
  not_ok "podman-compose up -d failed"
  tail -n 20 "$work/compose-up.log" | sed 's/^/  | /'
fi
if compose down --volumes >"$work/compose-down.log" 2>&1; then
  ok "podman-compose down --volumes"
  pm network rm "${compose_project}_default" >/dev/null 2>&1 || true
  compose_project=""
else
  not_ok "podman-compose down --volumes"
  tail -n 10 "$work/compose-down.log" | sed 's/^/  | /'
fi

section "compose.replicas.yaml: PostgreSQL, two replicas, haproxy"
compose_project="$run_id-replicas"
compose_file=compose.replicas.yaml
admin_token=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
postgres_password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
port=$(free_port)
replicas_start=$EPOCHREALTIME
replica_container() {
  pm ps --filter "label=io.podman.compose.project=$compose_project" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -n 1
}
# GET $2 on replica $1 from inside its container (the replicas publish no port), with the user's token or the bearer
# token $3: sets $http_status and $http_body.
replica_get() {
  local response
  response=$(pm exec "$(replica_container "$1")" curl -sS -m 5 -w '\n%{http_code}' \
    -H "Authorization: Bearer ${3:-$jwt}" "http://127.0.0.1:8080$2" 2>&1) || true
  http_status=${response##*$'\n'}
  http_body=${response%$'\n'*}
}
# Waits up to $1 s until both replicas answer /readyz through haproxy.
both_ready() {
  local deadline seen
  deadline=$(awk -v t="$EPOCHREALTIME" -v limit="$1" 'BEGIN { printf "%.3f", t + limit }')
  while awk -v d="$deadline" -v now="$EPOCHREALTIME" 'BEGIN { exit !(now < d) }'; do
    seen=$(for _ in 1 2 3 4; do
      curl -s -m 2 -o /dev/null -D - "http://127.0.0.1:$port/readyz" 2>/dev/null \
        | awk 'tolower($1) == "x-replica:" { print $2 }' | tr -d '\r'
    done | sort -u | tr '\n' ' ')
    if [ "$seen" = "tabconfig-1 tabconfig-2 " ]; then return 0; fi
    sleep 0.5
  done
  return 1
}
if compose up -d >"$work/replicas-up.log" 2>&1 && both_ready 90; then
  ok "podman-compose up -d: both replicas ready behind haproxy $(seconds_since "$replicas_start") s after up"
else
  not_ok "podman-compose -f compose.replicas.yaml up -d: the replicas were not ready behind haproxy within 90 s"
  tail -n 20 "$work/replicas-up.log" | sed 's/^/  | /'
  for service in postgres tabconfig-1 tabconfig-2 haproxy; do
    name=$(replica_container "$service")
    [ -z "$name" ] || container_logs "$name"
  done
fi

http PUT "/v1/clients/ios-phone/users/$test_user/tab-order" "$order"
if [ "$http_status" = 200 ]; then
  ok "PUT tab order through haproxy: $http_body"
else
  not_ok "PUT tab order through haproxy: $http_status $http_body"
fi
for replica in tabconfig-1 tabconfig-2; do
  replica_get "$replica" "/v1/clients/ios-phone/users/$test_user/tab-order"
  if [ "$http_status" = 200 ] && [ "$(json_get "$http_body" 'd["revision"]')" = 1 ]; then
    ok "$replica serves the write: $http_body"
  else
    not_ok "$replica: $http_status $http_body (want revision 1)"
  fi
done

config=$(HTTP_AUTHORIZATION="Bearer $admin_token" http GET /v1/clients/ios-phone/config && json_get "$http_body" 'd["config"]')
HTTP_AUTHORIZATION="Bearer $admin_token" http PUT /v1/clients/ios-phone/config "$config"
if [ "$http_status" = 201 ]; then
  ok "publish through haproxy: version $(json_get "$http_body" 'd["version"]')"
else
  not_ok "publish through haproxy: $http_status ${http_body:0:200}"
fi
for replica in tabconfig-1 tabconfig-2; do
  shown=""
  for _ in $(seq 1 20); do
    replica_get "$replica" /v1/clients/ios-phone/config "$admin_token"
    shown=$(json_get "$http_body" 'd["version"]' 2>/dev/null || true)
    [ "$shown" = 2 ] && break
    sleep 0.1
  done
  if [ "$shown" = 2 ]; then ok "$replica serves version 2"; else not_ok "$replica: live version '$shown' (want 2)"; fi
done

stopped=$(replica_container tabconfig-1)
pm_without_timer_errors stop --time 10 "$stopped" >/dev/null
answered=0
failures=0
for _ in $(seq 1 40); do
  status=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $jwt" \
    "http://127.0.0.1:$port/v1/clients/ios-phone/users/$test_user/tabs")
  if [ "$status" = 200 ]; then answered=$((answered + 1)); else failures=$((failures + 1)); fi
done
http PUT "/v1/clients/ios-phone/users/$test_user/tab-order" '{"order": ["search"], "hidden": []}'
if [ "$failures" = 0 ] && [ "$http_status" = 200 ]; then
  ok "tabconfig-1 stopped: 40 reads through haproxy answered 200, the write too: $http_body"
else
  not_ok "tabconfig-1 stopped: $answered reads answered, $failures failed; write $http_status $http_body"
fi
pm_without_timer_errors start "$stopped" >/dev/null
if both_ready 60; then
  replica_get tabconfig-1 "/v1/clients/ios-phone/users/$test_user/tab-order"
  if [ "$(json_get "$http_body" 'd["revision"]' 2>/dev/null)" = 2 ]; then
    ok "tabconfig-1 started again: serves the write made while it was away (revision 2)"
  else
    not_ok "tabconfig-1 started again: $http_status $http_body (want revision 2)"
  fi
else
  not_ok "tabconfig-1 was not ready again within 60 s"
  container_logs "$stopped"
fi
if compose down --volumes >"$work/replicas-down.log" 2>&1; then
  ok "podman-compose -f compose.replicas.yaml down --volumes"
  pm network rm "${compose_project}_default" >/dev/null 2>&1 || true
  pm volume rm "${compose_project}_postgres-data" >/dev/null 2>&1 || true
  compose_project=""
else
  not_ok "podman-compose -f compose.replicas.yaml down --volumes"
  tail -n 10 "$work/replicas-down.log" | sed 's/^/  | /'
fi

section "summary"
for line in "${base_used[@]}"; do echo "  base image $line"; done
echo "  total time $(seconds_since "$script_start") s"
echo "container-test: $passed passed, $failed failed"
if [ "$failed" -eq 0 ]; then
  echo "container-test: PASS"
else
  echo "container-test: FAIL"
  exit 1
fi
