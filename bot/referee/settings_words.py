"""What a server's settings are, as sentences: the console's ``referee settings`` and
Discord's ``/referee settings`` say the same lines (Discord adds who disputes notify)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import translations
from bot.i18n import Msg, msg
from bot.referee.ladder_words import ladder_setting_msg


def settings_lines(current: Mapping[str, Any], *, notify: Msg | None = None) -> list[Msg]:
    """Theme, ladders, (``notify``: who a dispute calls), takebacks and language."""
    theme = current.get("theme")
    lines = [
        msg("settings.theme", theme=theme) if theme else msg("settings.theme_default"),
        msg(
            "settings.ladders",
            ladders=ladder_setting_msg(current.get("ladder") or {}, changed=False),
        ),
    ]
    if notify is not None:
        lines.append(notify)
    takebacks = current.get("takebacks", True)
    lines.append(msg("settings.takebacks_on" if takebacks else "settings.takebacks_off"))
    language = translations.NAMES[current.get("language") or translations.DEFAULT]
    lines.append(msg("settings.language", language=language))
    return lines
