"""Table chat and whispers in real Chromium (issue 13, Deliver 7): a player talks to the
table, the GM whispers to one player; the other player and the spectator never see the
whisper, in the page or after a reload; text is shown as text."""

import pytest
from pages import Pages
from playwright.sync_api import expect
from test_chat import FIGHT

pytestmark = pytest.mark.browser


def test_browser_chat_and_a_whisper_reach_whom_they_are_for(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    ann = table.open(made["links"]["players"]["Ann"], "ann", width=390)
    bob = table.open(made["links"]["players"]["Bob"], "bob")
    spectator = table.open(made["links"]["spectator"], "spectator")
    expect(spectator.get_by_test_id("chat-form")).to_be_hidden()

    ann.get_by_test_id("chat-text").fill("<i>Hello</i>, table!")
    ann.get_by_test_id("chat-send").click()
    for page in (gm, ann, bob, spectator):
        expect(page.get_by_test_id("chat-line").last).to_have_text("Ann: <i>Hello</i>, table!")  # text, not markup

    gm.get_by_test_id("chat-to").select_option("alda")
    gm.get_by_test_id("chat-text").fill("The floor creaks under you.")
    gm.get_by_test_id("chat-send").click()
    expect(ann.get_by_test_id("chat-line").last).to_have_text("GM whispers to Alda: The floor creaks under you.")
    expect(gm.get_by_test_id("chat-line").last).to_have_text("GM whispers to Alda: The floor creaks under you.")
    bob.get_by_test_id("chat-to").select_option("gm")
    bob.get_by_test_id("chat-text").fill("I listen at the door.")
    bob.get_by_test_id("chat-send").click()
    expect(gm.get_by_test_id("chat-line").last).to_have_text("Bob whispers to the GM: I listen at the door.")
    for page in (bob, spectator):
        page.reload()
        expect(page.get_by_test_id("chat-line").first).to_have_text("Ann: <i>Hello</i>, table!")
        expect(page.locator("body")).not_to_contain_text("floor creaks")
    expect(spectator.locator("body")).not_to_contain_text("listen at the door")
    expect(ann.locator("body")).not_to_contain_text("listen at the door")
    assert not table.problems, table.problems
