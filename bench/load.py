"""Load: `longread serve` (the real command, a subprocess) driven by many clients at once, each
from an address of its own on the loopback network (127.0.x.y), in a loop: upload a text, list
the documents, read the configuration, analyze (`map` on its upload), now and then analyze over
the event stream, and read the run viewer's runs, pausing between requests as a person reading
the page does (`--think`: the mean pause, each drawn from half to one and a half times it; 0 makes
each client a tight loop, a stress test rather than people). One client's turn first warms the
server (its first upload imports the loaders) and is not measured. The model is a scripted
OpenAI-compatible server answering at once, so the server's own work is what is measured.

Reported per route: requests, answers by status, latency (median and p99); every 5xx is a
failure, a 503 must carry Retry-After; and the server's resident memory sampled each second
(the first and the last tenth of the run compared: flat means no leak).

    python bench/load.py [--clients 200] [--seconds 300] [--think 5]

The table goes to docs/bench-load.md; `tests/test_load.py` runs a short version.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
from pages import write_page  # noqa: E402 - (this folder is on the path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from fake_openai import fake_openai  # noqa: E402

LONGREAD = str(Path(sys.executable).with_name("longread"))
MODEL_ROUTES = ("POST /api/analyze", "POST /api/analyze-stream")


@dataclass
class Load:
    """What the clients saw, and the server's memory over time."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    busy_without_retry_after: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    rss_mb: list[float] = field(default_factory=list)
    think: float = 0.0  # a client's mean pause between requests (seconds)

    async def pause(self) -> None:
        if self.think:
            await asyncio.sleep(random.uniform(0.5, 1.5) * self.think)

    def note(self, route: str, response: httpx.Response, seconds: float) -> None:
        self.latencies[route].append(seconds)
        self.statuses[route][response.status_code] += 1
        if response.status_code == 503 and "retry-after" not in response.headers:
            self.busy_without_retry_after += 1

    def server_errors(self) -> int:
        return sum(n for c in self.statuses.values() for s, n in c.items() if s >= 500 and s != 503)

    def p99(self, route: str) -> float:
        times = sorted(self.latencies[route])
        return times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0

    def table(self) -> list[str]:
        rows = ["| route | requests | answers | median | p99 |", "|---|---|---|---|---|"]
        for route in sorted(self.latencies):
            answers = ", ".join(f"{n:,} × {s}" for s, n in sorted(self.statuses[route].items()))
            times = self.latencies[route]
            rows.append(
                f"| `{route}` | {len(times):,} | {answers} | "
                f"{statistics.median(times) * 1000:,.0f} ms | {self.p99(route) * 1000:,.0f} ms |"
            )
        return rows


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    """The resident memory of a process (MB), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def timed(
    load: Load, client: httpx.AsyncClient, method: str, url: str, **kw: Any
) -> httpx.Response:
    route = f"{method} {url.split('?')[0] if '/runs/' not in url else '/api/runs/{id}'}"
    started = time.monotonic()
    response = await client.request(method, url, **kw)
    load.note(route, response, time.monotonic() - started)
    await load.pause()
    return response


# one TLS context for all clients (each made its own, reading the system's certificates: 200 of
# them stalled this event loop for seconds, and the requests it was timing with it)
_TLS = ssl.create_default_context()


async def one_client(number: int, base: str, until: float, load: Load) -> None:
    """One user's loop, from its own loopback address, until the time is up."""
    address = f"127.0.{1 + number // 250}.{1 + number % 250}"
    await asyncio.sleep(random.uniform(0, load.think))  # (people arrive over a while)
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=_TLS)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as client:
        turn = 0
        while time.monotonic() < until:
            turn += 1
            try:
                text = f"Report {number}-{turn}. The harbour master of Skerry is Ingrid Vale. " * 20
                parsed = await timed(
                    load,
                    client,
                    "POST",
                    "/api/parse",
                    data={"text": text, "name": f"r{number}.txt"},
                )
                if parsed.status_code != 200:
                    continue
                doc = parsed.json()["documents"][0]["id"]
                await timed(load, client, "GET", "/api/documents")
                await timed(load, client, "GET", "/api/config")
                body = {
                    "question": "Who is the harbour master?",
                    "mode": "map",
                    "document_ids": [doc],
                }
                if turn % 5:
                    await timed(load, client, "POST", "/api/analyze", json=body)
                else:
                    started = time.monotonic()
                    async with client.stream("POST", "/api/analyze-stream", json=body) as stream:
                        async for _ in stream.aiter_lines():
                            pass
                    load.note("POST /api/analyze-stream", stream, time.monotonic() - started)
                    await load.pause()
                runs = await timed(load, client, "GET", "/api/runs")
                listed = runs.json().get("runs", []) if runs.status_code == 200 else []
                if listed:
                    await timed(load, client, "GET", f"/api/runs/{listed[0]['id']}")
            except httpx.HTTPError as error:
                load.errors[type(error).__name__] += 1


async def drive(base: str, pid: int, clients: int, seconds: float, think: float) -> Load:
    await one_client(0, base, time.monotonic() + 0.01, Load())  # (one turn first: warm, unmeasured)
    load = Load(think=think)
    until = time.monotonic() + seconds

    async def sample() -> None:
        while time.monotonic() < until:
            load.rss_mb.append(rss_mb(pid))
            await asyncio.sleep(1)

    await asyncio.gather(sample(), *(one_client(n, base, until, load) for n in range(clients)))
    return load


def run(clients: int, seconds: float, folder: Path, think: float) -> Load:
    """Serve, drive, stop."""
    port = free_port()
    with fake_openai() as model:
        model.last = "The passages do not say."
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(folder),
            "LONGREAD_CACHE_DIR": str(folder / "cache"),
            "LONGREAD_DATA_DIR": str(folder / "data"),
            "OPENAI_BASE_URL": model.url,
            "OPENAI_API_KEY": "sk-test",
        }
        command = [LONGREAD, "serve", "--port", str(port), "--model", "openai:scripted"]
        server = subprocess.Popen(
            [*command, "--queue-timeout", "2"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    if httpx.get(f"{base}/api/config", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
            return asyncio.run(drive(base, server.pid, clients, seconds, think))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--think", type=float, default=5.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="longread-load-") as scratch:
        load = run(args.clients, args.seconds, Path(scratch), args.think)
    tenth = max(1, len(load.rss_mb) // 10)
    first, last = load.rss_mb[:tenth], load.rss_mb[-tenth:]
    other = [r for r in load.latencies if r not in MODEL_ROUTES]
    report = "\n".join(
        [
            f"{args.clients} clients for {args.seconds:.0f} s against `longread serve` "
            "(4 analyses at once, 2 s in line at most), a scripted model answering at once; "
            f"each client pauses {args.think:g} s between requests on average "
            f"({sum(len(t) for t in load.latencies.values()) / args.seconds:,.0f} requests a "
            "second in all).",
            "",
            *load.table(),
            "",
            f"- 5xx other than 503: {load.server_errors()}; 503 without Retry-After: "
            f"{load.busy_without_retry_after}; client-side errors: "
            f"{dict(load.errors) or 'none'}.",
            f"- p99 of the routes that call no model: "
            f"{max((load.p99(r) for r in other), default=0) * 1000:,.0f} ms at most (target "
            "≤ 200 ms).",
            f"- Server memory (RSS): {statistics.mean(first):,.0f} MB over the first tenth of the "
            f"run, {statistics.mean(last):,.0f} MB over the last, {max(load.rss_mb):,.0f} MB at "
            "most.",
            f"- The machine's load average at the end (clients, server and anything else running): "
            f"{os.getloadavg()[1]:.1f} over 5 minutes, on {os.cpu_count()} cores.",
        ]
    )
    write_page("load", "Load: many clients at once", report)


if __name__ == "__main__":
    main()
