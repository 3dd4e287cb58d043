"""The session page in Debian's chromium, driven by Playwright: SessionPageTests runs this.

Usage: session_page.py PAGE-URL SCREENSHOT. Reads the page as a developer would (with and without
JavaScript), clicks what there is to click, and prints what it saw as one JSON object.
"""
import json
import sys

from page_browser import LINES as lines, chromium, open_page

url, screenshot = sys.argv[1], sys.argv[2]
seen = {}
with chromium() as browser:
    page, errors = open_page(browser, url)
    page.wait_for_selector("#programs .program .console")
    page.wait_for_selector("details.error.fixed", state="attached")
    seen["hrefs"] = page.eval_on_selector_all("a.open", "els => els.map(e => e.getAttribute('href'))")
    seen["fixed"] = page.eval_on_selector_all(
        "details.error.fixed", "els => els.map(e => ({open: e.open, summary: e.querySelector('summary').textContent}))")
    seen["current"] = page.eval_on_selector_all("div.error.current pre.message", lines)
    seen["errorKinds"] = page.eval_on_selector_all(".program .error", "els => els.map(e => e.className)")
    seen["errorsTitle"] = page.text_content(".errors-title")
    seen["locations"] = page.eval_on_selector_all("code.location", lines)
    seen["console"] = page.eval_on_selector_all(".console .line", lines)
    seen["separators"] = page.eval_on_selector_all(".console .separator", lines)
    page.fill("#filter", "hello")
    seen["filtered"] = page.eval_on_selector_all(".console .line", lines)
    page.fill("#filter", "")
    page.check("#errors-only")
    seen["errorsOnly"] = page.eval_on_selector_all(".console .line", lines)
    page.uncheck("#errors-only")
    page.fill("#keep", "10")
    seen["kept"] = page.eval_on_selector_all(".console .line", lines)
    page.fill("#keep", "500")
    page.click("#clear")
    seen["cleared"] = page.eval_on_selector_all(".console .line", lines)
    page.fill("#item-search", "help")
    seen["itemsFound"] = page.eval_on_selector_all("button.module-name", lines)
    page.fill("#item-search", "")
    seen["items"] = page.eval_on_selector_all("button.module-name", lines)
    page.click("button.module-name >> text=main")
    page.wait_for_selector("#module-text:not(:empty)")
    seen["moduleTitle"] = page.text_content("#module-title")
    seen["moduleText"] = page.text_content("#module-text")
    seen["title"] = page.title()
    seen["scriptErrors"] = errors
    page.screenshot(path=screenshot, full_page=True)

    # Without JavaScript: the state as the server wrote it.
    context = browser.new_context(java_script_enabled=False)
    bare = context.new_page()
    bare.goto(url)
    seen["noscript"] = {
        "hrefs": bare.eval_on_selector_all("a.open", "els => els.map(e => e.getAttribute('href'))"),
        "console": bare.eval_on_selector_all(".console .line", lines),
        "fixed": bare.eval_on_selector_all("details.error.fixed", "els => els.length"),
        "controlsHidden": bare.is_hidden("#controls"),
        "text": bare.inner_text("body"),
    }
print(json.dumps(seen))
