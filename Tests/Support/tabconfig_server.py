"""The real tabconfig binary (`TABCONFIG_BINARY`) serving on a free loopback port over a data directory of its own,
for the Python test suites (Tests/Browser, Tests/OpenFeature) and scripts/test.py's own steps; and the users' HS256
tokens that scripts/test.py and scripts/container-test.py sign."""

import base64
import hashlib
import hmac
import json
import os
import re
import subprocess
import time


class Server:
    """`tabconfig serve --port 0` with extra `arguments` and `environment`; `base` is its URL once it listens."""

    def __init__(self, binary, directory, arguments=(), admin_token="test-admin-token", environment=None):
        self.log_path = os.path.join(directory, "server.log")
        self.log = open(self.log_path, "w")
        variables = dict(os.environ, TABCONFIG_ADMIN_TOKEN=admin_token, **(environment or {}))
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data-dir", os.path.join(directory, "store"), *arguments],
            stderr=self.log, stdout=subprocess.DEVNULL, env=variables)
        self.base = None
        deadline = time.monotonic() + 30
        while self.base is None and time.monotonic() < deadline:
            with open(self.log_path) as log:
                found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", log.read())
            if found:
                self.base = found.group(1)
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.05)
        if self.base is None:
            self.stop()
            with open(self.log_path) as log:
                raise RuntimeError("tabconfig did not start:\n" + log.read())

    def stop(self):
        """SIGTERM, then the server's exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)
        self.log.close()
        return self.process.returncode


def hs256_token(secret, subject, seconds):
    """An HS256 JWT for `subject` signed with `secret`, valid for `seconds`, as an identity provider signs them."""

    def part(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    def claims(value):
        return part(json.dumps(value, separators=(",", ":")).encode())

    now = int(time.time())
    header = claims({"alg": "HS256", "typ": "JWT"})
    signing_input = f"{header}.{claims({'sub': subject, 'iat': now, 'exp': now + seconds})}"
    return f"{signing_input}.{part(hmac.new(secret.encode(), signing_input.encode(), hashlib.sha256).digest())}"


def binary_under_test():
    import pytest

    binary = os.environ.get("TABCONFIG_BINARY")
    if not binary:
        pytest.fail("TABCONFIG_BINARY names the tabconfig binary under test")
    return binary
