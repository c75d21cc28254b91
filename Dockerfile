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
RUN swift build -c release --static-swift-stdlib --traits PostgreSQL --product tabconfig
# The binary is stripped: its symbols and debug info are a third of its size.
RUN mkdir -p /out \
    && strip -o /out/tabconfig "$(swift build -c release --show-bin-path)/tabconfig" \
    && cp -R "$(swift build -c release --show-bin-path)/tabconfig_TabBarAPI.resources" /out/

# Runtime stage: slim Debian with the libmicrohttpd and brotli runtime libraries (zlib is in the base image), running
# as a non-root user. libcurl4 is what
# FoundationNetworking (URLSession: `tabconfig export` / `apply`) loads; curl, for the health check, needs it too.
FROM debian:bookworm-slim
# Debian bookworm's security updates move these versions; pinning them would break rebuilds.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libbrotli1 libcurl4 curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 tabconfig \
    && useradd --system --uid 10001 --gid tabconfig --home-dir /data --shell /usr/sbin/nologin tabconfig \
    && mkdir -p /data \
    && chown tabconfig:tabconfig /data
COPY --from=build /out/ /opt/tabconfig/
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
