"""Animated replays (placeholder while written)."""


def replay_gif(*args, **kwargs) -> bytes:
    raise NotImplementedError
