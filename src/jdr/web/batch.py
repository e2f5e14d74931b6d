"""Actions of one table written together: one transaction, one commit for those that wait.

A table's writers are serialised anyway (`jdr.campaign.sql.Database.writer`, then the lock of
the campaign's row): sixteen people acting at once on one table each paid for a whole
transaction in turn — a worker thread woken, the campaign locked and read, its journal counter
written, a commit (a flush to disk), a thread handing its answer back. `Batches.run` queues an
action instead; one worker thread takes every action waiting for the same table and plays them
in turn in one transaction, then commits once and answers them all.

What does not change: an action is acknowledged only once its transaction is committed (the
answers are handed back after the commit, never before); the actions of a batch run one after
the other, each seeing what the previous ones wrote, exactly as if each had its own transaction
(a table's actions were serialised already: the order is the one they reached the queue in).

An action refused by its rights (`check`, which only reads) gets its refusal and the batch goes
on. Any other error in the batch rolls the whole transaction back, then every action of it is
played again alone, in its own transaction, as before batching: each gets its own answer or its
own error, and nothing of an action that failed is written. The dice of a batch that was rolled
back were never shown to anyone.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool

from jdr.errors import JdrError
from jdr.web.errors import ApiError

MAX_BATCH = 64  # actions in one transaction at most (the first ones are not kept waiting long)


@dataclass
class Job:
    """One action: `check(tx)` only reads (its `ApiError` or `JdrError` is this action's answer,
    the batch goes on); `run(tx)` plays it in the batch's transaction; `alone()` plays it in a
    transaction of its own (after a batch was rolled back)."""

    check: Callable[[Any], None]
    run: Callable[[Any], dict[str, Any]]
    alone: Callable[[], dict[str, Any]]
    future: asyncio.Future[dict[str, Any]] = field(init=False)


@dataclass
class Queue:
    waiting: list[Job] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    running: bool = False


Outcome = tuple[bool, Any]  # (True, answer) or (False, exception)


class Batches:
    """The queues of actions, one per table (campaign), of one server process."""

    def __init__(self) -> None:
        self._queues: dict[int, Queue] = {}
        self._drains: set[asyncio.Task[None]] = set()  # kept until done (the loop keeps weak ones)
        self.sizes: deque[int] = deque(maxlen=100)  # the actions each of the last batches held

    async def run(self, campaign: Any, job: Job) -> dict[str, Any]:
        """Queue `job` on the table of `campaign`; its answer once its batch is committed."""
        loop = asyncio.get_running_loop()
        job.future = loop.create_future()
        queue = self._queues.setdefault(campaign.id, Queue())
        with queue.lock:
            queue.waiting.append(job)
            start = not queue.running
            queue.running = True
        if start:
            task = loop.create_task(run_in_threadpool(self._drain, campaign, queue))
            self._drains.add(task)
            task.add_done_callback(self._drains.discard)
        return await job.future

    def _drain(self, campaign: Any, queue: Queue) -> None:
        """In a worker thread: batch after batch, until the queue is empty."""
        while True:
            with queue.lock:
                batch = queue.waiting[:MAX_BATCH]
                del queue.waiting[:MAX_BATCH]
                if not batch:
                    queue.running = False
                    return
            try:
                outcomes = self._play(campaign, batch)
            except BaseException as exc:  # the thread is stopped: no action waits for nothing
                with queue.lock:
                    batch += queue.waiting
                    queue.waiting, queue.running = [], False
                _answer(batch, [(False, exc)] * len(batch))
                raise
            _answer(batch, outcomes)

    def _play(self, campaign: Any, batch: list[Job]) -> list[Outcome]:
        """The batch in one transaction; after an error in an action, each action alone. An
        error once every action was played (the commit itself: was it done?) is every action's
        answer, none is played again (an action must never be written twice)."""
        self.sizes.append(len(batch))
        played = False
        try:
            outcomes: list[Outcome] = []
            with campaign.transaction() as tx:
                for job in batch:
                    try:
                        job.check(tx)
                    except (ApiError, JdrError) as refused:
                        outcomes.append((False, refused))
                        continue
                    outcomes.append((True, job.run(tx)))
                played = True
            return outcomes
        except Exception as exc:
            if played or len(batch) == 1:
                return [(False, exc)] * len(batch)
        return [_alone(job) for job in batch]


def _alone(job: Job) -> Outcome:
    try:
        return True, job.alone()
    except Exception as exc:
        return False, exc


def _answer(batch: list[Job], outcomes: list[Outcome]) -> None:
    """Hand the outcomes to the event loops of their requests (one call per loop: a server has
    one; an application tested in process may meet several)."""
    by_loop: dict[asyncio.AbstractEventLoop, tuple[list[Job], list[Outcome]]] = {}
    for job, outcome in zip(batch, outcomes, strict=True):
        jobs, outs = by_loop.setdefault(job.future.get_loop(), ([], []))
        jobs.append(job)
        outs.append(outcome)
    for loop, (jobs, outs) in by_loop.items():
        with suppress(RuntimeError):  # that loop is closed: nobody is left to answer
            loop.call_soon_threadsafe(_settle, jobs, outs)


def _settle(batch: list[Job], outcomes: list[Outcome]) -> None:
    for job, (ok, value) in zip(batch, outcomes, strict=True):
        if job.future.done():  # the request was cancelled (its client left): nothing to tell
            continue
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)
