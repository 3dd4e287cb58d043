"""The session page's console and its Clear button in Debian's chromium, driven by Playwright:
SessionConsoleTests runs this.

Usage: session_console.py PAGE-URL EXPRESSION. Opens the page with #evaluate=EXPRESSION and
records what the console shows before and after the developer presses Evaluate; then presses
"Clear console" while the page's first state is held back (the lines shown are the server's), and
again once lines and evaluations are shown. Prints what it saw as one JSON object.
"""
import json
import sys
import time
import urllib.parse

from page_browser import LINES as lines, chromium, open_page

url, expression = sys.argv[1], sys.argv[2]
seen = {}
with chromium() as browser:
    page, errors = open_page(browser, url + "#evaluate=" + urllib.parse.quote(expression, safe=""))
    page.wait_for_selector("#programs .program .console .line.stdout")
    time.sleep(1.5)  # a run of the expression, had it started, would have answered by now
    seen["asked"] = {
        "input": page.input_value("#console-input"),
        "output": page.eval_on_selector_all("#console-output > div", "els => els.map(e => e.className)"),
    }
    page.click("#console-form button[type=submit]")
    page.wait_for_selector("#console-output .console-result, #console-output .console-error")
    seen["evaluated"] = page.eval_on_selector_all("#console-output > div", lines)
    seen["before"] = page.eval_on_selector_all("#programs .console .line", lines)
    page.click("#clear")
    seen["cleared"] = {
        "program": page.eval_on_selector_all("#programs .console .line", lines),
        "console": page.eval_on_selector_all("#console-output > div", lines),
    }
    time.sleep(2.5)  # two polls later
    seen["clearedLater"] = page.eval_on_selector_all("#programs .console .line", lines)

    # Cleared before the page's script had any state: the server-written lines go, and stay gone.
    held = browser.new_page()
    waiting = []
    held.route("**/v1/session", lambda route: waiting.append(route))
    held.goto(url)
    held.wait_for_selector("#controls:not([hidden])")
    seen["snapshotBefore"] = held.eval_on_selector_all("#programs .console .line", lines)
    held.click("#clear")
    seen["snapshotCleared"] = held.eval_on_selector_all("#programs .console .line", lines)
    held.unroute("**/v1/session")  # lets the held requests through
    for route in waiting:
        try:
            route.continue_()
        except Exception:
            pass  # unroute let it through already
    held.wait_for_selector("#programs .program .console")
    time.sleep(2.5)
    seen["snapshotLater"] = held.eval_on_selector_all("#programs .console .line", lines)
    seen["scriptErrors"] = errors
print(json.dumps(seen))
