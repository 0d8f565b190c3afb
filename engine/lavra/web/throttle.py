"""Failed-login throttling: exponential back-off per account and per address.

After ``free`` failures in a row, each further attempt must wait
``base * 2 ** (failures - free)`` seconds (capped at ``cap``) after the last
failure; a success clears the account's count. The web app counts in the registry
database (:class:`lavra.registry.webshared.SharedAttempts`), so that every worker over
it throttles as one; without a store (tests, tools) the counts stay in memory. Filings
are counted in a sliding window (:class:`WindowThrottle`), in the registry too.

The address is the connection's peer, or behind a trusted reverse proxy the client it
forwards (``WebSettings.trusted_proxies``); an IPv6 address counts for its whole /64,
the block one subscriber usually holds, so rotating within it gains nothing.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Policy:
    free: int
    base: float = 1.0
    cap: float = 900.0


ACCOUNT_POLICY = Policy(free=3)
ADDRESS_POLICY = Policy(free=10)
_MAX_KEYS = 50_000


def address_key(host: str) -> str:
    """The key an address is counted under: IPv4 as is, IPv6 by its /64 network."""
    try:
        address = ipaddress.ip_address(host.strip().strip("[]"))
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class AttemptStore(Protocol):
    """Where failures are counted: ``(failures, last)`` by key (see SharedAttempts)."""

    def get(self, keys: Sequence[str]) -> dict[str, tuple[int, float]]: ...

    def add(self, keys: Sequence[str], now: float, forget_before: float) -> None: ...

    def clear(self, key: str) -> None: ...


class MemoryAttempts:
    """Counts in this process only."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}

    def get(self, keys: Sequence[str]) -> dict[str, tuple[int, float]]:
        with self._lock:
            return {k: self._failures[k] for k in keys if k in self._failures}

    def add(self, keys: Sequence[str], now: float, forget_before: float) -> None:
        with self._lock:
            if len(self._failures) > _MAX_KEYS:
                for key in [k for k, (_, last) in self._failures.items()
                            if last < forget_before]:
                    del self._failures[key]
            for key in keys:
                failures, _ = self._failures.get(key, (0, 0.0))
                self._failures[key] = (failures + 1, now)

    def clear(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


class LoginThrottle:
    """Counts failures by key (``conta:nome``, ``ip:endereço``) and says how long to wait.

    ``store`` is where they are counted (a callable, so that the registry is opened
    only when first needed); the clock is the wall clock, the same in every worker."""

    def __init__(self, clock: Callable[[], float] = time.time,
                 store: Callable[[], AttemptStore] | None = None) -> None:
        self._clock = clock
        self._made = store
        self._store: AttemptStore | None = None if store is not None else MemoryAttempts()

    @property
    def store(self) -> AttemptStore:
        if self._store is None:
            assert self._made is not None
            self._store = self._made()
        return self._store

    @staticmethod
    def _delay(failures: int, policy: Policy) -> float:
        if failures < policy.free:
            return 0.0
        return float(min(policy.cap, policy.base * 2 ** (failures - policy.free)))

    def wait_seconds(self, account: str, address: str) -> int:
        """Seconds to wait before another attempt is allowed (0: allowed now)."""
        now = self._clock()
        wait = 0.0
        keys = ((f"conta:{account}", ACCOUNT_POLICY),
                (f"ip:{address_key(address)}", ADDRESS_POLICY))
        found = self.store.get([key for key, _ in keys])
        for key, policy in keys:
            failures, last = found.get(key, (0, 0.0))
            wait = max(wait, last + self._delay(failures, policy) - now)
        return int(wait + 0.999) if wait > 0 else 0

    def failed(self, account: str, address: str) -> None:
        now = self._clock()
        self.store.add([f"conta:{account}", f"ip:{address_key(address)}"], now,
                       forget_before=now - 2 * ACCOUNT_POLICY.cap)

    def succeeded(self, account: str) -> None:
        self.store.clear(f"conta:{account}")


@dataclass(frozen=True)
class Window:
    """At most ``limit`` events per key in any ``seconds`` (a sliding window)."""

    limit: int
    seconds: float = 3600.0


#: Filings: 5 per CPF/CNPJ and 30 per address in any hour (README, "applicant's flow").
FILING_PER_HOLDER = Window(limit=5)
FILING_PER_ADDRESS = Window(limit=30)


class EventStore(Protocol):
    """Where events are kept: their times by key (see SharedEvents)."""

    def take(self, windows: Sequence[tuple[str, int, float]], now: float,
             forget_before: float) -> tuple[float, tuple[int, ...]]: ...

    def remove(self, ids: Sequence[int]) -> None: ...


@dataclass(frozen=True)
class Slot:
    """A place taken in the windows (``wait`` 0, the events' ``ids``), or refused
    (``wait``: seconds until a place frees, nothing recorded)."""

    wait: int
    ids: tuple[int, ...] = ()


class WindowThrottle:
    """Counts events per key (``doc:…``, ``ip:…``) in a sliding window and forgets them
    when they leave it: past ``limit`` in the window, the next waits until the oldest
    falls out. Counted in ``store`` (the registry's
    :class:`lavra.registry.webshared.SharedEvents`, opened when first needed), on the
    wall clock, so that every worker over the registry counts as one.

    :meth:`take` decides and records in one step (the store's lock), so two workers
    cannot both take the last place; a filing refused after it gives its place back
    (:meth:`release`)."""

    def __init__(self, store: Callable[[], EventStore],
                 per_holder: Window = FILING_PER_HOLDER,
                 per_address: Window = FILING_PER_ADDRESS,
                 clock: Callable[[], float] = time.time) -> None:
        self._policies = (per_holder, per_address)
        self._clock = clock
        self._made = store
        self._store: EventStore | None = None

    @property
    def store(self) -> EventStore:
        if self._store is None:
            self._store = self._made()
        return self._store

    def _keys(self, holder: str, address: str) -> tuple[tuple[str, Window], ...]:
        return ((f"doc:{holder}", self._policies[0]),
                (f"ip:{address_key(address)}", self._policies[1]))

    def take(self, holder: str, address: str) -> Slot:
        """A place for one more event of the holder from the address, or how long to wait."""
        now = self._clock()
        longest = max(window.seconds for window in self._policies)
        wait, ids = self.store.take(
            [(key, window.limit, window.seconds) for key, window in self._keys(holder, address)],
            now, forget_before=now - longest)
        return Slot(int(wait + 0.999) if wait > 0 else 0, ids)

    def release(self, slot: Slot) -> None:
        """Give back a place taken for an event that did not happen."""
        self.store.remove(slot.ids)
