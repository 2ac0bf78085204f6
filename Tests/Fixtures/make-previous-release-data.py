"""Writes a data folder with the previous (single-user) release: every kind of per-person data."""
import http.cookiejar, re, subprocess, sys, time, urllib.parse, urllib.request, socket, os, shutil, sqlite3

binary, out = sys.argv[1], sys.argv[2]
shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
log = open("/tmp/prev-serve.log", "wb")
p = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", out, "--demo"], stdout=log, stderr=log)
base = f"http://127.0.0.1:{port}"
jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), urllib.request.ProxyHandler({}))
for _ in range(100):
    try: opener.open(base + "/"); break
    except Exception: time.sleep(0.2)
token = next(c.value for c in jar if c.name == "pocket_csrf")
def post(route, **fields):
    fields["_csrf"] = token
    r = opener.open(urllib.request.Request(base + route, data=urllib.parse.urlencode(fields).encode(), method="POST"))
    return r.status
def get(path): return opener.open(base + path).read().decode()
for code in ["AL", "TX", "CA"]: post(f"/plates/states/{code}/spot")
post("/plates/trips")
for code in ["NY", "OR"]: post(f"/plates/states/{code}/spot")
post("/plates/settings", location="on")   # sounds off, location on
post("/converter", category="temperature")
for key in ["1", "0", "0"]: post("/converter", key=key)
post("/remote/tv/power", power="on"); post("/remote/tv/digit/4"); post("/remote/tv/digit/7")
# wait for the demo sync, then star two murals and visit
for _ in range(100):
    html = get("/murals")
    ids = re.findall(r'/murals/mural/(\d+)"', html)
    if ids: break
    time.sleep(0.3)
ids = sorted(set(int(i) for i in ids))
post(f"/murals/mural/{ids[0]}/favourite", favourite="1"); post(f"/murals/mural/{ids[2]}/favourite", favourite="1")
conf = re.findall(r'/conference/conferences/(\d+)', get("/conference"))[0]
talks = re.findall(r'href="(/conference/talks/\d+)[?"]', get("/conference/conferences/" + conf))
assert talks, "no talks"
for t in talks[:2]: get(t)
import sqlite3
cols = [r[1] for r in sqlite3.connect(out + "/murals-demo.sqlite").execute("PRAGMA table_info(murals)")]
lat, lon = sqlite3.connect(out + "/murals-demo.sqlite").execute(f"SELECT {[c for c in cols if 'lat' in c.lower()][0]}, {[c for c in cols if 'lon' in c.lower()][0]} FROM murals WHERE id = ?", (ids[1],)).fetchone()
post("/murals/visited", path=f"{lat},{lon};{lat+0.00001},{lon+0.00001}")
p.terminate(); p.wait(10)
for f in os.listdir(out): print(f)
