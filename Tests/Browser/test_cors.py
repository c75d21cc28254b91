"""CORS as a browser enforces it: a page on another origin reads the tab bar, follows the event stream and publishes
as an admin when tabconfig lists its origin (`--cors-origin`), and is refused when it does not."""

import http.server
import socket
import threading

import pytest

from conftest import ADMIN_TOKEN, run


@pytest.fixture
def page_origins():
    """Two static sites on loopback ports of their own: two origins, neither the service's."""
    servers = []
    for _ in range(2):
        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = b"<!doctype html><title>another origin</title>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
        threading.Thread(target=site.serve_forever, daemon=True).start()
        servers.append(site)
    try:
        yield [f"http://127.0.0.1:{site.server_address[1]}" for site in servers]
    finally:
        for site in servers:
            site.shutdown()
            site.server_close()


READ_AND_FOLLOW = """
    const [base, token] = args;
    const seen = {};
    try {
        const response = await fetch(base + '/v1/clients/ios-phone/tabs?locale=en');
        seen.status = response.status;
        seen.etag = response.headers.get('ETag');
        seen.requestId = response.headers.get('X-Request-Id');
        seen.version = (await response.json()).version;
    } catch (error) {
        seen.fetchError = String(error);
    }
    const events = new EventSource(base + '/v1/clients/ios-phone/tabs/events');
    const versions = [];
    const opened = await new Promise(resolve => {
        events.addEventListener('version', event => {
            versions.push(JSON.parse(event.data).version);
            resolve(true);
        });
        events.onerror = () => resolve(false);
        setTimeout(() => resolve(false), 5000);
    });
    seen.eventStream = opened;
    if (opened && token) {
        const admin = {'Authorization': 'Bearer ' + token};
        const live = await (await fetch(base + '/v1/clients/ios-phone/config', {headers: admin})).json();
        const published = await fetch(base + '/v1/clients/ios-phone/config?note=cors', {
            method: 'PUT', headers: {...admin, 'Content-Type': 'application/json'},
            body: JSON.stringify(live.config)});
        seen.published = published.status;
        seen.location = published.headers.get('Location');
        const deadline = Date.now() + 10000;
        while (!versions.includes(2) && Date.now() < deadline) await new Promise(wake => setTimeout(wake, 20));
        seen.events = versions;
    }
    events.close();
    return seen;
"""


def test_an_allowed_origin_reads_follows_and_publishes(browser, start_server, page_origins):
    allowed, _ = page_origins
    server = start_server("--cors-origin", allowed)
    browser.get(allowed + "/")
    seen = run(browser, READ_AND_FOLLOW, server.base, ADMIN_TOKEN)
    assert seen["status"] == 200
    assert seen["etag"] == '"t1-en;br"', "ETag is exposed (the brotli form's: Chromium asks for br)"
    assert seen["requestId"], "X-Request-Id is exposed"
    assert seen["version"] == 1
    assert seen["eventStream"] is True
    assert seen["published"] == 201, "the preflight of an admin PUT passed"
    assert seen["location"] == "/v1/clients/ios-phone/config/versions/2"
    assert seen["events"] == [1, 2], "the publish reached the cross-origin EventSource"


def test_another_origin_is_refused(browser, start_server, page_origins):
    allowed, other = page_origins
    server = start_server("--cors-origin", allowed)
    browser.get(other + "/")
    seen = run(browser, READ_AND_FOLLOW, server.base, None)
    assert "Failed to fetch" in seen.get("fetchError", ""), seen
    assert seen["eventStream"] is False


def test_any_origin_reads_the_public_tab_bar_only(browser, start_server, page_origins):
    _, other = page_origins
    server = start_server("--cors-origin", "*")
    browser.get(other + "/")
    seen = run(browser, READ_AND_FOLLOW, server.base, None)
    assert seen["status"] == 200 and seen["version"] == 1
    assert seen["eventStream"] is True
    admin = run(browser, """
        const [base, token] = args;
        try {
            await fetch(base + '/v1/clients/ios-phone/config', {headers: {'Authorization': 'Bearer ' + token}});
            return 'read';
        } catch (error) {
            return String(error);
        }
    """, server.base, ADMIN_TOKEN)
    assert "Failed to fetch" in admin, "the admin config is not public"
