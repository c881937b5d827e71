"""The image holds every package the project installs: a package the Dockerfile forgets to copy
(the catalogs were, once) installs nothing and fails only when the bot first says a word."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from bot.config import Config

ROOT = Path(__file__).resolve().parent.parent


def test_the_dockerfile_copies_every_installed_package_and_the_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {p.rstrip("*") for p in patterns}
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (ROOT / "Dockerfile").read_text(), re.M))
    assert packages <= copied, f"not copied into the image: {sorted(packages - copied)}"
    assert "data" in copied


def image_env() -> dict[str, str]:
    """The Dockerfile's ENV settings (KEY=VALUE pairs, continued over backslashed lines)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    pairs = [
        word for line in text.splitlines() if line.startswith("ENV ") for word in line.split()[1:]
    ]
    return dict(pair.split("=", 1) for pair in pairs)


def test_a_container_serves_its_metrics_beyond_its_own_loopback() -> None:
    """The bot listens on 127.0.0.1 unless told; in a container that reaches nobody, so the
    image and the compose file say 0.0.0.0 (the published port decides who sees it)."""
    config = Config.from_env(image_env() | {"METRICS_PORT": "9100"})
    assert config.metrics_host == "0.0.0.0"
    assert Config.from_env({}).metrics_host == "127.0.0.1"
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    (anchor,) = re.findall(r"^  environment: &bot-env\n((?:    .*\n)+)", compose, re.M)
    assert re.search(r'^    METRICS_HOST: "0\.0\.0\.0"', anchor, re.M), anchor
    assert re.search(r'^    METRICS_PORT: "9100"', anchor, re.M)
