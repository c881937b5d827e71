"""Replies in the players' languages: sentences are data (``Msg``) until a front end says them.

The referee builds a reply's sentences as ``Msg(key, params)``; this package says them in a
language from the catalogs (``translations``). It stands below the referee and knows none of its
types (a reply is read by its fields), so the referee can say its English for logs and tests,
and every front end can say the same reply in its own language.
"""

from bot.i18n.message import (
    Msg,
    coded,
    from_data,
    from_json,
    msg,
    number,
    one_line,
    person_name,
    plain,
    say,
    say_all,
    to_data,
    to_json,
    typed,
)
from bot.i18n.replies import button_label, reply_words

__all__ = [
    "Msg",
    "button_label",
    "coded",
    "from_data",
    "from_json",
    "msg",
    "number",
    "one_line",
    "person_name",
    "plain",
    "reply_words",
    "say",
    "say_all",
    "to_data",
    "to_json",
    "typed",
]
