"""Signing in from the CLI suite: add a person with `pocket users add`, sign in over HTTP, fetch as them."""
import http.cookies
import os
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request

from cli_helpers import BIN

PASSWORD = "cli test password"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def add_person(data_dir, name="owner", password=PASSWORD, owner=True, env=None):
    cmd = [BIN, "users", "add", name, "--data-dir", str(data_dir)] + (["--owner"] if owner else [])
    done = subprocess.run(cmd, input=password + "\n", capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    return done


def request(url, method="GET", data=None, headers=None, context=None):
    """(status, headers, body text); never follows redirects, never raises for 4xx/5xx."""
    body = urllib.parse.urlencode(data).encode() if isinstance(data, dict) else data
    req = urllib.request.Request(url, data=body, method=method, headers=dict(headers or {}))
    if isinstance(data, dict):
        req.add_header("Content-Type", "application/x-www-form-urlencoded")
    handlers = [urllib.request.ProxyHandler({}), _NoRedirect()]
    if context is not None:
        handlers.append(urllib.request.HTTPSHandler(context=context))
    try:
        with urllib.request.build_opener(*handlers).open(req, timeout=10) as resp:
            return resp.status, resp.headers, resp.read().decode(errors="replace")
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read().decode(errors="replace")


def cookies(headers):
    jar = http.cookies.SimpleCookie()
    for value in headers.get_all("Set-Cookie") or []:
        jar.load(value)
    return jar


def sign_in(base, name="owner", password=PASSWORD, context=None, extra_headers=None):
    """Signs in; returns (status, Cookie header or None, response headers)."""
    status, headers, text = request(base + "/signin", context=context)
    anonymous = cookies(headers)["pocket_csrf"].value
    token = re.search(r'name="_csrf" value="([^"]+)"', text).group(1)
    status, headers, _ = request(base + "/signin", "POST", {"name": name, "password": password, "_csrf": token},
                                 {"Cookie": f"pocket_csrf={anonymous}", **(extra_headers or {})}, context=context)
    jar = cookies(headers)
    cookie = f"pocket_session={jar['pocket_session'].value}" if "pocket_session" in jar else None
    return status, cookie, headers
