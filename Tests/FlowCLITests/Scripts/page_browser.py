"""Debian's chromium under Playwright, as session_page.py and session_console.py drive it.

`chromium()` launches it headless (no sandbox: tests may run as root); `open_page(browser, url)`
opens a page that records the page script's console errors; `LINES` is the selector function
that reads each matched element's text.
"""
import contextlib

from playwright.sync_api import sync_playwright

LINES = "els => els.map(e => e.textContent)"


@contextlib.contextmanager
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser, url):
    """A new page at `url`, and the list its console errors are appended to."""
    page = browser.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    return page, errors
