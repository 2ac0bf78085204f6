#!/usr/bin/python3
"""The browser WebKitWebDriver drives for Pocket's WebKit suite: one WebKitGTK web view in a bare
window, nothing else. WebKitWebDriver starts it with `--automation`, as it would MiniBrowser.

Why not MiniBrowser: in automation mode it browses in an ephemeral session, and WebKit never writes an
ephemeral page's console to stdout, so a test could not see a page's errors (WebKitGTK has no
WebDriver log endpoint and this build no BiDi). Its toolbar also keeps the window at least 447 px
wide, wider than an iPhone. Here the session keeps its data in a throw-away folder (POCKET_WEBKIT_DATA),
console messages go to stdout (the suite reads them), and the window can be 390 px wide.

WebDriver cannot empty a browser's HTTP cache, and WebKitGTK has no DevTools to do it (Chromium's tests
use Network.clearBrowserCache). So the shell listens on a Unix socket (POCKET_WEBKIT_CONTROL): a line
`clear-http-cache` empties WebKit's disk and memory caches and is answered `ok` once they are empty.
Nothing else is touched: cookies, service workers and their Cache Storage stay, as they do in Chromium.

Runs with Debian's Python (python3-gi, gir1.2-webkit2-4.1), not the suite's interpreter.
"""
import os
import sys
import tempfile

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gio, GLib, Gtk, WebKit2  # noqa: E402

# What `clear-http-cache` empties: the HTTP cache (disk) and the web processes' memory cache of loaded
# resources; not DOM_CACHE, which is the service workers' Cache Storage.
HTTP_CACHES = WebKit2.WebsiteDataTypes.DISK_CACHE | WebKit2.WebsiteDataTypes.MEMORY_CACHE


def listen(path: str, manager: WebKit2.WebsiteDataManager) -> Gio.SocketService:
    """Answers the suite's commands on the Unix socket `path`, one line each (see the docstring)."""
    service = Gio.SocketService()
    service.add_address(Gio.UnixSocketAddress.new(path), Gio.SocketType.STREAM, Gio.SocketProtocol.DEFAULT,
                        None)
    open_connections = set()  # each is kept until answered

    def answer(connection, text):
        connection.get_output_stream().write_all(text.encode() + b"\n", None)
        connection.close(None)
        open_connections.discard(connection)

    def cleared(_manager, result, connection):
        try:
            _manager.clear_finish(result)
            answer(connection, "ok")
        except GLib.Error as err:
            answer(connection, f"error: {err.message}")

    def command(stream, result, connection):
        line, _ = stream.read_line_finish_utf8(result)
        if line == "clear-http-cache":
            manager.clear(HTTP_CACHES, 0, None, cleared, connection)
        else:
            answer(connection, f"error: unknown command {line!r}")

    def incoming(_service, connection, _source):
        open_connections.add(connection)
        stream = Gio.DataInputStream.new(connection.get_input_stream())
        stream.read_line_async(GLib.PRIORITY_DEFAULT, None, command, connection)
        return True

    service.connect("incoming", incoming)
    service.start()
    return service


def main() -> int:
    if "--automation" not in sys.argv[1:]:
        print("pocket_webkit_browser: run by WebKitWebDriver with --automation", file=sys.stderr)
        return 2
    Gtk.init([])
    data = os.environ.get("POCKET_WEBKIT_DATA") or tempfile.mkdtemp(prefix="pocket-webkit-")
    manager = WebKit2.WebsiteDataManager(base_data_directory=os.path.join(data, "data"),
                                         base_cache_directory=os.path.join(data, "cache"))
    context = WebKit2.WebContext(website_data_manager=manager)
    control = os.environ.get("POCKET_WEBKIT_CONTROL")
    service = listen(control, manager) if control else None  # noqa: F841 - kept while the browser runs
    context.set_automation_allowed(True)
    settings = WebKit2.Settings()
    settings.set_enable_write_console_messages_to_stdout(True)
    settings.set_enable_developer_extras(True)
    window = Gtk.Window()
    window.set_default_size(390, 844)
    window.connect("destroy", lambda *_: Gtk.main_quit())
    views = []

    def new_view(*_):
        view = WebKit2.WebView(web_context=context, settings=settings, is_controlled_by_automation=True)
        if not views:
            window.add(view)
            view.show()
        views.append(view)
        view.connect("close", lambda v: (window.destroy() if v is views[0] else None))
        return view

    def started(_context, session):
        info = WebKit2.ApplicationInfo()
        info.set_name("PocketWebKit")
        info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
        session.set_application_info(info)
        session.connect("create-web-view", new_view)

    context.connect("automation-started", started)
    window.show_all()
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
