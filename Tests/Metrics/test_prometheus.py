"""GET /metrics as Prometheus sees it: promtool finds nothing to lint, and a real Prometheus server (Debian's
package) scrapes the service and answers PromQL for the request rate by route and the p99 latency."""

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

import pytest

ADMIN_TOKEN = "metrics-test-admin-token"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prometheus_tool(name):
    found = shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)
    if not found:
        pytest.fail(f"{name} is needed (scripts/install-deps.sh --test-tools installs Debian's prometheus)")
    return found


def get(url, headers=None, data=None, method=None):
    request = urllib.request.Request(url, headers=headers or {}, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture
def service():
    binary = os.environ.get("TABCONFIG_BINARY")
    if not binary:
        pytest.fail("TABCONFIG_BINARY names the tabconfig binary under test")
    with tempfile.TemporaryDirectory(prefix="tabconfig-metrics-") as directory:
        log_path = os.path.join(directory, "server.log")
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [binary, "serve", "--port", "0", "--data-dir", os.path.join(directory, "store")],
                stderr=log, stdout=subprocess.DEVNULL, env=dict(os.environ, TABCONFIG_ADMIN_TOKEN=ADMIN_TOKEN))
            base = None
            deadline = time.monotonic() + 30
            while base is None and time.monotonic() < deadline and process.poll() is None:
                with open(log_path) as read:
                    found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", read.read())
                base = found.group(1) if found else None
                time.sleep(0.05)
            assert base, open(log_path).read()
            try:
                yield base
            finally:
                process.terminate()
                process.wait(timeout=15)


def exercise(base, rounds):
    """Requests over several routes: tab-bar reads, a 304, a write, a 404, an admin read without a token."""
    for round in range(rounds):
        get(base + "/v1/clients/ios-phone/tabs?locale=en")
        get(base + "/v1/clients/ios-phone/tabs?locale=en", headers={"If-None-Match": '"t1-en"'})
        get(base + f"/v1/clients/ios-phone/users/u{round % 7}/tabs")
        get(base + f"/v1/clients/ios-phone/users/u{round % 7}/tab-order", method="PUT",
            headers={"Content-Type": "application/json"}, data=b'{"order":["search"]}')
        get(base + "/v1/clients/nobody/tabs")
        get(base + "/v1/clients/ios-phone/config")


def test_promtool_finds_nothing(service):
    exercise(service, 5)
    # A request is counted once the server has finished it, which may come after the client read the answer.
    deadline = time.monotonic() + 5
    while True:
        status, text = get(service + "/metrics")
        assert status == 200
        if b'reason="missing token"} 5' in text or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    result = subprocess.run([prometheus_tool("promtool"), "check", "metrics"], input=text, capture_output=True)
    assert result.returncode == 0 and result.stdout == b"" and result.stderr == b"", result
    body = text.decode()
    for series in ("http_requests_total", "http_request_duration_seconds_bucket", "tabconfig_store_commit_duration_seconds",
                   "tabconfig_store_commit_batch_size", "tabconfig_store_journal_bytes", "tabconfig_customizations",
                   "tabconfig_cache_lookups_total", "tabconfig_event_subscribers", "tabconfig_config_live_version",
                   "tabconfig_auth_failures_total", "tabconfig_build_info"):
        assert f"\n{series}" in body, series
    assert 'route="/v1/clients/{client}/users/{user}/tab-order"' in body
    assert "u3" not in body and "nobody" not in body, "no path or user id is a label"
    assert 'tabconfig_auth_failures_total{who="admin",reason="missing token"} 5' in body


def test_prometheus_scrapes_and_answers_promql(service, tmp_path):
    port = free_port()
    target = urllib.parse.urlparse(service).netloc
    (tmp_path / "prometheus.yml").write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        "scrape_configs:\n  - job_name: tabconfig\n    static_configs:\n"
        f"      - targets: ['{target}']\n")
    prometheus = subprocess.Popen(
        [prometheus_tool("prometheus"), f"--config.file={tmp_path / 'prometheus.yml'}",
         f"--storage.tsdb.path={tmp_path / 'data'}", f"--web.listen-address=127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "prometheus.log", "w"))
    api = f"http://127.0.0.1:{port}/api/v1"

    def query(promql):
        status, body = get(api + "/query?" + urllib.parse.urlencode({"query": promql}))
        assert status == 200, body
        return json.loads(body)["data"]["result"]

    try:
        rate = "sum by (route) (rate(http_requests_total[10s]))"
        p99 = ("histogram_quantile(0.99, sum by (le, route) "
               "(rate(http_request_duration_seconds_bucket[10s])))")
        rates, latencies = [], []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            exercise(service, 20)
            time.sleep(0.5)
            try:
                rates, latencies = query(rate), query(p99)
            except (OSError, AssertionError):
                continue
            routes = {entry["metric"].get("route") for entry in rates if float(entry["value"][1]) > 0}
            if {"/v1/clients/{client}/tabs", "/v1/clients/{client}/users/{user}/tab-order"} <= routes and \
                    any(entry["value"][1] not in ("NaN", "0") for entry in latencies):
                break
        by_route = {entry["metric"]["route"]: float(entry["value"][1]) for entry in rates}
        assert by_route.get("/v1/clients/{client}/tabs", 0) > 0, rates
        assert by_route.get("/v1/clients/{client}/users/{user}/tab-order", 0) > 0, rates
        assert by_route.get("/v1/clients/{client}/config", 0) > 0, rates
        quantiles = {entry["metric"]["route"]: entry["value"][1] for entry in latencies}
        tabs_p99 = float(quantiles["/v1/clients/{client}/tabs"])
        assert 0 < tabs_p99 <= 10, quantiles
        up = query('up{job="tabconfig"}')
        assert up and up[0]["value"][1] == "1", up
    finally:
        prometheus.terminate()
        prometheus.wait(timeout=15)
