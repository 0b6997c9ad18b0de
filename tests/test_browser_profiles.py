"""Profiles in the browser: a first visit gets a profile silently; a short game of Gin
Rummy (to 1 point) against a player who walked out and whom the stand-in bot plays; the
profile page then shows the game and the statistics, and the leaderboard lists the player
beside the bot levels. Screenshots go to tests/artifacts/profiles_*.png."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.browser import Browser, Served, browser, needs_chromium, open_person, server, shot, wait
from tests.test_browser_gin import GAME_SECONDS, over, play_turn, ready

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures


def test_a_first_visit_plays_and_finds_its_game_statistics_and_rating(
    browser: Browser, server: Served
) -> None:
    person = open_person(browser)
    page = person.page
    page.goto(server.url + "/")
    page.wait_for_selector("#profile-link")  # made silently, no question asked
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('remikit.profile'))")
    assert re.fullmatch(r"[A-Z0-9]{8}", stored["id"]) and len(stored["token"]) >= 32
    page.wait_for_selector("#create-form #variant")
    page.select_option("#variant", "gin")
    page.fill("#opt-target", "1")
    page.dispatch_event("#opt-target", "change")
    page.select_option("#seat-1-kind", "person")
    page.select_option("#set-grace", "0")  # the other player's seat goes to the stand-in at once
    page.select_option("#set-turn-time", "0")  # no turn timer
    page.fill("#create-name", "Ana")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/table/[0-9A-Z]{8}$"))
    code = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#board[data-state-id]")
    other = httpx.post(f"{server.url}/api/profiles", json={"name": "Budi"}).json()
    joined = httpx.post(
        f"{server.url}/api/tables/{code}/join",
        json={"name": "Budi", "seat": 1, "profile_token": other["token"]},
    )
    assert joined.status_code == 200, joined.text
    seen: dict[str, int] = {}
    for _ in range(2000):
        wait(person, lambda: ready(person) or over(person), GAME_SECONDS, "Ana's turn")
        if over(person):
            break
        play_turn(person, seen)
    assert over(person), "the game does not end"
    # the profile page: the game and the statistics, under the name given at the table
    page.goto(f"{server.url}/profile/{stored['id']}")
    page.wait_for_selector("#history tbody tr")
    assert page.inner_text("#profile-name") == "Ana"
    assert page.locator(f'#history tr[data-table="{code}"]').count() == 1
    gin = page.locator('.variant-stats[data-variant="gin"]')
    assert "Gin" in gin.inner_text() and "Games" in gin.inner_text()
    assert gin.locator("tr.rating").count() == 1  # two profiles played: the game is rated
    assert "provisional" in gin.locator("tr.rating").inner_text()
    assert "You are rated" in gin.locator("tr.rating").inner_text()
    assert page.inner_text("#profile-code").startswith(f"Your profile code: {stored['id']}")
    shot(page, "profiles_profile", full_page=True)
    page.click(f'#history tr[data-table="{code}"] .replay-link')
    page.wait_for_url(re.compile(r"/static/replay\.html\?game="))
    # the leaderboard: the players and the bot levels on one scale
    page.goto(f"{server.url}/leaderboard?variant=gin")
    page.wait_for_selector("#board tbody tr")
    names = page.eval_on_selector_all("#board tbody tr", "rows => rows.map(r => r.dataset.name)")
    assert {"Ana", "Budi", "random", "greedy", "strong"} <= set(names)
    assert page.locator('#board tr[data-bot="true"]').count() >= 3
    shot(page, "profiles_leaderboard", full_page=True)
    page.click("#lang-toggle")
    page.wait_for_function("() => document.querySelector('h1').textContent === 'Papan peringkat'")
    shot(page, "profiles_leaderboard_id", full_page=True)
    person.no_page_errors()
