"""The admin console (/admin/) in headless Chromium against the real server: sign-in, the form editor and its live
preview (the server's resolution), publish with a reviewed diff and the builds that would not show a tab, problems
beside fields, history and rollback, a second admin's browser following a publish, a title holding markup shown as
text, the Content-Security-Policy and a console free of errors. Screenshots of the editor and the preview at desktop and phone widths are saved under
$TABCONFIG_SCREENSHOTS (default .build/screenshots)."""

import http.client
import json
import os
import urllib.error
import urllib.parse
import urllib.request

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ADMIN_TOKEN

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SCREENSHOTS = os.environ.get("TABCONFIG_SCREENSHOTS") or os.path.join(
    os.path.dirname(__file__), "..", "..", ".build", "screenshots")


def tab(tab_id, title, image, **extra):
    return {"id": tab_id, "title": {"default": title, "localized": {"fr": title + " (fr)"}}, "icon": {"image": image},
            "destination": {"type": "viewController", "name": tab_id.capitalize() + "ViewController"}, **extra}


SHOP = {
    "tabs": [tab("home", "Home", "house", locked=True), tab("search", "Search", "magnifyingglass"),
             tab("cart", "Cart", "cart", badge="3"), tab("profile", "Profile", "person"),
             tab("settings", "Settings", "gear"), tab("help", "Help", "questionmark")],
    "maxVisibleTabs": 4,
    "initialTab": "search",
    "defaultLocale": "en",
    "appearance": {"selectedTintColor": "#FF2D55"},
}


def api(server, method, path, body=None, token=ADMIN_TOKEN):
    """Calls the service; returns (status, headers, decoded JSON or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.base + path, data=data, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, raw = error.code, error.headers, error.read()
    text = raw.decode()
    is_json = "json" in (headers.get("Content-Type") or "")
    return status, headers, json.loads(text) if is_json and text else text


def publish(server, client, document):
    status, _, body = api(server, "PUT", f"/v1/clients/{client}/config", document)
    assert status == 201, body
    return body["version"]


def wait(driver, condition, message, timeout=20):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda _: condition(), message)


def element(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def texts(driver, selector):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.textContent.trim())", selector)


def attributes(driver, selector, name):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.getAttribute(arguments[1]))",
        selector, name)


def sign_in(driver, server, token=ADMIN_TOKEN):
    driver.get(server.base + "/admin/")
    key = element(driver, "#admin-key")
    key.clear()
    key.send_keys(token)
    element(driver, "#sign-in-button").click()


def open_client(driver, server, client):
    sign_in(driver, server)
    wait(driver, lambda: element(driver, "#console").is_displayed(), "the console after sign-in")
    selector = f'#clients li[data-client="{client}"] button.select-client'
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, selector), f"{client} in the client list")
    element(driver, selector).click()
    wait(driver, lambda: element(driver, "#editor").get_attribute("data-client") == client, "the editor on " + client)
    wait_for_preview(driver)


def preview_render(driver):
    return int(element(driver, "#preview").get_attribute("data-render") or 0)


def wait_for_preview(driver, after=None):
    """Waits until the preview shows a render newer than `after` (any render when None)."""
    wait(driver, lambda: element(driver, "#preview").get_attribute("data-state") == "ready"
         and (after is None or preview_render(driver) > after), "a new preview render")


def preview_tabs(driver):
    """The preview's tabs: (id, title) in the bar, then under "More"."""
    bar = list(zip(attributes(driver, "#preview-bar li.preview-tab", "data-tab-id"),
                   texts(driver, "#preview-bar li.preview-tab .title")))
    more = list(zip(attributes(driver, "#preview-more-list li[data-tab-id]", "data-tab-id"),
                    texts(driver, "#preview-more-list li[data-tab-id] .title")))
    return bar, more


def field(driver, pointer):
    return element(driver, f'[data-pointer="{pointer}"]')


def type_into(driver, pointer, value):
    """Replaces a form field's text as a person does: select all, type."""
    target = field(driver, pointer)
    target.send_keys(Keys.CONTROL, "a")
    target.send_keys(Keys.DELETE)
    target.send_keys(value)


def edit_and_wait(driver, pointer, value):
    before = preview_render(driver)
    type_into(driver, pointer, value)
    wait_for_preview(driver, after=before)


def live_version(driver, client):
    found = texts(driver, f'#clients li[data-client="{client}"] .version')
    return found[0] if found else None


def severe_messages(driver, allow=()):
    """The console's SEVERE messages, except failed requests whose message names an allowed status."""
    messages = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    return [m for m in messages if not any(f"status of {status}" in m for status in allow)]


def no_alert(driver):
    try:
        driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


def screenshot(driver, name):
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.abspath(os.path.join(SCREENSHOTS, name))
    assert driver.save_screenshot(path), path
    return path


def test_console_files_carry_the_policy_and_the_page_has_no_inline_script(server):
    status, headers, page = api(server, "GET", "/admin/", token=None)
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"] == CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "<script>" not in page and " style=" not in page and " onclick=" not in page
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(server.base).netloc, timeout=10)
    connection.request("GET", "/admin")
    moved = connection.getresponse()
    assert moved.status == 301 and moved.getheader("Location") == "/admin/"
    connection.close()
    for name in ("main.js", "console.css", "icon.svg"):
        status, headers, _ = api(server, "GET", "/admin/" + name, token=None)
        assert status == 200 and headers["Content-Security-Policy"] == CSP, name
    assert api(server, "GET", "/admin/README.md", token=None)[0] == 404


def test_sign_in_edit_preview_publish_and_roll_back(server, browser):
    publish(server, "shop", SHOP)
    browser.set_window_size(1280, 900)
    sign_in(browser, server, token="not-the-key")
    wait(browser, lambda: element(browser, "#sign-in-error").text.strip() != "", "the sign-in error")
    assert not element(browser, "#console").is_displayed()
    browser.get_log("browser")  # the refused sign-in's 401 is expected; the rest of the run logs nothing
    open_client(browser, server, "shop")
    assert browser.execute_script("return sessionStorage.getItem('tabconfig.adminKey')") == ADMIN_TOKEN
    assert ADMIN_TOKEN not in browser.current_url
    assert live_version(browser, "shop") == "v1"
    bar, more = preview_tabs(browser)
    assert bar == [("home", "Home"), ("search", "Search"), ("cart", "Cart")]
    assert more == [("profile", "Profile"), ("settings", "Settings"), ("help", "Help")]
    assert browser.find_elements(By.CSS_SELECTOR, "#preview-bar li.preview-more")
    selected = element(browser, '#preview-bar li.preview-tab[aria-selected="true"]')
    assert selected.get_attribute("data-tab-id") == "search"
    assert element(browser, "#preview-screen-title").text == "Search"
    assert texts(browser, '#preview-bar li[data-tab-id="cart"] .badge') == ["3"]

    # Renamed in the form: the preview changes before anything is published.
    edit_and_wait(browser, "/tabs/0/title/default", "Start")
    wait(browser, lambda: preview_tabs(browser)[0][0] == ("home", "Start"), "the renamed tab in the preview")
    assert element(browser, "#editor").get_attribute("data-dirty") == "true"
    assert '"Start"' in element(browser, "#json-editor").get_attribute("value")
    assert api(server, "GET", "/v1/clients/shop/tabs")[2]["tabs"][0]["title"] == "Home"
    # The preview's locale control: the French titles, from the server.
    before = preview_render(browser)
    browser.execute_script(
        "const s = document.querySelector('#preview-locale'); s.value = 'fr';"
        "s.dispatchEvent(new Event('change', {bubbles: true}))")
    wait_for_preview(browser, after=before)
    assert preview_tabs(browser)[0][1] == ("search", "Search (fr)")
    before = preview_render(browser)
    browser.execute_script(
        "const s = document.querySelector('#preview-locale'); s.value = 'en';"
        "s.dispatchEvent(new Event('change', {bubbles: true}))")
    wait_for_preview(browser, after=before)
    path = screenshot(browser, "console-desktop.png")

    # Publish after reviewing the diff, with a note.
    element(browser, "#publish-note").send_keys("Home is Start now")
    element(browser, "#review-publish").click()
    wait(browser, lambda: element(browser, "#review-dialog").get_attribute("open") is not None, "the review dialog")
    wait(browser, lambda: any("Start" in line for line in texts(browser, "#diff-list li")), "the change in the diff")
    element(browser, "#confirm-publish").click()
    wait(browser, lambda: live_version(browser, "shop") == "v2", "v2 in the client list")
    wait(browser, lambda: attributes(browser, "#history li[data-version]", "data-version")[:2] == ["2", "1"],
         "v2 in the history")
    assert element(browser, '#history li[data-version="2"]').get_attribute("aria-current") == "true"
    status, _, live = api(server, "GET", "/v1/clients/shop/config")
    assert live["version"] == 2 and live["note"] == "Home is Start now"
    assert live["config"]["tabs"][0]["title"]["default"] == "Start"
    wait(browser, lambda: element(browser, "#editor").get_attribute("data-version") == "2", "the editor on v2")
    assert element(browser, "#editor").get_attribute("data-dirty") == "false"

    # Roll back to version 1: its diff against the live one is reviewed first.
    element(browser, '#history li[data-version="1"] button.rollback').click()
    wait(browser, lambda: element(browser, "#rollback-dialog").get_attribute("open") is not None, "the rollback dialog")
    wait(browser, lambda: any("Home" in line for line in texts(browser, "#rollback-diff li")), "the rollback diff")
    element(browser, "#rollback-note").send_keys("back to Home")
    before = preview_render(browser)
    element(browser, "#confirm-rollback").click()
    wait(browser, lambda: live_version(browser, "shop") == "v3", "v3 after the rollback")
    status, _, live = api(server, "GET", "/v1/clients/shop/config")
    assert live["version"] == 3 and live["rollbackOf"] == 1 and live["note"] == "back to Home"
    wait(browser, lambda: preview_tabs(browser)[0][0] == ("home", "Home"), "the preview after the rollback")
    assert preview_render(browser) > before
    assert severe_messages(browser) == []
    assert os.path.getsize(path) > 0


def test_review_shows_the_builds_that_will_not_show_a_tab(server, browser):
    publish(server, "shop", SHOP)
    classes = [t["destination"]["name"] for t in SHOP["tabs"]]
    old = {"buildNumber": "5190", "viewControllers": [c for c in classes if c != "CartViewController"]}
    assert api(server, "PUT", "/v1/clients/shop/builds/ios/5.1.9", old)[0] == 201
    assert api(server, "PUT", "/v1/clients/shop/builds/ios/5.2.0", {"viewControllers": classes})[0] == 201
    browser.set_window_size(1280, 900)
    open_client(browser, server, "shop")
    wait(browser, lambda: live_version(browser, "shop") == "v1", "v1 in the client list")

    # A change to a title: 5.1.9 still lacks the cart tab's screen, which the review says; 5.2.0 has everything.
    edit_and_wait(browser, "/tabs/0/title/default", "Start")
    element(browser, "#review-publish").click()
    wait(browser, lambda: element(browser, "#review-dialog").get_attribute("open") is not None, "the review dialog")
    wait(browser, lambda: element(browser, "#review-builds").is_displayed(), "the build warnings")
    assert attributes(browser, "#build-warnings li", "data-build") == ["ios 5.1.9"]
    assert attributes(browser, "#build-warnings li", "data-tab-id") == ["cart"]
    assert texts(browser, "#build-warnings li") == [
        'ios 5.1.9 (build 5190) will not show tab "cart": it has no viewController CartViewController '
        "(/tabs/2/destination/name)."]
    screenshot(browser, "console-review-builds.png")
    element(browser, "#confirm-publish").click()
    wait(browser, lambda: live_version(browser, "shop") == "v2", "v2: a warning never stops the publish")

    # Without a manifest lacking anything, the review has no build section.
    assert api(server, "DELETE", "/v1/clients/shop/builds/ios/5.1.9")[0] == 204
    edit_and_wait(browser, "/tabs/0/title/default", "Home")
    element(browser, "#review-publish").click()
    wait(browser, lambda: element(browser, "#review-dialog").get_attribute("open") is not None, "the review dialog")
    wait(browser, lambda: any("Home" in line for line in texts(browser, "#diff-list li")), "the change in the diff")
    assert not element(browser, "#review-builds").is_displayed()
    assert texts(browser, "#build-warnings li") == []
    element(browser, "#cancel-publish").click()
    assert severe_messages(browser) == []


def test_an_invalid_document_shows_the_problem_beside_the_field(server, browser):
    publish(server, "shop", SHOP)
    open_client(browser, server, "shop")
    type_into(browser, "/tabs/1/id", "Bad Id!")
    problem_selector = '.problem[data-problem-for="/tabs/1/id"]'
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, problem_selector)
         and element(browser, problem_selector).is_displayed(), "the problem beside /tabs/1/id")
    problem = element(browser, problem_selector)
    assert "must match" in problem.text
    source = field(browser, "/tabs/1/id")
    assert source.get_attribute("aria-invalid") == "true"
    assert problem.get_attribute("id") in (source.get_attribute("aria-describedby") or "").split()
    row = element(browser, "#tab-list li.tab-row:nth-child(2)")
    assert row.find_elements(By.CSS_SELECTOR, problem_selector), "the problem is in the tab's own row"
    # Fixed: the problem goes away and the preview comes back.
    before = preview_render(browser)
    type_into(browser, "/tabs/1/id", "find")
    wait_for_preview(browser, after=before)
    wait(browser, lambda: [tab_id for tab_id, _ in preview_tabs(browser)[0]] == ["home", "find", "cart"],
         "the fixed id in the preview")
    assert not browser.find_elements(By.CSS_SELECTOR, ".problem")
    # The validation answers are 422s; nothing else may be logged.
    assert severe_messages(browser, allow=(422,)) == []


def test_a_staged_rollout_is_edited_in_the_form_and_its_mistakes_shown_beside_it(server, browser):
    publish(server, "shop", SHOP)
    open_client(browser, server, "shop")
    type_into(browser, "/tabs/1/rollout/stages", '[{"coverage": 0.1, "hold": "1 hour"}, {"coverage": 1}]')
    beside = '.problem[data-problem-for="/tabs/1/rollout/stages"]'
    wait(browser, lambda: any("0/hold: must be an ISO 8601 duration" in p.text
                              for p in browser.find_elements(By.CSS_SELECTOR, beside)), "the hold's problem beside")
    wait(browser, lambda: any("guard: is required with stages" in p.text
                              for p in browser.find_elements(By.CSS_SELECTOR, '.problem[data-problem-for="/tabs/1"]')),
         "the missing guard in the tab's row")
    before = preview_render(browser)
    type_into(browser, "/tabs/1/rollout/stages", '[{"coverage": 0.1, "hold": "PT1H"}, {"coverage": 1}]')
    type_into(browser, "/tabs/1/rollout/guard/maxFailureRate", "0.02")
    type_into(browser, "/tabs/1/rollout/guard/minOpens", "500")
    wait_for_preview(browser, after=before)
    wait(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".problem"), "no problem left")
    element(browser, "#show-json").click()
    document = json.loads(element(browser, "#json-editor").get_attribute("value"))
    assert document["tabs"][1]["rollout"] == {
        "stages": [{"coverage": 0.1, "hold": "PT1H"}, {"coverage": 1}],
        "guard": {"maxFailureRate": 0.02, "minOpens": 500},
    }
    assert severe_messages(browser, allow=(422,)) == []


def test_staged_rollouts_show_their_stage_and_figures_and_are_paused_and_rolled_back(server, browser):
    staged = json.loads(json.dumps(SHOP))
    staged["tabs"][2]["rollout"] = {"stages": [{"coverage": 0.1, "hold": "PT1H"}, {"coverage": 1}],
                                    "guard": {"maxFailureRate": 0.02, "minOpens": 500}}
    publish(server, "shop", staged)
    open_client(browser, server, "shop")
    entry = '#rollouts li[data-tab="cart"]'

    def shown():
        """The entry's state and text, read at once: the list is drawn again on each event and action."""
        return browser.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? [e.dataset.state, e.textContent] : null",
            entry)

    wait(browser, lambda: shown() is not None, "the cart's rollout")
    state, text = shown()
    assert state == "running"
    assert "stage 1 of 2" in text and "coverage 10 %" in text and "guard 2 % over 500" in text, text
    element(browser, f'{entry} button[data-action="pause"]').click()
    wait(browser, lambda: (shown() or [None])[0] == "paused", "paused")
    assert "paused by" in shown()[1]
    element(browser, f'{entry} button[data-action="rollback"]').click()
    wait(browser, lambda: (shown() or [None])[0] == "rolledBack", "rolled back")
    assert "coverage 0 %" in shown()[1]
    assert not browser.find_elements(By.CSS_SELECTOR, f'{entry} button[data-action="rollback"]')
    status, _, body = api(server, "GET", "/v1/audit?client=shop")
    assert status == 200
    actions = [e["action"] for e in body["entries"] if e.get("rollout")]
    assert actions == ["pauseRollout", "rollBackRollout"], actions
    assert severe_messages(browser) == []


def test_keyboard_reorders_tabs_and_the_json_view_stays_in_sync(server, browser):
    publish(server, "shop", SHOP)
    open_client(browser, server, "shop")
    before = preview_render(browser)
    row = element(browser, '#tab-list li.tab-row[data-tab-id="search"]')
    row.find_element(By.CSS_SELECTOR, "button.move-down").send_keys(Keys.ENTER)
    wait_for_preview(browser, after=before)
    assert attributes(browser, "#tab-list li.tab-row", "data-tab-id")[:3] == ["home", "cart", "search"]
    assert [tab_id for tab_id, _ in preview_tabs(browser)[0]] == ["home", "cart", "search"]
    document = json.loads(element(browser, "#json-editor").get_attribute("value"))
    assert [t["id"] for t in document["tabs"]][:3] == ["home", "cart", "search"]
    # Alt+ArrowUp on the focused row moves it back.
    row = element(browser, '#tab-list li.tab-row[data-tab-id="search"]')
    browser.execute_script("arguments[0].focus()", row)
    ActionChains(browser).key_down(Keys.ALT).send_keys(Keys.ARROW_UP).key_up(Keys.ALT).perform()
    wait(browser, lambda: [tab_id for tab_id, _ in preview_tabs(browser)[0]] == ["home", "search", "cart"],
         "the order Alt+ArrowUp restored, in the preview")
    assert attributes(browser, "#tab-list li.tab-row", "data-tab-id")[:3] == ["home", "search", "cart"]
    # The JSON view edited: the form follows.
    element(browser, "#show-json").click()
    document = json.loads(element(browser, "#json-editor").get_attribute("value"))
    document["tabs"][2]["title"]["default"] = "Basket"
    browser.execute_script(
        "const t = document.querySelector('#json-editor'); t.value = arguments[0];"
        "t.dispatchEvent(new Event('input', {bubbles: true}))", json.dumps(document, indent=2))
    wait(browser, lambda: ("cart", "Basket") in preview_tabs(browser)[0], "the JSON view's title in the preview")
    element(browser, "#show-form").click()
    assert field(browser, "/tabs/2/title/default").get_attribute("value") == "Basket"
    assert severe_messages(browser) == []


def test_preview_for_a_user_with_a_saved_order_matches_the_api(server, browser):
    publish(server, "shop", SHOP)
    order = ["home", "profile", "cart", "search", "help", "settings"]
    status, _, saved = api(server, "PUT", "/v1/clients/shop/users/ana/tab-order", {"order": order})
    assert status == 200, saved
    open_client(browser, server, "shop")
    before = preview_render(browser)
    element(browser, "#preview-user").send_keys("ana")
    wait_for_preview(browser, after=before)
    wait(browser, lambda: preview_tabs(browser)[0][1][0] == "profile", "ana's order in the preview")
    status, _, answer = api(server, "GET", "/v1/clients/shop/users/ana/tabs", token=None)
    assert status == 200
    expected_bar = [(t["id"], t["title"]) for t in answer["tabs"] if t["placement"] == "bar"]
    expected_more = [(t["id"], t["title"]) for t in answer["tabs"] if t["placement"] == "more"]
    bar, more = preview_tabs(browser)
    assert bar == expected_bar and more == expected_more
    assert [tab_id for tab_id, _ in bar + more] == order
    assert "user" in element(browser, "#preview-meta").text
    assert severe_messages(browser) == []


def test_a_second_browser_follows_a_publish_without_reloading(server, browser, second_browser):
    publish(server, "shop", SHOP)
    open_client(second_browser, server, "shop")
    second_browser.execute_script("window.notReloaded = true")
    open_client(browser, server, "shop")
    edit_and_wait(browser, "/tabs/2/title/default", "Basket")
    element(browser, "#review-publish").click()
    wait(browser, lambda: element(browser, "#review-dialog").get_attribute("open") is not None, "the review dialog")
    element(browser, "#confirm-publish").click()
    wait(browser, lambda: live_version(browser, "shop") == "v2", "v2 in the first browser")
    wait(second_browser, lambda: live_version(second_browser, "shop") == "v2", "v2 in the second browser", timeout=30)
    wait(second_browser, lambda: ("cart", "Basket") in preview_tabs(second_browser)[0], "the second preview")
    assert element(second_browser, "#editor").get_attribute("data-version") == "2"
    assert second_browser.execute_script("return window.notReloaded === true")
    assert severe_messages(browser) == [] and severe_messages(second_browser) == []


def test_a_title_holding_markup_is_shown_as_text(server, browser):
    publish(server, "shop", SHOP)
    open_client(browser, server, "shop")
    markup = "<img src=x onerror=alert(1)>"
    edit_and_wait(browser, "/tabs/0/title/default", markup)
    wait(browser, lambda: preview_tabs(browser)[0][0] == ("home", markup), "the markup title in the preview")
    assert not browser.find_elements(By.CSS_SELECTOR, '#preview img[src="x"], #console img[src="x"]')
    element(browser, "#review-publish").click()
    wait(browser, lambda: element(browser, "#review-dialog").get_attribute("open") is not None, "the review dialog")
    wait(browser, lambda: any(markup in line for line in texts(browser, "#diff-list li")), "the markup in the diff")
    element(browser, "#confirm-publish").click()
    wait(browser, lambda: live_version(browser, "shop") == "v2", "v2 published")
    browser.refresh()  # signed in still (sessionStorage); the published title rendered from the server's answer
    wait(browser, lambda: element(browser, "#console").is_displayed(), "the console after a reload")
    element(browser, '#clients li[data-client="shop"] button.select-client').click()
    wait(browser, lambda: preview_tabs(browser)[0][:1] == [("home", markup)], "the published markup title")
    assert no_alert(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, 'img[src="x"]')
    assert severe_messages(browser) == []


def test_phone_width_has_no_horizontal_scroll(server, browser):
    publish(server, "shop", SHOP)
    browser.set_window_size(360, 780)
    open_client(browser, server, "shop")
    width = browser.execute_script("return window.innerWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    browser.execute_script("document.querySelector('#editor').scrollIntoView()")
    screenshot(browser, "console-phone-editor.png")
    browser.execute_script("document.querySelector('#preview').scrollIntoView()")
    screenshot(browser, "console-phone-preview.png")
    more = browser.find_elements(By.CSS_SELECTOR, "#preview-bar li.preview-more")
    assert more
    more[0].click()
    wait(browser, lambda: element(browser, "#preview-more-list").is_displayed(), "the More list")
    assert severe_messages(browser) == []
