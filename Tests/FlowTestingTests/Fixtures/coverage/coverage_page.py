"""The HTML coverage report in Debian's chromium, driven by Playwright: CoverageReportsTests runs this.

Usage: coverage_page.py REPORT-FOLDER SCREENSHOT-PREFIX FILE. Opens index.html as a file, reads the
summary table, follows FILE's link, reads its lines and their colours, takes a
screenshot of each page, and prints what it saw as one JSON object.
"""
import json
import sys

from playwright.sync_api import sync_playwright

folder, shots, chosen = sys.argv[1], sys.argv[2], sys.argv[3]
seen = {}
texts = "els => els.map(e => e.textContent)"
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
    page = browser.new_page()
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto("file://" + folder + "/index.html")
    seen["title"] = page.title()
    seen["files"] = page.eval_on_selector_all("table.summary tbody td.file", texts)
    seen["coverage"] = page.eval_on_selector_all("table.summary tbody td.coverage", "els => els.map(e => e.textContent.trim())")
    seen["total"] = page.text_content("table.summary tfoot td.coverage")
    seen["styled"] = page.eval_on_selector("body", "e => getComputedStyle(e).fontFamily") != ""
    page.screenshot(path=shots + "-index.png", full_page=True)
    page.click(f"table.summary tbody a:text-is(\"{chosen}\")")
    seen["heading"] = page.text_content("h1 code")
    seen["kinds"] = page.eval_on_selector_all("table.source tbody tr", "els => els.map(e => e.className)")
    seen["hits"] = page.eval_on_selector_all("table.source tbody td.hits", texts)
    seen["colours"] = page.eval_on_selector_all(
        "table.source tbody tr", "els => els.map(e => getComputedStyle(e.querySelector('td.code')).backgroundColor)")
    page.screenshot(path=shots + "-file.png", full_page=True)
    page.click("p.back a")
    seen["back"] = page.title()
    seen["failedRequests"] = failed
    browser.close()
print(json.dumps(seen))
