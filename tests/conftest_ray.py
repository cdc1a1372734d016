"""A local Ray cluster for the test session: started once, by the first test that asks.

Import the fixture explicitly (``from tests.conftest_ray import ray_session``). The cluster
is never skipped: when Ray is missing or does not start, the tests that need it fail with
the reason. Batches see the running cluster and use it (they never start their own then).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

_cluster: dict[str, Any] = {}


def _start() -> Any:
    try:
        import ray
    except ImportError:
        pytest.fail("Ray is not installed: pip install -e '.[dev]' installs it (triqua[ray])")
    try:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            object_store_memory=128 * 1024 * 1024,
            _node_ip_address="127.0.0.1",  # every connection on the loopback
        )
    except Exception as exc:
        pytest.fail(f"a local Ray cluster did not start: {type(exc).__name__}: {exc}")
    return ray


@pytest.fixture(scope="session")
def ray_session(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The ``ray`` module, connected to a local two-CPU cluster kept for the whole session."""
    if "ray" not in _cluster:
        ray = _start()
        _cluster["ray"] = ray
        request.session.config.add_cleanup(ray.shutdown)
    yield _cluster["ray"]
