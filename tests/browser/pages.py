"""What the browser tests share: Chromium's flags, the `Pages` a test opens (each in
a window of its own, with what went wrong in them), and helpers that act on a page
as a person would (declare, force dice, resolve, read the cards). The fixtures that
launch Chromium are in this folder's conftest.py."""

import pathlib
import re
import time

from playwright.sync_api import Browser, Page, expect

ARTIFACTS = pathlib.Path(__file__).resolve().parent.parent / "artifacts"  # tests/artifacts
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Several pages share one window: keep the ones behind running at full speed
    # (a throttled page waits up to seconds for the frames Playwright's checks need).
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
TIMEOUT_MS = 15_000
expect.set_options(timeout=TIMEOUT_MS)


class Pages:
    """The pages one test opens, and what went wrong in them (script errors, console
    errors: a CSP violation is one). Each page gets its own context, so its own
    window: a page in a background tab gets no animation frames, and Playwright's
    actionability checks wait on them."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts = []
        self.problems: list[str] = []

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def open(self, url: str, name: str, width: int = 1280, route=None, live: bool = True) -> Page:
        context = self.browser.new_context()
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": 900})
        page.on("pageerror", lambda e: self.problems.append(f"{name}: {e}"))
        page.on("console", lambda m: self.problems.append(f"{name}: {m.text}") if m.type == "error" else None)
        if route is not None:
            page.route_web_socket(re.compile(r"/ws/encounters/"), route)
        page.goto(url)
        if live:
            expect(page.get_by_test_id("connection")).to_have_text("live")
            expect(page.get_by_test_id("status-banner")).to_be_hidden()
        return page

    def check(self) -> None:
        assert self.problems == []


def cards(page: Page) -> dict[str, dict]:
    """Every combatant card's data attributes, by combatant id."""
    data = page.eval_on_selector_all("[data-testid^='combatant-']", "els => els.map(e => ({...e.dataset}))")
    return {c["id"]: c for c in data}


def gm_edit(gm: Page, cid: str, field: str, value: int) -> None:
    gm.get_by_test_id("edit-combatant").select_option(cid)
    gm.get_by_test_id("edit-field").select_option(field)
    gm.get_by_test_id("edit-value").fill(str(value))
    gm.get_by_test_id("edit-submit").click()


def gm_force(gm: Page, values: list[int]) -> None:
    """Queue dice through the GM console, and wait until the queue shows them."""
    gm.get_by_test_id("force-input").fill(" ".join(map(str, values)))
    gm.get_by_test_id("force-rolls").click()
    expect(gm.get_by_test_id("forced-queue")).to_have_text(", ".join(map(str, values)))


def gm_advance(gm: Page) -> None:
    """Close declarations and resolve; with someone still to declare, confirm (the second click)."""
    button = gm.get_by_test_id("advance")
    missing = gm.get_by_test_id("awaited").locator("li[data-testid^='awaited-']").count()
    button.click()
    if missing:
        expect(button).to_have_attribute("data-armed", "true")
        button.click()


def until_round(gm: Page, number: int) -> None:
    """Wait for the round; answer any prompt the rules park the round on (first option)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while gm.get_by_test_id("round").text_content() != str(number):
        assert time.monotonic() < deadline, f"round {number} never came"
        answers = gm.locator("[data-testid=awaiting] button")
        if gm.get_by_test_id("awaiting").is_visible() and answers.count():
            answers.first.click()
        gm.wait_for_timeout(100)


def overflowing(page: Page) -> list[str]:
    """Elements that stick out past the right edge of the window (a phone must not scroll sideways)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + (e.dataset.testid ? '[' + e.dataset.testid + ']' : '') + '.' + e.className)"""
    )


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def square(page: Page, x: int, y: int) -> tuple[float, float]:
    """The centre of the map square at (x, y) feet, in page pixels."""
    return page.eval_on_selector(
        "[data-testid=map]",
        """(svg, [x, y]) => {
            const p = new DOMPoint((x - svg.dataset.x0) / 5 * 40 + 20, (y - svg.dataset.y0) / 5 * 40 + 20)
                .matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [x, y],
    )


def declare(page: Page, actor: str, action: str, target: str | None = None, **options) -> None:
    """Fill in and submit `actor`'s declaration form, as a person would."""
    panel = page.get_by_test_id(f"declare-{actor}")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    page.get_by_test_id(f"action-{actor}").select_option(action)
    if target is not None:
        page.get_by_test_id(f"target-{actor}-{action}").select_option(target)
    for key, value in options.items():
        field = page.get_by_test_id(f"opt-{actor}-{action}-{key}")
        if value is True:
            field.check()
        else:
            field.fill(str(value))
    page.get_by_test_id(f"submit-{actor}-{action}").click()
    expect(page.get_by_test_id(f"current-{actor}")).to_contain_text("Declared")
