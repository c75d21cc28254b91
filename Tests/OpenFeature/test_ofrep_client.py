"""A real OpenFeature client against the live server: `openfeature-sdk` with `openfeature-provider-ofrep` (PyPI)
evaluates the tab bar's flags (docs/openfeature.md), and every OFREP answer is validated against the protocol's own
schema (ofrep-schema/openapi.yaml, open-feature/protocol at d1a63a4, Apache-2.0)."""

import copy
import json
import os
import sys
import tempfile
import urllib.request

import jsonschema
import pytest
import requests
import yaml
from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import ErrorCode
from openfeature.flag_evaluation import Reason

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Support"))
from tabconfig_server import Server, binary_under_test  # noqa: E402

ADMIN_TOKEN = "openfeature-test-admin-token"
SCHEMA = yaml.safe_load(open(os.path.join(os.path.dirname(__file__), "ofrep-schema", "openapi.yaml")))


def tab(identifier, **extra):
    return {"id": identifier, "title": {"default": identifier.capitalize()},
            "destination": {"type": "viewController", "name": f"{identifier.capitalize()}ViewController"}, **extra}


# home, shop (5.2.0 and later), profile; an experiment on deviceId whose variation 1 opens on profile.
CONFIG = {
    "tabs": [tab("home"), tab("shop", when={"appVersion": {"$vgte": "5.2.0"}}), tab("profile")],
    "experiments": [{"key": "layout", "hashAttribute": "deviceId", "weights": [0.5, 0.5],
                     "variations": [{}, {"initialTab": "profile"}]}],
}


def call(server, method, path, body=None, headers=None):
    request = urllib.request.Request(
        server.base + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def response_schema(path, status):
    """The schema OFREP's openapi.yaml gives the answer `status` of `path`, with `codeDefaultFlag` read as an object
    without `value` (ofrep-schema/README.md); nil for a status it gives no body."""
    operation = SCHEMA["paths"][path]["post"]
    content = operation["responses"][str(status)].get("content")
    if content is None:
        return None
    components = copy.deepcopy(SCHEMA["components"])
    components["schemas"]["codeDefaultFlag"] = {"type": "object", "not": {"required": ["value"]}}
    return {**content["application/json"]["schema"], "components": components}


class Answers:
    """Every OFREP answer a session received, for validation against the protocol's schema."""

    def __init__(self):
        self.seen = []

    def record(self, response, *args, **kwargs):
        self.seen.append(response)

    def validate(self):
        assert self.seen, "no OFREP answer was recorded"
        for response in self.seen:
            path = response.request.path_url
            template = "/ofrep/v1/evaluate/flags" if path == "/ofrep/v1/evaluate/flags" else "/ofrep/v1/evaluate/flags/{key}"
            assert str(response.status_code) in SCHEMA["paths"][template]["post"]["responses"], response.status_code
            schema = response_schema(template, response.status_code)
            if schema is not None:
                jsonschema.Draft202012Validator(schema).validate(response.json())


@pytest.fixture
def server():
    with tempfile.TemporaryDirectory(prefix="tabconfig-openfeature-") as directory:
        started = Server(binary_under_test(), directory, admin_token=ADMIN_TOKEN)
        try:
            status, _, body = call(started, "PUT", "/v1/clients/shop-app/config", CONFIG,
                                   {"Authorization": f"Bearer {ADMIN_TOKEN}"})
            assert status == 201, body
            yield started
        finally:
            started.stop()


@pytest.fixture
def answers():
    return Answers()


@pytest.fixture
def client(server, answers):
    provider = OFREPProvider(server.base)
    provider.session.hooks["response"].append(answers.record)
    api.set_provider(provider)
    yield api.get_client()
    answers.validate()
    api.clear_providers()


def context(user=None, **attributes):
    return EvaluationContext(targeting_key=user, attributes={"client": "shop-app", **attributes})


def test_tabs_object_equals_tab_bar_get(server, client):
    status, _, body = call(server, "PUT", "/v1/clients/shop-app/users/alice/tab-order", {"order": ["profile", "home"]})
    assert status == 200, body
    query = "platform=ios&appVersion=5.2.0&deviceId=d7&locale=en"
    status, _, expected = call(server, "GET", f"/v1/clients/shop-app/users/alice/tabs?{query}")
    assert status == 200
    evaluation = context("alice", platform="ios", appVersion="5.2.0", deviceId="d7", locale="en")
    details = client.get_object_details("tabs", {}, evaluation)
    assert details.error_code is None, details.error_message
    assert details.value == json.loads(expected)
    assert details.flag_metadata == {"version": 1}

    status, _, default = call(server, "GET", "/v1/clients/shop-app/tabs?locale=en")
    assert client.get_object_value("tabs", {}, context(locale="en")) == json.loads(default)


def test_tab_shop_follows_targeting_and_manifest(server, client):
    new = client.get_boolean_details("tab.shop", False, context(platform="ios", appVersion="5.2.0"))
    assert (new.value, new.reason, new.variant) == (True, Reason.TARGETING_MATCH, "on")
    old = client.get_boolean_details("tab.shop", True, context(platform="ios", appVersion="5.1.9"))
    assert (old.value, old.reason, old.variant, old.error_code) == (False, Reason.TARGETING_MATCH, "off", None)

    manifest = {"viewControllers": ["HomeViewController", "ProfileViewController"]}
    status, _, body = call(server, "PUT", "/v1/clients/shop-app/builds/ios/5.3.0", manifest,
                           {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 201, body
    lacking = client.get_boolean_details("tab.shop", True, context(platform="ios", appVersion="5.3.0"))
    assert (lacking.value, lacking.error_code) == (False, None)
    assert client.get_boolean_value("tab.home", False, context(platform="ios", appVersion="5.3.0")) is True


def test_experiment_variation_equals_tab_bar(server, client):
    seen = set()
    for device in range(12):
        status, _, body = call(server, "GET", f"/v1/clients/shop-app/tabs?deviceId=dev-{device}")
        bar = json.loads(body)
        details = client.get_string_details("experiment.layout", "?", context(deviceId=f"dev-{device}"))
        assert details.value == str(bar["experiment"]["variation"])
        assert details.reason == Reason.SPLIT
        assert client.get_string_value("initialTab", "?", context(deviceId=f"dev-{device}")) == bar["initialTab"]
        seen.add(details.value)
    assert seen == {"0", "1"}
    outside = client.get_string_details("experiment.layout", "?", context())
    assert (outside.value, outside.reason) == ("none", Reason.TARGETING_MATCH)


def test_unknown_flag_and_unknown_client(client):
    unknown = client.get_boolean_details("tab.nope", True, context())
    assert (unknown.value, unknown.error_code, unknown.reason) == (True, ErrorCode.FLAG_NOT_FOUND, Reason.ERROR)
    no_client = client.get_string_details(
        "initialTab", "home", EvaluationContext(attributes={"client": "no-such-app"}))
    assert (no_client.value, no_client.error_code) == ("home", ErrorCode.FLAG_NOT_FOUND)
    invalid = client.get_boolean_details("tab.shop", False, context(appVersion="five"))
    assert (invalid.value, invalid.error_code) == (False, ErrorCode.INVALID_CONTEXT)
    assert "appVersion" in invalid.error_message


def test_bulk_etag_and_304(server, answers):
    """The 304 path of the client-side providers (the JavaScript and Kotlin OFREP providers send the bulk ETag back
    as If-None-Match); openfeature-provider-ofrep 0.3.0 evaluates one flag per request and has none."""
    session = requests.Session()
    session.hooks["response"].append(answers.record)
    url = server.base + "/ofrep/v1/evaluate/flags"
    body = {"context": {"client": "shop-app", "appVersion": "5.2.0", "locale": "en"}}
    first = session.post(url, json=body)
    assert first.status_code == 200
    keys = [flag["key"] for flag in first.json()["flags"]]
    assert keys == ["tabs", "initialTab", "tab.home", "tab.shop", "tab.profile", "experiment.layout"]
    etag = first.headers["ETag"]
    again = session.post(url, json=body, headers={"If-None-Match": etag})
    assert (again.status_code, again.content, again.headers["ETag"]) == (304, b"", etag)
    body["context"]["appVersion"] = "5.1.9"
    changed = session.post(url, json=body, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    for bad in ({"context": {"client": "no-such-app"}}, {"context": {"client": "shop-app", "platform": 7}}):
        failure = session.post(url, json=bad)
        assert (failure.status_code, failure.json()["errorCode"]) == (400, "INVALID_CONTEXT")
    not_json = session.post(url, data=b"{context", headers={"Content-Type": "application/json"})
    assert (not_json.status_code, not_json.json()["errorCode"]) == (400, "PARSE_ERROR")
    answers.validate()
