#!/usr/bin/python3
"""The browser WebKitWebDriver drives for Pocket's WebKit suite: one WebKitGTK web view in a bare
window, nothing else. WebKitWebDriver starts it with `--automation`, as it would MiniBrowser.

Why not MiniBrowser: in automation mode it browses in an ephemeral session, and WebKit never writes an
ephemeral page's console to stdout, so a test could not see a page's errors (WebKitGTK has no
WebDriver log endpoint and this build no BiDi). Its toolbar also keeps the window at least 447 px
wide, wider than an iPhone. Here the session keeps its data in a throw-away folder (POCKET_WEBKIT_DATA),
console messages go to stdout (the suite reads them), and the window can be 390 px wide.

Runs with Debian's Python (python3-gi, gir1.2-webkit2-4.1), not the suite's interpreter.
"""
import os
import sys
import tempfile

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402


def main() -> int:
    if "--automation" not in sys.argv[1:]:
        print("pocket_webkit_browser: run by WebKitWebDriver with --automation", file=sys.stderr)
        return 2
    Gtk.init([])
    data = os.environ.get("POCKET_WEBKIT_DATA") or tempfile.mkdtemp(prefix="pocket-webkit-")
    manager = WebKit2.WebsiteDataManager(base_data_directory=os.path.join(data, "data"),
                                         base_cache_directory=os.path.join(data, "cache"))
    context = WebKit2.WebContext(website_data_manager=manager)
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
