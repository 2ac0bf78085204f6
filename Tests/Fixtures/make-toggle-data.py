"""Writes a data folder with today's release of Pocket (before bookmarks and favourites became one
toggle): bookmarks and favourites set by forms and by the outbox, so their decisions and seen
change ids are there too.

    python3 Tests/Fixtures/make-toggle-data.py POCKET_BINARY OUT_FOLDER

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
import urllib.error
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
log = open(os.path.join(out, "..", "toggle-serve.log"), "wb")
server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", out, "--demo"], stdout=log, stderr=log)
base = f"http://127.0.0.1:{port}"


class Browser:
    """One signed-in device: its cookies, CSRF token and device tag."""

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
        home = self.get("/")
        self.token = re.search(r'<meta name="csrf-token" content="([^"]+)"', home).group(1)
        self.device = re.search(r'<meta name="pocket-device" content="([^"]+)"', home).group(1)

    def get(self, path):
        return self.opener.open(base + path).read().decode()

    def post(self, path, **fields):
        fields.setdefault("_csrf", getattr(self, "token", ""))
        return self.opener.open(urllib.request.Request(base + path, data=urllib.parse.urlencode(fields).encode(), method="POST")).status

    def outbox(self, path, change_id, at, body):
        """A change as today's outbox sends it; returns its answer."""
        request = urllib.request.Request(base + path, method="POST",
                                         data=json.dumps({"id": change_id, "at": at, "device": self.device, "body": body}).encode(),
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.token})
        return json.loads(self.opener.open(request).read().decode())


owner, bea = Browser("owner"), Browser("bea")
now = int(time.time() * 1000)
for _ in range(100):
    ids = sorted(set(int(i) for i in re.findall(r'/murals/mural/(\d+)"', owner.get("/murals"))))
    if len(ids) >= 4:
        break
    time.sleep(0.3)
answers = []
owner.post(f"/murals/mural/{ids[0]}/favourite", favourite="1")
answers.append(owner.outbox("/murals/changes", "toggle-star-1", now + 1000, {"kind": "favourite", "mural": ids[1]}))
answers.append(owner.outbox("/murals/changes", "toggle-star-2", now + 2000, {"kind": "favourite", "mural": ids[2]}))
answers.append(owner.outbox("/murals/changes", "toggle-unstar-2", now + 3000, {"kind": "unfavourite", "mural": ids[2]}))
answers.append(owner.outbox("/murals/changes", "toggle-old-3", now - 60000, {"kind": "favourite", "mural": ids[1]}))
answers.append(bea.outbox("/murals/changes", "toggle-bea-star", now + 4000, {"kind": "favourite", "mural": ids[3]}))
conference = re.findall(r"/conference/conferences/(\d+)", owner.get("/conference"))[0]
talks = re.findall(r'href="/conference/talks/(\d+)[?"]', owner.get("/conference/conferences/" + conference))
owner.post(f"/conference/talks/{talks[0]}/bookmark", bookmark="1")
answers.append(owner.outbox("/conference/bookmarks/changes", "toggle-mark-1", now + 1000, {"kind": "bookmark", "talk": int(talks[1])}))
answers.append(owner.outbox("/conference/bookmarks/changes", "toggle-mark-2", now + 2000, {"kind": "bookmark", "talk": int(talks[2])}))
answers.append(owner.outbox("/conference/bookmarks/changes", "toggle-unmark-2", now + 3000, {"kind": "unbookmark", "talk": int(talks[2])}))
answers.append(owner.outbox("/conference/bookmarks/changes", "toggle-old-mark", now - 60000, {"kind": "unbookmark", "talk": int(talks[1])}))
answers.append(bea.outbox("/conference/bookmarks/changes", "toggle-bea-mark", now + 4000, {"kind": "bookmark", "talk": int(talks[3])}))
server.terminate()
server.wait(10)
for path in [os.path.join(out, n) for n in os.listdir(out) if n.endswith(".sqlite")] + [os.path.join(out, "conference", "state.sqlite")]:
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
print(json.dumps({"murals": ids[:4], "talks": talks[:4], "now": now, "answers": answers}, indent=1))
