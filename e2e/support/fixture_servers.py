"""Loopback fixture servers both end-to-end suites (e2e/cli, e2e/browser) run Pocket against: the murals
service with its pictures, an OpenStreetMap-like tile host, and a plain folder served over HTTP. Standard library only,
so the CLI suite needs no browser packages; pocket_helpers re-exports everything here."""

from __future__ import annotations

import http.server
import json
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from https_helpers import HTTPS, fixture_tls

REPO_ROOT = Path(__file__).resolve().parents[2]


def serve_in_background(handler, name: str, tls: ssl.SSLContext | None = None) -> http.server.ThreadingHTTPServer:
    """Starts a fixture HTTP server on a free loopback port, answering from a daemon thread (over
    HTTPS with `tls`: each connection's handshake then happens in its own thread, at its first read)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    if tls:
        httpd.socket = tls.wrap_socket(httpd.socket, server_side=True, do_handshake_on_connect=False)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, name=name, daemon=True).start()
    return httpd


def base_url_of(httpd: http.server.ThreadingHTTPServer) -> str:
    """The address of a server `serve_in_background` started."""
    scheme = "https" if isinstance(httpd.socket, ssl.SSLSocket) else "http"
    return f"{scheme}://127.0.0.1:{httpd.server_address[1]}"


def stop_serving(httpd: http.server.ThreadingHTTPServer | None) -> None:
    """Stops a server `serve_in_background` started (nothing when it never started)."""
    if httpd:
        httpd.shutdown()
        httpd.server_close()


# --------------------------------------------------------------------------- a folder over HTTP


class FolderServer:
    """Serves a folder on a free loopback port, logging every request path (with its query) in
    `requests`. Set `slow_zips = True` and every .zip trickles out over ~4 s, so a test can interrupt
    a download half way; like any file it serves, it is sent with its Last-Modified."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.requests: list[str] = []
        self.slow_zips = False
        self._httpd = None

    @property
    def base_url(self) -> str:
        return base_url_of(self._httpd)

    def url(self, path: str) -> str:
        """The address of `path` (relative to the folder) on this server."""
        return f"{self.base_url}/{path.lstrip('/')}"

    def start(self) -> "FolderServer":
        outer = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802
                outer.requests.append(self.path)
                path = Path(self.translate_path(self.path))
                if outer.slow_zips and path.suffix == ".zip" and path.exists():
                    data = path.read_bytes()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(data)))
                    # Which version this is, so a partial download can be resumed.
                    self.send_header("Last-Modified", self.date_time_string(path.stat().st_mtime))
                    self.end_headers()
                    step = max(1, len(data) // 40)
                    try:
                        for start in range(0, len(data), step):
                            self.wfile.write(data[start:start + step])
                            self.wfile.flush()
                            time.sleep(0.1)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    return
                super().do_GET()

        self._httpd = serve_in_background(partial(Handler, directory=str(self.root)), "folder")
        return self

    def stop(self):
        stop_serving(self._httpd)


# --------------------------------------------------------------------------- Murals: a murals service and tile host


def bundled_walk() -> list[tuple[float, float]]:
    """The 313 (lat, lon) fixes of the walk Pocket bundles (Sources/Murals/Resources)."""
    import xml.etree.ElementTree as ET
    tree = ET.parse(REPO_ROOT / "Sources/Murals/Resources/NewBrightonMuralsWalk.gpx")
    return [(float(e.get("lat")), float(e.get("lon"))) for e in tree.iter() if e.tag.endswith("}wpt") or e.tag == "wpt"]


def solid_png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A small valid PNG of one colour (map tiles and pictures for the fixture hosts)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height, 9)) + chunk(b"IEND", b""))


# The colour of the tile OpenStreetMap answers a refused request with ("Access blocked"), so a test
# can tell it on screen from a real tile.
BLOCKED_TILE_RGB = (200, 40, 160)


def tile_rgb(z: int, x: int, y: int) -> tuple[int, int, int]:
    """The colour of tile z/x/y on the fixture tile host: different next door, never the blocked one
    nor Pocket's placeholder, so a test reading the screen knows which tile it sees."""
    return (30 + (x * 37) % 120, 60 + (y * 53) % 120, 40 + (z * 29 + x + y) % 60)


class TileServer:
    """Stands in for tile.openstreetmap.org on a free loopback port and enforces what its tile usage
    policy enforces (operations.osmfoundation.org/policies/tiles): a tile request with no Referer (or
    one that is not an http(s) address), or with no User-Agent, is refused with 403 and the marked
    "blocked" tile (BLOCKED_TILE_RGB); tiles come with OSM-like cache headers (Cache-Control max-age,
    Expires) and CORS. Set `refuse` to a status (429) to refuse every tile as an overloaded host does.

    Records every tile request's Referer in `referers` and counts requests per tile in `counts`
    ("z/x/y" → n); `/tiles/{z}/{x}/{y}.png` is the template's path. With POCKET_E2E_HTTPS=1 it serves
    HTTPS (`https_helpers.fixture_tls`), as the real host does: an https page's map would not take
    plain-HTTP tiles through its service worker (mixed content)."""

    def __init__(self, max_age: int = 7 * 24 * 3600):
        self.max_age = max_age
        self.refuse: int | None = None
        self.referers: list[str | None] = []
        self.counts: dict[str, int] = {}
        self._pngs: dict[tuple, bytes] = {}
        self._lock = threading.Lock()
        self._httpd = None

    @property
    def base_url(self) -> str:
        return base_url_of(self._httpd)

    @property
    def template(self) -> str:
        return self.base_url + "/tiles/{z}/{x}/{y}.png"

    def png(self, rgb: tuple[int, int, int]) -> bytes:
        with self._lock:
            if rgb not in self._pngs:
                self._pngs[rgb] = solid_png(256, 256, rgb)
            return self._pngs[rgb]

    def total(self) -> int:
        with self._lock:
            return sum(self.counts.values())

    def start(self) -> "TileServer":
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                parts = urllib.parse.urlsplit(self.path).path.split("/")
                if len(parts) != 5 or parts[1] != "tiles" or not parts[4].endswith(".png") \
                        or not all(p.isdigit() for p in (parts[2], parts[3], parts[4][:-4])):
                    return self.answer(404, "text/plain", b"not found", cache=False)
                z, x, y = int(parts[2]), int(parts[3]), int(parts[4][:-4])
                referer = self.headers.get("Referer")
                with outer._lock:
                    outer.referers.append(referer)
                    key = f"{z}/{x}/{y}"
                    outer.counts[key] = outer.counts.get(key, 0) + 1
                valid = bool(referer) and urllib.parse.urlsplit(referer).scheme in ("http", "https")
                if not valid or not self.headers.get("User-Agent"):
                    return self.answer(403, "image/png", outer.png(BLOCKED_TILE_RGB), cache=False)
                if outer.refuse:
                    return self.answer(outer.refuse, "image/png", outer.png(BLOCKED_TILE_RGB), cache=False)
                self.answer(200, "image/png", outer.png(tile_rgb(z, x, y)), cache=True)

            def answer(self, status: int, kind: str, body: bytes, cache: bool):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Access-Control-Allow-Origin", "*")
                if cache:
                    self.send_header("Cache-Control", f"max-age={outer.max_age}")
                    self.send_header("Expires", self.date_time_string(time.time() + outer.max_age))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._httpd = serve_in_background(Handler, "tile-host", fixture_tls()[0] if HTTPS else None)
        return self

    def stop(self):
        stop_serving(self._httpd)
        self._httpd = None


@dataclass(frozen=True)
class MuralData:
    id: int
    title: str
    artist: str | None
    lat: float
    lon: float
    images: tuple[str, ...]


# A title and an artist that would run as markup if anything printed them unescaped.
HOSTILE_MURAL_TITLE = '<img src=x onerror="document.title=\'pwned\'">Sea & "Sky"'
HOSTILE_MURAL_ARTIST = "<script>document.title='pwned'</script>"


def fixture_murals(count: int = 24) -> list[MuralData]:
    """`count` murals placed next to fixes of the bundled walk (every 13th, 15 m off the path), so the
    nearest mural changes as the walk goes. Mural 1 has three pictures; mural 3 has a hostile title."""
    walk = bundled_walk()
    murals = []
    for i in range(count):
        lat, lon = walk[(i * 13) % len(walk)]
        n = 3 if i == 0 else (1 + i % 2)
        title = HOSTILE_MURAL_TITLE if i == 2 else f"Mural {i + 1:02d}"
        artist = HOSTILE_MURAL_ARTIST if i == 2 else (None if i % 5 == 4 else f"Artist {chr(65 + i % 26)}")
        murals.append(MuralData(i + 1, title, artist, lat + 0.000135, lon, tuple(f"m{i + 1}-{k}.png" for k in range(n))))
    return murals


def mural_record(id: int, title: str, lat, lon, artist: str | None = "Some Artist", info: str | None = "About it.",
                 enabled: str = "1", modified: str = "2022-11-21 12:02:37", images: tuple[str, ...] = ("IMG_1.JPG",),
                 thumbnail: str | None = None) -> dict:
    """One record as the murals service's data2.php lists it: every value a string (or null), `lat` and
    `lon` as given (so a test can serve "N/A"); the thumbnail on the real picture host unless named."""
    return {
        "id": str(id), "title": title, "artist": artist, "info": info,
        "thumbnail": thumbnail or f"https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_thumbs/{images[0]}",
        "lat": str(lat), "lon": str(lon), "enabled": enabled, "lastModified": modified,
        "images": [{"id": str(id * 10 + n), "filename": name} for n, name in enumerate(images)],
    }


class MuralsServer:
    """Stands in for the COMP228 murals service and its picture host on a free loopback port:
    /nbm/data2.php?class=newbrighton_murals[&lastModified=YYYY-MM-DD], /nbm_images/<file>,
    /nbm_images/_thumbnails/<file>; and starts a TileServer (`tiles`, OpenStreetMap's rules) for the map.

    The feed lists `records` (data2.php's records, as `mural_record` makes them), and with `lastModified`
    only those modified on or after that day, as the real service does. Given no records it serves
    `murals` (by default the 24 of `fixture_murals`), with their pictures. Tests change it while it runs:
    edit `records`; set `status` and/or `body` (a text served instead of the feed) to answer otherwise;
    or set `failing = True` and the feed answers 500 (pictures and tiles keep working), as a broken server
    would. Every feed request's query is recorded in `queries`, every request's (path, status) in `requests`."""

    def __init__(self, murals: list[MuralData] | None = None, records: list[dict] | None = None):
        self.murals = murals if murals is not None else ([] if records is not None else fixture_murals())
        self.records: list[dict] | None = list(records) if records is not None else None  # None until start()
        self.status = 200
        self.body: str | None = None
        self.queries: list[dict[str, str]] = []
        self.requests: list[tuple[str, int]] = []
        self.tiles = TileServer()
        self.pictures = {}
        for m in self.murals:
            for k, name in enumerate(m.images):
                self.pictures["/nbm_images/" + name] = solid_png(40, 30, ((m.id * 37) % 256, (k * 80) % 256, 160))
            self.pictures[f"/nbm_images/_thumbnails/t{m.id}.png"] = solid_png(16, 16, ((m.id * 37) % 256, 90, 120))
        self._lock = threading.Lock()
        self._httpd = None

    @property
    def failing(self) -> bool:
        return self.status >= 500

    @failing.setter
    def failing(self, value: bool) -> None:
        self.status, self.body = (500, "internal error") if value else (200, None)

    @property
    def base_url(self) -> str:
        return base_url_of(self._httpd)

    @property
    def feed_url(self) -> str:
        return self.base_url + "/nbm/data2.php?class=newbrighton_murals"

    @property
    def images_url(self) -> str:
        return self.base_url + "/nbm_images/"

    @property
    def tiles_url(self) -> str:
        return self.tiles.template

    def feed(self, since: str | None = None) -> bytes:
        """The feed's JSON: every record, or those modified on or after the day `since`."""
        chosen = [r for r in self.records if since is None or r["lastModified"][:10] >= since]
        return json.dumps({"newbrighton_murals": chosen}).encode()

    def start(self) -> "MuralsServer":
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                url = urllib.parse.urlsplit(self.path)
                path = url.path
                if path in outer.pictures:
                    status, kind, body = 200, "image/png", outer.pictures[path]
                elif path == "/nbm/data2.php":
                    query = dict(urllib.parse.parse_qsl(url.query))
                    with outer._lock:
                        outer.queries.append(query)
                    status, kind = outer.status, "application/json"
                    body = outer.body.encode() if outer.body is not None else outer.feed(query.get("lastModified"))
                else:
                    status, kind, body = 404, "text/plain", b"not found"
                with outer._lock:
                    outer.requests.append((path, status))
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._httpd = serve_in_background(Handler, "murals-service")
        self.tiles.start()
        if self.records is None:
            self.records = [mural_record(
                m.id, m.title, f"{m.lat:.6f}", f"{m.lon:.6f}", artist=m.artist, info=f"About {m.title}.\nPainted in 2022.",
                modified="2024-05-01 10:00:00", images=m.images, thumbnail=f"{self.images_url}_thumbnails/t{m.id}.png",
            ) for m in self.murals]
        return self

    def env(self) -> dict[str, str]:
        """The environment that points a Pocket server at this host."""
        return {"POCKET_MURALS_URL": self.feed_url, "POCKET_MURALS_IMAGES_URL": self.images_url,
                "POCKET_MURALS_TILES": self.tiles_url}

    def stop(self):
        self.tiles.stop()
        stop_serving(self._httpd)
