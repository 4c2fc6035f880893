"""How many analyses the server runs at once.

`Slots(limit, timeout)` hands out at most `limit` slots. A request that finds them all taken waits
in line (first come, first served) for up to `timeout` seconds; if none frees by then it gets
`ServerBusyError`, which the routes answer with 503 and a `Retry-After` header. A slot is held
for a whole analysis and released when it ends, fails or its client leaves. Slots belong to one
event loop (the server's); they are asyncio-based, so waiting in line takes no thread.
"""

from __future__ import annotations

import asyncio
import math


class ServerBusyError(Exception):
    """No analysis slot came free in time; `retry_after` suggests when to try again (seconds)."""

    def __init__(self, limit: int, retry_after: int):
        super().__init__(
            f"the server is busy: all {limit} analysis slots are taken; "
            f"try again in {retry_after} s"
        )
        self.retry_after = retry_after


class Slot:
    """One held slot. `release()` frees it the first time and does nothing after; `with slot:`
    releases it on leaving the block."""

    def __init__(self, semaphore: asyncio.Semaphore):
        self._semaphore: asyncio.Semaphore | None = semaphore

    def release(self) -> None:
        if self._semaphore is not None:
            self._semaphore.release()
            self._semaphore = None

    def __enter__(self) -> Slot:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


class Slots:
    """At most `limit` slots held at once; `acquire` waits up to `timeout` seconds for one."""

    def __init__(self, limit: int, timeout: float):
        if limit < 1 or timeout < 0:
            raise ValueError("Slots need limit >= 1 and timeout >= 0")
        self.limit = limit
        self.timeout = timeout
        self._semaphore = asyncio.Semaphore(limit)

    async def acquire(self) -> Slot:
        """A slot, once one is free; ServerBusyError if none frees within the timeout."""
        try:
            async with asyncio.timeout(self.timeout):
                await self._semaphore.acquire()
        except TimeoutError:
            raise ServerBusyError(self.limit, max(1, math.ceil(self.timeout))) from None
        return Slot(self._semaphore)
