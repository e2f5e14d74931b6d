"""The baseline of `bench_live.py`: a bare asyncio WebSocket broadcaster (the `websockets`
library alone, no framework, no database, no compression) writing given frames to N clients.

    python benchmarks/bare_broadcaster.py PORT CLIENTS FRAMES.json RATE

It waits for CLIENTS connections, then sends every frame of FRAMES.json (a list of texts) to every
client, RATE frames a second, each with `await ws.send(frame)` in one loop, and prints the CPU
seconds (process) spent from the first frame to the last, and when each frame's sending began
(`time.time()`, so that the clients, in another process, get each frame's latency), as JSON on
one line.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

from websockets.asyncio.server import serve


async def main(port: int, count: int, frames: list[str], rate: float) -> None:
    clients: set[Any] = set()
    full = asyncio.Event()

    async def handler(ws: Any) -> None:
        clients.add(ws)
        if len(clients) >= count:
            full.set()
        try:
            await ws.wait_closed()
        finally:
            clients.discard(ws)

    async with serve(handler, "127.0.0.1", port, compression=None, max_queue=None):
        print(json.dumps({"ready": True}), flush=True)
        await full.wait()
        await asyncio.sleep(0.5)
        cpu0, start = time.process_time(), time.perf_counter()
        sent: list[float] = []
        for i, frame in enumerate(frames):
            await asyncio.sleep(max(0.0, start + i / rate - time.perf_counter()))
            sent.append(time.time())
            for ws in list(clients):
                await ws.send(frame)
        cpu = time.process_time() - cpu0
        print(json.dumps({"cpu": cpu, "deliveries": len(frames) * len(clients), "sent": sent}),
              flush=True)
        await asyncio.sleep(2)  # the clients read the last frames


if __name__ == "__main__":
    port, count, path, rate = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    with open(path, encoding="utf-8") as f:
        asyncio.run(main(port, count, json.load(f), rate))
