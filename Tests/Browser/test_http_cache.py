"""What a browser's HTTP cache does with tabconfig's answers: it may keep them, but never shows an older tab bar
after the user's own write or after the event stream announced a new version, and revalidates with a 304; and the
default tab bar arrives compressed (Chromium asks for br and gzip) and decodes to the identity bytes."""

import urllib.request

from conftest import ADMIN_TOKEN, run

USER_TABS = "/v1/clients/ios-phone/users/webuser/tabs?locale=en"
DEFAULT_TABS = "/v1/clients/ios-phone/tabs?locale=en"


def open_page(browser, server):
    # Any page of the service's origin: the scripts then fetch from it without CORS.
    browser.get(server.base + "/healthz")


def test_user_sees_own_write_at_once(browser, server):
    open_page(browser, server)
    seen = run(browser, """
        const [url] = args;
        const before = await (await fetch(url)).json();
        const put = await fetch('/v1/clients/ios-phone/users/webuser/tab-order', {
            method: 'PUT', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({order: ['profile', 'favorites', 'search', 'home']})});
        const after = await (await fetch(url)).json();
        return {before: before.customization.revision, put: put.status,
                after: after.customization.revision, source: after.customization.source};
    """, USER_TABS)
    assert seen == {"before": 0, "put": 200, "after": 1, "source": "user"}


def test_event_then_fetch_gets_the_new_version(browser, server):
    open_page(browser, server)
    seen = run(browser, """
        const [url, token] = args;
        const events = new EventSource('/v1/clients/ios-phone/tabs/events');
        const versions = [];
        const waiters = [];
        events.addEventListener('version', event => {
            versions.push(JSON.parse(event.data));
            waiters.splice(0).forEach(wake => wake());
        });
        const eventFor = async version => {
            while (!versions.some(v => v.version === version)) await new Promise(wake => waiters.push(wake));
            return versions.find(v => v.version === version);
        };
        await eventFor(1);
        const before = await (await fetch(url)).json();
        const admin = {'Authorization': 'Bearer ' + token};
        const live = await (await fetch('/v1/clients/ios-phone/config', {headers: admin})).json();
        const published = await fetch('/v1/clients/ios-phone/config?note=browser', {
            method: 'PUT', headers: {...admin, 'Content-Type': 'application/json'},
            body: JSON.stringify(live.config)});
        const announced = await eventFor(2);
        events.close();
        const response = await fetch(url);
        const after = await response.json();
        return {before: before.version, published: published.status, announced: announced.version,
                after: after.version,
                // The event names the identity form's tag; Chromium holds the brotli form's, with ";br" added.
                tagMatches: response.headers.get('ETag').replace(/;(br|gzip)"$/, '"') === announced.etag};
    """, DEFAULT_TABS, ADMIN_TOKEN)
    assert seen == {"before": 1, "published": 201, "announced": 2, "after": 2, "tagMatches": True}


def test_unchanged_tab_bars_are_revalidated_not_downloaded(browser, server):
    open_page(browser, server)
    sizes = run(browser, """
        const sizes = {};
        for (const path of args) {
            const url = new URL(path, location.href).href;
            const first = await (await fetch(url)).text();
            const second = await (await fetch(url)).text();
            const entries = performance.getEntriesByName(url);
            const last = entries[entries.length - 1];
            sizes[path] = {same: first === second, entries: entries.length, body: last.encodedBodySize,
                           transferred: last.transferSize};
        }
        return sizes;
    """, DEFAULT_TABS, USER_TABS)
    for path, size in sizes.items():
        assert size["same"], path
        assert size["entries"] == 2, path
        # A 304: the cached body is used, only the response head crossed the network.
        assert 0 < size["transferred"] < size["body"], (path, size)


def test_the_default_tab_bar_arrives_compressed_and_decodes_to_the_identity_bytes(browser, server):
    open_page(browser, server)
    seen = run(browser, """
        const url = new URL(args[0], location.href).href;
        const response = await fetch(url, {cache: 'no-store'});
        const text = await response.text();
        const entries = performance.getEntriesByName(url);
        const entry = entries[entries.length - 1];
        return {status: response.status, encoding: response.headers.get('Content-Encoding'),
                etag: response.headers.get('ETag'), vary: response.headers.get('Vary'), text: text,
                encoded: entry.encodedBodySize, decoded: entry.decodedBodySize};
    """, DEFAULT_TABS)
    with urllib.request.urlopen(server.base + DEFAULT_TABS, timeout=10) as plain:
        identity = plain.read().decode()
        identity_tag = plain.headers["ETag"]
    assert seen["status"] == 200 and seen["encoding"] == "br", seen["encoding"]
    assert seen["etag"] == identity_tag[:-1] + ';br"'
    assert "Accept-Encoding" in seen["vary"]
    assert seen["text"] == identity
    assert 0 < seen["encoded"] * 4 <= seen["decoded"] == len(identity.encode()), (seen["encoded"], seen["decoded"])
