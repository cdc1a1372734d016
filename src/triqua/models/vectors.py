"""The offline verifier's sentence vectors: each text embedded once per process, in batches.

Every fact embeds its query and its candidate evidence sentences, and the facts of a run
share most of their evidence, so vectors are cached by text. The workers that judge facts
side by side also coalesce: a worker that needs texts nobody is embedding adds them to a
queue; a worker that finds a free slot (one per core) becomes a leader and embeds
everything queued in one length-sorted batch, while the others queue more or wait for texts
already queued or being embedded. A text is never embedded twice at once, and one ONNX call
per wave of requests costs less than one per fact (each call has a fixed cost, and bigger
batches run faster per text); with a slot per core, embedding still uses every core.

Texts known to be needed soon can be announced with :meth:`SentenceVectors.expect` (the
offline judge announces each fact's query as soon as the fact is decomposed): the next batch
anyone leads takes them along, so a run's queries are embedded in a few full, length-sorted
batches (~6 ms a text) rather than one by one as each fact is judged (~11 ms, most of it
reading the model's weights once per call). Announced with ``now=True``, they are embedded
at once by a background leader, in small batches, while the run still parses and routes its
text on the other core: the vectors are the same (each text is embedded alone, or by a model
whose vectors do not depend on their batch), only found earlier.

Hand-written rather than a ``ThreadPoolExecutor`` or an ``asyncio`` batcher: the callers are
synchronous graph workers, and a waiter must be able to take the leader's place when the
leader's batch fails or a vector is evicted before it is read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from triqua.support.once import once

__all__ = ["CACHE_SIZE", "EXPECTED_SIZE", "SentenceVectors", "cosines", "sentence_vectors"]

CACHE_SIZE = 50_000
"""Vectors kept (least recently used dropped first): ~77 MB of float32 at 384 dimensions."""

EXPECTED_SIZE = 4_096
"""Announced texts kept for the next batch (oldest dropped first): bounds what a batch
embeds for announcements nobody asks for (facts later dropped, or judged by a model)."""

AHEAD_BATCH = 16
"""Texts per batch the background leader embeds: small, so a worker that needs a vector
now never waits long for a leader's slot."""

Vectors = npt.NDArray[np.float32]


class SentenceVectors:
    """A thread-safe, bounded text → vector cache filled by coalesced batches."""

    def __init__(
        self,
        embed: Callable[[list[str]], Vectors],
        dimension: int,
        size: int = CACHE_SIZE,
        leaders: int = 1,
        expected_size: int = EXPECTED_SIZE,
    ) -> None:
        """Cache the vectors ``embed`` makes (``dimension`` wide), at most ``size`` of them.

        ``leaders`` batches may be embedded at once (one per core keeps every core busy);
        at most ``expected_size`` announced texts wait for a batch.
        """
        if size < 1 or leaders < 1 or expected_size < 0:
            raise ValueError(
                f"size and leaders must be >= 1 and expected_size >= 0, "
                f"got {size}, {leaders} and {expected_size}"
            )
        self._leaders = leaders
        self._embed = embed
        self._dimension = dimension
        self._size = size
        self._vectors: OrderedDict[str, Vectors] = OrderedDict()
        self._queued: dict[str, None] = {}  # waiting for the next batch, in arrival order
        self._expected: dict[str, None] = {}  # announced: taken along by the next batch
        self._expected_size = expected_size
        self._running: set[str] = set()  # in the batch being embedded now
        self._leading = 0  # batches being embedded now
        self._ahead = False  # a background leader is embedding announced texts
        self._cond = threading.Condition()
        self.batches = 0
        self.embedded = 0

    def __len__(self) -> int:
        with self._cond:
            return len(self._vectors)

    def clear(self) -> None:
        """Forget every cached vector (benchmarks measure with cold caches)."""
        with self._cond:
            self._vectors.clear()
            self._expected.clear()
            self.batches = self.embedded = 0

    def expect(self, texts: Iterable[str], *, now: bool = False) -> None:
        """Announce texts that will soon be asked for; the next batch led embeds them along.

        Texts already cached are ignored. By default nothing is embedded for announcements
        alone: they ride with a batch someone needs. With ``now``, a background leader
        embeds them at once (in batches of :data:`AHEAD_BATCH`, within the leader slots),
        so the vectors are ready when asked for.
        """
        with self._cond:
            for text in texts:
                if text and text not in self._vectors:
                    self._expected[text] = None
            while len(self._expected) > self._expected_size:
                del self._expected[next(iter(self._expected))]
            if now and self._expected and not self._ahead:
                self._ahead = True
                self._ahead_next()

    def _ahead_next(self) -> None:
        """Queue the next background batch (called holding the lock).

        Each batch is a task of its own on one worker thread, so a process that exits waits
        for one small batch at most, never for every announced text.
        """
        try:
            _ahead_pool().submit(self._lead_ahead)
        except RuntimeError:  # the interpreter is shutting down: nothing more is embedded
            self._ahead = False

    def _lead_ahead(self) -> None:
        """Embed up to :data:`AHEAD_BATCH` announced texts as a leader, then queue the next.

        A batch that fails ends the background work: its texts stay unembedded, and whoever
        asks for them embeds them again (and sees the error).
        """
        with self._cond:
            try:
                while self._leading >= self._leaders:
                    self._cond.wait()
                batch: list[str] = []
                for text in list(self._expected):
                    del self._expected[text]
                    if text not in self._vectors and text not in self._running:
                        batch.append(text)
                        if len(batch) == AHEAD_BATCH:
                            break
                if batch:
                    self._embed_batch(batch)
            except Exception:  # the asker embeds them again and sees the error
                batch = []
            if batch:
                self._ahead_next()
            else:
                self._ahead = False

    def get(self, texts: Sequence[str]) -> Vectors:
        """Vectors of ``texts`` as an (n, dimension) array, embedding only the unseen ones.

        Raises:
            Exception: whatever the embedder raised for a batch this caller led.
        """
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        if not texts:
            return out
        wanted = list(dict.fromkeys(texts))
        with self._cond:
            while True:
                found = {t: self._vectors.get(t) for t in wanted}
                if all(v is not None for v in found.values()):
                    for text in wanted:
                        self._vectors.move_to_end(text)
                    break
                for text, vector in found.items():
                    # Queued unless someone will deliver it: a failed or evicted text is
                    # queued again, so no waiter can hang on it.
                    if vector is None and text not in self._running:
                        self._queued.setdefault(text)
                if self._queued and self._leading < self._leaders:
                    self._lead()
                else:
                    self._cond.wait()
        for i, text in enumerate(texts):
            out[i] = found[text]
        return out

    def _lead(self) -> None:
        """Embed everything queued in one batch (called holding the lock; released meanwhile).

        Announced texts not yet cached nor being embedded ride along, after the needed ones.
        """
        needed = self._queued.copy()
        self._queued.clear()
        batch = list(needed) + [
            t
            for t in self._expected
            if t not in needed and t not in self._vectors and t not in self._running
        ]
        self._expected.clear()
        self._embed_batch(batch)

    def _embed_batch(self, batch: list[str]) -> None:
        """Embed ``batch`` as one leader (called holding the lock; released meanwhile)."""
        self._running.update(batch)
        self._leading += 1
        vectors: Vectors | None = None
        try:
            self._cond.release()
            try:
                vectors = self._embed(batch)
            finally:
                self._cond.acquire()
        finally:
            self._leading -= 1
            self._running.difference_update(batch)
            if vectors is not None:
                for text, vector in zip(batch, vectors, strict=True):
                    vector.setflags(write=False)
                    self._vectors[text] = vector
                while len(self._vectors) > self._size:
                    self._vectors.popitem(last=False)
                self.batches += 1
                self.embedded += len(batch)
            self._cond.notify_all()


@once
def _ahead_pool() -> ThreadPoolExecutor:
    """The one thread that embeds announced texts ahead (joined, like any pool, at exit)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="triqua-embed-ahead")


@once
def sentence_vectors() -> SentenceVectors:
    """The process-wide sentence-vector cache over the shared MiniLM embedder."""
    from triqua.models.embeddings import DIMENSION, get_embedder
    from triqua.support.cores import available_cores

    embed = lambda texts: get_embedder().embed(texts)  # noqa: E731 (loads the model lazily)
    return SentenceVectors(embed, DIMENSION, leaders=available_cores())


def cosines(query: str, texts: Sequence[str]) -> list[float]:
    """Cosine similarity of ``query`` with each of ``texts`` (MiniLM, vectors cached by text).

    Args:
        query: The text compared with the others.
        texts: The texts compared with ``query``.

    Returns:
        One cosine per text, in order (the vectors are L2-normalised: a dot product).
    """
    vectors = sentence_vectors().get([query, *texts])
    return [float(v @ vectors[0]) for v in vectors[1:]]
