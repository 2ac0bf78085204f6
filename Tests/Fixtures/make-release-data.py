"""Writes a data folder with a release of Pocket that has people and the offline outbox: every kind
of per-person data, made through forms and through the outbox as that release's phones sent it.

    python3 Tests/Fixtures/make-release-data.py POCKET_BINARY OUT_FOLDER

Each database is checkpointed into one file at the end, so the folder can be committed."""
import http.cookiejar
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request

binary, out = sys.argv[1], sys.argv[2]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
for name, flags in (("owner", ["--owner"]), ("bea", [])):
    subprocess.run([binary, "users", "add", name, "--data-dir", out, *flags], input=f"{name} password\n", text=True, check=True)
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
log = open(os.path.join(out, "..", "release-serve.log"), "wb")
server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", out, "--demo"], stdout=log, stderr=log)
base = f"http://127.0.0.1:{port}"


class Browser:
    """One signed-in device: its cookies and its CSRF token."""

    def __init__(self, name):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), urllib.request.ProxyHandler({}))
        for _ in range(100):
            try:
                page = self.get("/signin")
                break
            except Exception:
                time.sleep(0.2)
        token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        self.post("/signin", name=name, password=f"{name} password", _csrf=token)
        self.token = re.search(r'<meta name="csrf-token" content="([^"]+)"', self.get("/")).group(1)

    def get(self, path):
        return self.opener.open(base + path).read().decode()

    def post(self, path, **fields):
        fields.setdefault("_csrf", getattr(self, "token", ""))
        return self.opener.open(urllib.request.Request(base + path, data=urllib.parse.urlencode(fields).encode(), method="POST")).status

    def outbox(self, path, change):
        """A change as that release's outbox sent it: `{id, at, ...body}`."""
        request = urllib.request.Request(base + path, data=json.dumps(change).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.token})
        return self.opener.open(request).status


owner, bea = Browser("owner"), Browser("bea")
now = int(time.time() * 1000)
for code in ["AL", "TX", "CA"]:
    owner.post(f"/plates/states/{code}/spot")
owner.post("/plates/trips")
for code in ["NY", "OR"]:
    owner.post(f"/plates/states/{code}/spot")
owner.post("/plates/settings", location="on")  # sounds off, location on
owner.outbox("/plates/changes", {"id": "release-ut", "at": now + 1000, "kind": "spot", "state": "UT",
                                 "location": {"lat": 39.3, "lon": -111.1, "accuracy": 20}})
owner.outbox("/plates/changes", {"id": "release-or", "at": now + 2000, "kind": "unspot", "state": "OR"})
bea.post("/plates/states/WA/spot")
owner.post("/converter", category="temperature")
for key in ["1", "0", "0"]:
    owner.post("/converter", key=key)
bea.outbox("/converter/state", {"id": "release-conv", "at": now + 3000,
                                "state": {"category": "length", "from": "mile", "to": "kilometre", "input": "26.2"}})
owner.post("/remote/tv/power", power="on")
owner.post("/remote/tv/digit/4")
owner.post("/remote/tv/digit/7")
for _ in range(100):
    ids = sorted(set(int(i) for i in re.findall(r'/murals/mural/(\d+)"', owner.get("/murals"))))
    if ids:
        break
    time.sleep(0.3)
owner.post(f"/murals/mural/{ids[0]}/favourite", favourite="1")
owner.outbox("/murals/changes", {"id": "release-star", "at": now + 4000, "kind": "favourite", "mural": ids[2]})
bea.outbox("/murals/changes", {"id": "release-bea-star", "at": now + 5000, "kind": "favourite", "mural": ids[1]})
conference = re.findall(r"/conference/conferences/(\d+)", owner.get("/conference"))[0]
talks = re.findall(r'href="/conference/talks/(\d+)[?"]', owner.get("/conference/conferences/" + conference))
for talk in talks[:2]:
    owner.get(f"/conference/talks/{talk}")
owner.post(f"/conference/talks/{talks[0]}/bookmark", bookmark="1")
server.terminate()
server.wait(10)
for name in os.listdir(out):
    path = os.path.join(out, name)
    if name.endswith(".sqlite"):
        db = sqlite3.connect(path)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")
        db.close()
conference_state = os.path.join(out, "conference", "state.sqlite")
db = sqlite3.connect(conference_state)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("PRAGMA journal_mode=DELETE")
db.close()
print(json.dumps({"murals": ids[:3], "talks": talks[:2], "now": now}))
