"""What /verify says (a reviewer's finding): a wall of jargon with "1 log rows", "1 rows chained"
and "1 rows link". Now its first line is a verdict every player reads, the details for the
moderators follow under a heading, and every count takes its plural form in every language."""

from __future__ import annotations

import pytest

from bot.i18n import msg, reply_words, say
from bot.referee import Referee
from tests.bot.conftest import ALICE, BOB, HERE, play, start
from translations import LANGUAGES, words

ONE = {  # a game just started: its log holds the start row alone, and no action
    "en": ("0 actions, 1 log row", "log: 1 row chained, 0 actions", "chain: 1 row links"),
    "hu": ("0 művelet, 1 naplósor", "napló: 1 sor láncolva, 0 művelet", "lánc: 1 sor kapcsolódik"),
    "eo": (
        "0 agoj, 1 protokola linio",
        "protokolo: 1 linio ĉenita, 0 agoj",
        "ĉeno: 1 linio ligiĝas",
    ),
    "is": (
        "0 aðgerðir, 1 lína í skránni",
        "skrá: 1 lína keðjuð, 0 aðgerðir",
        "keðja: 1 lína tengist",
    ),
}
SEVERAL = {  # two moves later: three rows, two actions
    "en": ("2 actions, 3 log rows", "log: 3 rows chained, 2 actions", "chain: 3 rows link"),
    "hu": ("2 művelet, 3 naplósor", "napló: 3 sor láncolva, 2 művelet", "lánc: 3 sor kapcsolódik"),
    "eo": (
        "2 agoj, 3 protokolaj linioj",
        "protokolo: 3 linioj ĉenitaj, 2 agoj",
        "ĉeno: 3 linioj ligiĝas",
    ),
    "is": (
        "2 aðgerðir, 3 línur í skránni",
        "skrá: 3 línur keðjaðar, 2 aðgerðir",
        "keðja: 3 línur tengjast",
    ),
}


def lines_of(reply: object, lang: str) -> list[str]:
    return reply_words(reply, lang).splitlines()  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_count_takes_its_plural_form(referee: Referee, lang: str) -> None:
    await start(referee, "morris")
    one = reply_words(await referee.verify(HERE), lang)
    for said in ONE[lang]:
        assert said in one, (lang, said, one)
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await play(referee, HERE, BOB, "place a1")).ok
    several = reply_words(await referee.verify(HERE), lang)
    for said in SEVERAL[lang]:
        assert said in several, (lang, said, several)


async def test_a_turn_taken_back_is_counted_in_each_language(referee: Referee) -> None:
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    await referee.request_takeback(HERE, ALICE)
    assert (await referee.answer_takeback(HERE, BOB, True)).ok
    verified = await referee.verify(HERE)
    said = {lang: reply_words(verified, lang) for lang in LANGUAGES}
    assert ", 1 taken back or restored away" in said["en"], said["en"]
    assert ", 1 visszavéve vagy visszaállítással eltávolítva" in said["hu"], said["hu"]
    assert ", 1 reprenita aŭ forigita per restarigo" in said["eo"], said["eo"]
    assert ", 1 tekin til baka eða fjarlægð við endurheimt" in said["is"], said["is"]


def test_icelandic_counts_21_like_1_and_11_like_many() -> None:
    """Past what a short game reaches: each language's plural rule, from its catalog."""
    assert say(msg("verify.rows_chained", n=21), "is") == "21 lína keðjuð"
    assert say(msg("verify.rows_chained", n=11), "is") == "11 línur keðjaðar"
    assert say(msg("verify.log_rows", n=21), "en") == "21 log rows"
    assert say(msg("verify.undone", n=2), "eo") == "2 reprenitaj aŭ forigitaj per restarigo"
    assert say(msg("verify.log_rows", n=1), "hu") == "1 naplósor"


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_first_line_is_a_verdict_and_the_details_follow_a_heading(
    referee: Referee, lang: str
) -> None:
    w = words(lang)
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    running = lines_of(await referee.verify(HERE), lang)
    assert running[:3] == [w.t("verify.verdict_running_no_dice"), "", w.t("verify.details_head")]
    assert running[3].startswith(w.t("verify.ok", reason="")), running
    assert (await referee.resign(HERE, BOB)).ok  # Morris with a chosen starter rolls nothing
    over = lines_of(await referee.verify(HERE), lang)
    assert over[:3] == [w.t("verify.verdict_ok_no_dice"), "", w.t("verify.details_head")]


async def test_a_game_with_dice_says_every_roll_checks_out(referee: Referee) -> None:
    await start(referee, "atmalof")
    assert (await play(referee, HERE, ALICE, "drop row 4")).ok
    assert (await play(referee, HERE, BOB, "drop col 2")).ok
    assert (await referee.resign(HERE, BOB)).ok
    said = lines_of(await referee.verify(HERE), "en")
    assert said[:3] == ["Every move and every roll checks out.", "", "Details, for moderators:"]
    assert said[3].startswith("Verified: Atmalof, 2 actions, 4 log rows, "), said
    assert "- rolls: 2 recomputed from the seed, all equal" in said, said


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_game_that_rolled_nothing_says_so_instead_of_a_seed_proving_rolls(
    referee: Referee, lang: str
) -> None:
    """A Morris game with a chosen starter rolled nothing, yet /verify said "the revealed seed
    matches the commitment" and "0 recomputed from the seed, all equal" as if that proved its
    rolls (a player's finding): it says no dice were rolled, and then that the seed matches;
    once in the details (a moderator's review found it said three ways there)."""
    w = words(lang)
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await referee.resign(HERE, BOB)).ok
    said = lines_of(await referee.verify(HERE), lang)
    assert said[0] == w.t("verify.verdict_ok_no_dice")
    assert w.t("verify.detail", detail=w.t("verify.seed_matches_unused")) in said, said
    assert w.t("verify.detail", detail=w.t("verify.seed_matches")) not in said, said
    # said once, not three times: no "rolls: none", no "this game rolled nothing" after it
    for key in ("verify.rolls_none", "verify.dice_unused"):
        assert w.t("verify.detail", detail=w.t(key)) not in said, (key, said)
    assert sum(w.t("verify.seed_matches_unused") in line for line in said) == 1, said
    assert not [line for line in said if line.startswith(w.t("verify.detail", detail=""))
                and w.t("verify.rolls_recomputed", n=0) in line]  # fmt: skip


@pytest.mark.parametrize("game", ["abalone", "morris", "atmalof"])
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_game_whose_only_roll_was_the_coin_toss_says_the_toss_is_what_was_checked(
    referee: Referee, lang: str, game: str
) -> None:
    w = words(lang)
    made = await referee.challenge(HERE, ALICE, game, opponent=BOB, starter="random")
    assert made.ok, made.text
    assert (await referee.accept(HERE, BOB)).ok
    assert (await referee.resign(HERE, ALICE)).ok
    said = lines_of(await referee.verify(HERE), lang)
    assert said[0] == w.t("verify.verdict_ok_toss"), said
    for key in ("verify.seed_matches_toss", "verify.toss_recomputed", "verify.rolls_none"):
        assert w.t("verify.detail", detail=w.t(key)) in said, (key, said)
    mixed = w.t("verify.dice_mixed_toss", accept="")
    assert any(line.startswith(w.t("verify.detail", detail=mixed[:12])) for line in said), said
    assert w.t("verify.verdict_ok") not in said


async def test_a_game_with_a_toss_and_dice_still_says_every_roll(referee: Referee) -> None:
    made = await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, starter="random")
    assert made.ok, made.text
    assert (await referee.accept(HERE, BOB)).ok
    first, second = (
        (ALICE, BOB) if (await play(referee, HERE, ALICE, "drop row 4")).ok else (BOB, ALICE)
    )
    if first is BOB:
        assert (await play(referee, HERE, BOB, "drop row 4")).ok
    assert (await referee.resign(HERE, second)).ok
    said = lines_of(await referee.verify(HERE), "en")
    assert said[0] == "Every move and every roll checks out.", said
    assert "- dice: the revealed seed matches the commitment" in said
    assert "- rolls: 1 recomputed from the seed, equal" in said, said
