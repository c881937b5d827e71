"""The console's formatter: a referee ``Reply`` as the lines a terminal shows.

Made at the edge from the reply's data: whether it is private or a refusal (by its kind), its
sentence, the chain head (``Log #3fa9c01b2e``; on Discord it is the footer), the board as text.
The referee itself never writes the chain head into its text.
"""

from __future__ import annotations

from bot.i18n import reply_words
from bot.referee.replies import Reply, ReplyKind
from engine import chain


def head_line(reply: Reply) -> str | None:
    """ "Log #3fa9c01b2e" (or the reply's own label, "Log head #..."), None without a chain."""
    if not reply.chain:
        return None
    return f"{reply.chain_label} #{chain.short(reply.chain)}"


def reply_lines(reply: Reply, lang: str = "en") -> list[str]:
    """What the console prints for a reply before its buttons and files: the marked sentence
    (in ``lang``), the chain head, the board."""
    mark = "(refused) " if reply.kind is ReplyKind.REFUSAL else ""  # a fallen flag is news
    private = "[private] " if reply.ephemeral else ""
    lines = [f"{private}{mark}{reply_words(reply, lang)}"]
    head = head_line(reply)
    if head is not None:
        lines.append(head)
    if reply.board_text:
        lines.append(reply.board_text)
    return lines


def reply_text(reply: Reply, lang: str = "en") -> str:
    """The same as one text (tests and logs)."""
    return "\n".join(reply_lines(reply, lang))
