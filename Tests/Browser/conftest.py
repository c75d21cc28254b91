"""Fixtures of the browser tests: the real tabconfig binary on a free loopback port, and headless Chromium
(Debian's chromium and chromium-driver, driven by selenium) with its own profile, so its HTTP cache starts empty."""

import os
import shutil
import sys
import tempfile

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Support"))
from tabconfig_server import Server, binary_under_test  # noqa: E402

ADMIN_TOKEN = "browser-test-admin-token"


@pytest.fixture
def server():
    with tempfile.TemporaryDirectory(prefix="tabconfig-browser-") as directory:
        started = Server(binary_under_test(), directory, admin_token=ADMIN_TOKEN)
        try:
            yield started
        finally:
            started.stop()


@pytest.fixture
def start_server():
    """Starts tabconfig with extra `serve` arguments; stops every server started when the test ends."""
    started = []
    directories = []

    def start(*arguments):
        directory = tempfile.TemporaryDirectory(prefix="tabconfig-browser-")
        directories.append(directory)
        started.append(Server(binary_under_test(), directory.name, arguments, admin_token=ADMIN_TOKEN))
        return started[-1]

    try:
        yield start
    finally:
        for server in started:
            server.stop()
        for directory in directories:
            directory.cleanup()


def chromium():
    """A headless Chromium with a profile of its own (so its HTTP cache starts empty) that keeps the page's console
    messages for `driver.get_log("browser")`; the caller quits it."""
    chromium_binary = shutil.which("chromium")
    chromedriver = shutil.which("chromedriver")
    if not chromium_binary or not chromedriver:
        pytest.fail("chromium and chromedriver are needed (scripts/install-deps.sh --test-tools installs them)")
    profile = tempfile.TemporaryDirectory(prefix="tabconfig-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium_binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--user-data-dir={profile.name}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_script_timeout(30)
    driver.profile = profile
    return driver


def quit_chromium(driver):
    driver.quit()
    driver.profile.cleanup()


@pytest.fixture
def browser():
    driver = chromium()
    try:
        yield driver
    finally:
        quit_chromium(driver)


@pytest.fixture
def second_browser():
    """Another Chromium, with its own profile and session storage: a second admin."""
    driver = chromium()
    try:
        yield driver
    finally:
        quit_chromium(driver)


def run(driver, body, *arguments):
    """Runs the body of an async JavaScript function in the page; returns its result, fails on a thrown error."""
    script = ("const done = arguments[arguments.length - 1];"
              "(async (...args) => {" + body + "})(...Array.from(arguments).slice(0, -1))"
              ".then(value => done({value}), error => done({error: String(error && error.stack || error)}));")
    result = driver.execute_async_script(script, *arguments)
    if "error" in result:
        raise AssertionError("script failed: " + result["error"])
    return result["value"]
