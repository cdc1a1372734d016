"""The offline verifier's sentence-vector cache: each text embedded once, waves batched."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from triqua.models.vectors import SentenceVectors, sentence_vectors


class CountingEmbedder:
    """A deterministic fake embedder that records every batch it was asked for."""

    def __init__(self, gate: threading.Event | None = None, fail: int = 0) -> None:
        self.batches: list[list[str]] = []
        self.gate = gate
        self.fail = fail
        self.lock = threading.Lock()

    def __call__(self, texts: list[str]) -> np.ndarray:
        with self.lock:
            self.batches.append(list(texts))
            failing = self.fail > 0
            self.fail -= 1
        if self.gate is not None:
            self.gate.wait(5)
        if failing:
            raise RuntimeError("embedder down")
        return np.array([[len(t), ord(t[0]), 1.0] for t in texts], dtype=np.float32)


def test_vectors_come_back_in_input_order_and_each_text_is_embedded_once() -> None:
    fake = CountingEmbedder()
    cache = SentenceVectors(fake, dimension=3)
    first = cache.get(["bb", "a", "bb"])
    assert first.tolist() == [[2, 98, 1], [1, 97, 1], [2, 98, 1]]
    again = cache.get(["a", "ccc"])
    assert again.tolist() == [[1, 97, 1], [3, 99, 1]]
    assert fake.batches == [["bb", "a"], ["ccc"]]
    assert cache.get([]).shape == (0, 3)
    assert len(cache) == 3


def test_least_recently_used_vectors_are_dropped_beyond_the_size() -> None:
    fake = CountingEmbedder()
    cache = SentenceVectors(fake, dimension=3, size=2)
    cache.get(["a", "b"])
    cache.get(["a"])  # "b" is now the least recently used
    cache.get(["c"])
    assert len(cache) == 2
    cache.get(["a", "c"])
    cache.get(["b"])
    assert fake.batches == [["a", "b"], ["c"], ["b"]]


def test_waiting_callers_are_answered_by_one_batch_and_never_embed_a_text_twice() -> None:
    gate = threading.Event()
    fake = CountingEmbedder(gate)
    cache = SentenceVectors(fake, dimension=3)
    results: dict[str, np.ndarray] = {}
    leader = threading.Thread(target=lambda: results.update(lead=cache.get(["x", "y"])))
    leader.start()
    while not fake.batches:  # the leader is inside its batch
        threading.Event().wait(0.001)
    followers = [
        threading.Thread(target=lambda n=n, t=texts: results.update({n: cache.get(t)}))
        for n, texts in (("f1", ["y", "z"]), ("f2", ["z", "w"]), ("f3", ["x"]))
    ]
    for thread in followers:
        thread.start()
    for _ in range(5000):  # the followers queue "z" and "w" behind the running batch
        if len(cache._queued) == 2:
            break
        threading.Event().wait(0.001)
    gate.set()
    for thread in [leader, *followers]:
        thread.join(5)
    # "y" and "x" were being embedded: nobody embeds them again; "z" and "w" go in one batch.
    assert fake.batches == [["x", "y"], ["z", "w"]]
    assert results["f1"].tolist() == [[1, 121, 1], [1, 122, 1]]
    assert results["f3"].tolist() == [[1, 120, 1]]


def test_a_failed_batch_raises_for_its_leader_and_waiters_retry() -> None:
    fake = CountingEmbedder(fail=1)
    cache = SentenceVectors(fake, dimension=3)
    with pytest.raises(RuntimeError, match="embedder down"):
        cache.get(["a"])
    assert cache.get(["a"]).tolist() == [[1, 97, 1]]
    assert fake.batches == [["a"], ["a"]]


def test_the_shared_cache_matches_the_embedder_and_can_be_cleared() -> None:
    from triqua.models.embeddings import get_embedder

    texts = ["The harbour opened in 1902.", "It closed in 1990."]
    cache = sentence_vectors()
    cache.clear()
    vectors = cache.get(texts)
    assert np.abs(vectors - get_embedder().embed(texts)).max() < 1e-5
    assert not vectors.flags.writeable or vectors is not cache.get(texts)
    cache.clear()
    assert len(cache) == 0


def test_with_a_slot_per_core_two_callers_embed_side_by_side() -> None:
    gate = threading.Event()
    fake = CountingEmbedder(gate)
    cache = SentenceVectors(fake, dimension=3, leaders=2)
    threads = [threading.Thread(target=cache.get, args=([text],)) for text in ("a", "b")]
    for thread in threads:
        thread.start()
    for _ in range(5000):  # both are inside the embedder at once
        if len(fake.batches) == 2:
            break
        threading.Event().wait(0.001)
    assert sorted(map(tuple, fake.batches)) == [("a",), ("b",)]
    gate.set()
    for thread in threads:
        thread.join(5)
    assert len(cache) == 2
    with pytest.raises(ValueError, match="leaders"):
        SentenceVectors(fake, dimension=3, leaders=0)


def test_announced_texts_ride_with_the_next_batch_and_alone_embed_nothing() -> None:
    fake = CountingEmbedder()
    cache = SentenceVectors(fake, dimension=3, expected_size=3)
    cache.get(["a"])
    cache.expect(["q1", "a", "q2", "x"])  # "a" is cached already: not announced again
    assert fake.batches == [["a"]]  # announcing embeds nothing
    assert cache.get(["x", "b"]).tolist() == [[1, 120, 1], [1, 98, 1]]
    # The needed texts come first, then the announced ones not already in the batch.
    assert fake.batches == [["a"], ["x", "b", "q1", "q2"]]
    assert cache.get(["q2", "q1"]).tolist() == [[2, 113, 1], [2, 113, 1]]
    assert len(fake.batches) == 2  # answered from the cache
    cache.expect(["r1", "r2", "r3", "r4"])  # beyond expected_size: the oldest is dropped
    cache.get(["c"])
    assert fake.batches[-1] == ["c", "r2", "r3", "r4"]
    cache.expect(["s"])
    cache.clear()  # clearing forgets announcements too
    cache.get(["d"])
    assert fake.batches[-1] == ["d"]
    with pytest.raises(ValueError, match="expected_size"):
        SentenceVectors(fake, dimension=3, expected_size=-1)


def _settled(cache: SentenceVectors) -> None:
    """Wait until the background leader has embedded every announced text."""
    for _ in range(500):
        with cache._cond:
            if not cache._ahead and not cache._leading:
                return
        threading.Event().wait(0.01)
    raise AssertionError("the background leader did not finish")


def test_texts_announced_now_are_embedded_in_the_background_in_small_batches() -> None:
    fake = CountingEmbedder()
    cache = SentenceVectors(fake, dimension=3)
    texts = [f"q{i}" for i in range(40)]
    cache.expect(texts, now=True)
    _settled(cache)
    # Embedded without anyone asking, in batches of AHEAD_BATCH, each text once.
    assert [len(b) for b in fake.batches] == [16, 16, 8]
    assert sorted(t for b in fake.batches for t in b) == sorted(texts)
    asked = cache.get(texts[::-1])
    assert len(fake.batches) == 3  # answered from the cache
    # The vectors are the ones an embedding on request gives.
    fresh = SentenceVectors(CountingEmbedder(), dimension=3)
    assert asked.tolist() == fresh.get(texts[::-1]).tolist()


def test_a_failed_background_batch_is_embedded_again_by_whoever_asks() -> None:
    fake = CountingEmbedder(fail=1)
    cache = SentenceVectors(fake, dimension=3)
    cache.expect(["a", "b"], now=True)
    _settled(cache)
    assert fake.batches == [["a", "b"]] and len(cache) == 0
    assert cache.get(["b"]).tolist() == [[1, 98, 1]]
    assert fake.batches[-1] == ["b"]


def test_a_process_exits_after_one_background_batch_not_every_announced_text() -> None:
    """At exit the background leader finishes its batch and stops: nothing hangs or crashes."""
    import os
    import subprocess
    import sys

    code = (
        "import atexit, time\n"
        "import numpy as np\n"
        "from triqua.models.vectors import SentenceVectors\n"
        "def slow(texts):\n"
        "    time.sleep(0.05)\n"
        "    return np.ones((len(texts), 3), dtype=np.float32)\n"
        "cache = SentenceVectors(slow, dimension=3)\n"
        "atexit.register(lambda: print('embedded', cache.embedded))\n"
        "cache.expect([f't{i}' for i in range(1000)], now=True)\n"
        "time.sleep(0.1)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    embedded = int(done.stdout.split()[-1])
    assert 0 < embedded <= 1000 // 4  # a few batches of 16, not all 1,000 texts
