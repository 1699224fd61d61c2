"""The browser tests' fixtures: real Chromium (Debian's /usr/bin/chromium) through sync
Playwright, for the tests marked `browser`; skipped without Chromium, unless CI=true.
Their helpers are in pages.py."""

import os
import shutil
from collections.abc import Iterator

import pytest
from pages import CHROMIUM_ARGS, Pages
from playwright.sync_api import Browser, sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        message = "Chromium not found: install Debian's chromium package for the browser tests"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, timeout=30_000)
        yield browser
        browser.close()


@pytest.fixture
def table(browser: Browser) -> Iterator[Pages]:
    pages = Pages(browser)
    yield pages
    pages.close()
