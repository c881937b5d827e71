"""The console's formatter: a referee ``Reply`` as the lines a terminal shows.

Made at the edge from the reply's data: whether it is private or a refusal (by its kind), its
sentence, the chain head (``Log #3fa9c01b2e``; on Discord it is the footer), the board as text.
The referee itself never writes the chain head into its text.
"""

from __future__ import annotations

from bot.i18n import Msg, msg, reply_words, say, say_all
from bot.referee.names import BOT_NAME, name_key
from bot.referee.replies import Reply, ReplyKind
from engine import chain


def head_line(reply: Reply, lang: str = "en") -> str | None:
    """ "Log #3fa9c01b2e" (or, for a record's head, "Log head #..."), None without a chain."""
    if not reply.chain:
        return None
    key = "console.log_head" if reply.chain_label == "Log head" else "console.log"
    return say(msg(key, head=chain.short(reply.chain)), lang)


CONSOLE_REFUSALS = {
    "accept_own_challenge": "console.accept_own_challenge",
    "channel_busy": "console.channel_busy",
    "no_game": "console.no_game",
    "resign_before_moving": "console.resign_before_moving",
    "moderation_game_over": "console.moderation_game_over",
    "rematch_not_player": "console.rematch_not_player",
    "removal_first": "console.removal_first",
}
"""Refusals the console says in its own words: its table is the only channel, so Discord's
advice (another channel or a thread) does not fit, nor do its slash commands (a mill's
``remove <point>``, not /remove)."""
CONSOLE_LINES = {
    "ladder.show_hidden": "console.ladder_show_hidden",
    "history.head_more": "console.history_head_more",
    "board.draw_waiting": "console.draw_waiting",
    "board.takeback_waiting": "console.takeback_waiting",
    "board.remove": "console.remove",
    "board.frozen_turn": "console.frozen_turn",
    "board.frozen_remove": "console.frozen_remove",
    "busy.your_game_unmoved": "console.busy_your_game_unmoved",
    "busy.challenge_to_you": "console.busy_challenge_to_you",
    "busy.your_challenge": "console.busy_your_challenge",
    "record.running": "console.record_running",
    "record.finished": "console.record_finished",
    "seed.rolls": "console.seed_rolls",
    "seed.toss": "console.seed_toss",
    "start.toss": "console.start_toss",
}
"""Sentences the console says in its own words: how to type what Discord asks by an option,
a slash command or a button (also inside another sentence: a busy channel's reason), or a
mill's removal (``remove <point>``, not Discord's /remove) or a frozen game's resume
(``referee: resume``, not /referee resume); how to
check a record (its own ``import <path>`` and the saved file's path, not Discord's /import) or
the coin toss and the revealed seed's rolls (its ``verify``, not Discord's /verify)."""


def console_words(said: Msg) -> Msg:
    """``said`` with the console's own sentences (``CONSOLE_LINES``), its parameters too."""
    params = {k: console_words(v) if isinstance(v, Msg) else v for k, v in said.params.items()}
    return Msg(CONSOLE_LINES.get(said.key, said.key), params)


def reply_lines(reply: Reply, lang: str = "en", *, board: bool = True) -> list[str]:
    """What the console prints for a reply before its buttons and files: the marked sentence
    (in ``lang``), the chain head, the board (unless ``board`` is false)."""
    own = CONSOLE_REFUSALS.get(reply.reason or "")
    if own:
        text = say(console_words(Msg(own, reply.params)), lang)
    elif not reply.reason and any(m.key in CONSOLE_LINES for m in reply.lines):
        text = say_all([console_words(m) for m in reply.lines], lang)
    else:
        text = reply_words(reply, lang)
    # a fallen flag is news, not a refusal; nor is a question with answers (a hopeless drop)
    if reply.kind is ReplyKind.REFUSAL and not reply.buttons:
        text = say(msg("console.refused", text=text), lang)
    if reply.ephemeral:
        text = say(msg("console.private", text=text), lang)
    lines = [text]
    head = head_line(reply, lang)
    if head is not None:
        lines.append(head)
    text_board = reply.board_text if board else None  # made when read: read once
    if text_board:
        lines.append(text_board)
    return lines


def reply_text(reply: Reply, lang: str = "en") -> str:
    """The same as one text (tests and logs)."""
    return "\n".join(reply_lines(reply, lang))


def bot_answers(reply: Reply) -> bool:
    """Whether the practice opponent moves next in the position a reply shows (its answer,
    which comes right after, shows the board: one text board a turn, not two)."""
    view = reply.board
    if view is None or view.outcome is not None or not view.players or not reply.ok:
        return False
    to_move = getattr(view.state, "to_move", None)
    return to_move in (0, 1) and name_key(view.players[to_move]) == BOT_NAME
