"""What one bot process exposes to Prometheus (``METRICS_PORT``, on ``METRICS_HOST``: loopback
unless set; the Docker image sets 0.0.0.0): traffic, speed, health.

- ``referee_interactions_total{command, outcome}``: every slash command and button press, by
  how it ended: ``ok``, ``refused`` (the referee said no, with a reason), ``cant_save`` (the
  store was unavailable) or ``error`` (a bug, apologised for and logged).
- ``referee_first_response_seconds{kind}``: from the interaction's arrival to its first answer
  (Discord allows 3 s), for ``command`` and ``button``.
- ``referee_active_games``: running games on this process's shards (counted at start, then
  refreshed by the sweeper).
- ``referee_store_faults_total{where}``: store faults met while answering or sweeping.
- ``referee_gateway_connected{shard}`` (1/0) and ``referee_gateway_latency_seconds{shard}``.

Each process has its own registry and endpoint; Prometheus sums over processes. Nothing here
imports discord: the Discord layer reports to it through a few plain calls.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

OUTCOMES = ("ok", "refused", "cant_save", "error")
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
_KEY = "referee.metrics"  # the interaction's extras entry: when it arrived, answered, outcome


@dataclass
class _Seen:
    command: str
    kind: str
    arrived: float
    answered: bool = False
    outcome: str | None = None
    counted: bool = False


@dataclass
class Metrics:
    """One process's metrics on a registry of its own (tests make as many as they like)."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        r = self.registry
        self.interactions = Counter(
            "referee_interactions",
            "Slash commands and button presses, by command and how they ended",
            ["command", "outcome"],
            registry=r,
        )
        self.first_response = Histogram(
            "referee_first_response_seconds",
            "Seconds from an interaction's arrival to its first answer",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.active_games = Gauge(
            "referee_active_games", "Running games on this process's shards", registry=r
        )
        self.store_faults = Counter(
            "referee_store_faults", "Store faults met, by where", ["where"], registry=r
        )
        self.gateway_connected = Gauge(
            "referee_gateway_connected",
            "1 while the shard's gateway is connected",
            ["shard"],
            registry=r,
        )
        self.gateway_latency = Gauge(
            "referee_gateway_latency_seconds",
            "The shard's last heartbeat latency",
            ["shard"],
            registry=r,
        )

    def serve(self, port: int, host: str = "127.0.0.1") -> tuple[str, int]:
        """Expose ``/metrics`` over HTTP on ``host``, ``port`` (0: any free one) in a daemon
        thread; returns the address it listens on. Loopback unless told: every interface would
        include a host's public one."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        return str(server.server_address[0]), int(server.server_address[1])

    # ---- one interaction's life (the Discord layer calls these) -----------------------------
    def arrived(self, interaction: Any, command: str, kind: str) -> None:
        """An interaction came in now (called once, where its answer deadline starts)."""
        interaction.extras[_KEY] = _Seen(command, kind, time.perf_counter())

    def answering(self, interaction: Any) -> None:
        """The first answer is being sent now (a later call for the same one is ignored)."""
        seen = interaction.extras.get(_KEY)
        if seen is None or seen.answered:
            return
        seen.answered = True
        self.first_response.labels(seen.kind).observe(time.perf_counter() - seen.arrived)

    def outcome(self, interaction: Any, outcome: str) -> None:
        """How it went so far: the worst outcome told wins (an error after a refusal: error)."""
        seen = interaction.extras.get(_KEY)
        if seen is None:
            return
        if seen.outcome is None or OUTCOMES.index(outcome) > OUTCOMES.index(seen.outcome):
            seen.outcome = outcome

    def finished(self, interaction: Any, outcome: str | None = None) -> None:
        """The handler is done: count it once (by its outcome), and if its first answer went
        another way than ``answering``, take now as when it was answered."""
        seen = interaction.extras.get(_KEY)
        if seen is None or seen.counted:
            return
        if outcome is not None:
            self.outcome(interaction, outcome)
        if not seen.answered:
            self.answering(interaction)
        seen.counted = True
        self.interactions.labels(seen.command, seen.outcome or "ok").inc()

    # ---- the gateway ------------------------------------------------------------------------
    def gateway(self, shard: int | None, connected: bool, latency: float | None = None) -> None:
        label = str(shard or 0)
        self.gateway_connected.labels(label).set(1 if connected else 0)
        if latency is not None and latency == latency and latency != float("inf"):
            self.gateway_latency.labels(label).set(latency)


METRICS = Metrics()  # the process's own: what ``python -m bot`` exposes on METRICS_PORT


def metrics_of(interaction: Any) -> Metrics:
    """The metrics of the bot that got ``interaction`` (the process's own by default)."""
    found = getattr(interaction.client, "metrics", None)
    return found if isinstance(found, Metrics) else METRICS
