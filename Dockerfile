# syntax=docker/dockerfile:1
# Build stage: the official Swift image on Debian bookworm.
FROM swift:6.3-bookworm AS build
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libbrotli-dev zlib1g-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Clients ./Clients
# Package.swift declares the test targets as well, and SwiftPM wants their folders even to build one product.
COPY Tests ./Tests
# With the PostgreSQL store (a package trait, not in the default build): the replicas of compose.replicas.yaml use it.
RUN swift build -c release --static-swift-stdlib --traits PostgreSQL --product tabconfig
# The binary is stripped: its symbols and debug info are a third of its size.
RUN mkdir -p /out \
    && strip -o /out/tabconfig "$(swift build -c release --show-bin-path)/tabconfig" \
    && cp -R "$(swift build -c release --show-bin-path)/tabconfig_TabBarAPI.resources" /out/

# Runtime stage: slim Debian with the libmicrohttpd and brotli runtime libraries (zlib is in the base image), running
# as a non-root user. libcurl4 is what
# FoundationNetworking (URLSession: `tabconfig export` / `apply`) loads; curl, for the health check, needs it too.
# The binary goes in last, from one of the two stages below.
FROM debian:bookworm-slim AS runtime
# Debian bookworm's security updates move these versions; pinning them would break rebuilds.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libbrotli1 libcurl4 curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 tabconfig \
    && useradd --system --uid 10001 --gid tabconfig --home-dir /data --shell /usr/sbin/nologin tabconfig \
    && mkdir -p /data \
    && chown tabconfig:tabconfig /data
ENV TABCONFIG_HOST=0.0.0.0 \
    TABCONFIG_PORT=8080 \
    TABCONFIG_DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8080
USER 10001:10001
# Through a shell so that it probes the port the service was given (TABCONFIG_PORT), not a fixed 8080.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/bin/sh", "-c", "curl --fail --silent --show-error --max-time 2 http://127.0.0.1:${TABCONFIG_PORT}/healthz"]
ENTRYPOINT ["/opt/tabconfig/tabconfig"]
CMD ["serve"]

# `--target prebuilt`: the image from a tabconfig built elsewhere, without the build stage (scripts/container-test.py
# --binary makes this context): prebuilt/ next to this Dockerfile holds the stripped binary, its
# tabconfig_TabBarAPI.resources and, unless it was linked with --static-swift-stdlib, the Swift runtime libraries it
# loads (its RUNPATH has $ORIGIN).
FROM runtime AS prebuilt
COPY prebuilt/ /opt/tabconfig/

# The default target: the binary built from source in the build stage.
FROM runtime
COPY --from=build /out/ /opt/tabconfig/
