"""The Ray cluster of ``triqua batch --ray``: started here, or joined by address, or refused fast.

``--ray`` alone (``local``) starts a cluster on this machine with one CPU per core. An
address (``host:port``, ``auto``) joins a running cluster, and fails in one line within
:data:`JOIN_SECONDS` when nothing answers there: Ray itself keeps retrying an address that
refuses connections, so the address is first tried with a plain TCP connection. Two things
Ray needs to join a head started on this machine are set here, so no environment variable is
needed on the batch command:

- a loopback address (``127.0.0.1``, ``localhost``) is kept as it is: Ray otherwise replaces
  it by the machine's own address, where a head started with
  ``--node-ip-address=127.0.0.1`` does not answer;
- the cluster token (``~/.ray/auth_token``, ``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH``),
  when there is one and ``RAY_AUTH_MODE`` is unset: ``ray start --head`` turns token
  authentication on when a token exists, but Ray sends it only to a cluster found without
  an address.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["JOIN_SECONDS", "LOCAL", "import_ray", "ray_cluster"]

#: The ``--ray`` value that starts a Ray cluster on this machine for the batch.
LOCAL = "local"
#: Seconds a cluster address has to answer before the batch gives up.
JOIN_SECONDS = 10.0
_LOOPBACK_NAMES = ("localhost",)
#: The Ray module that says token authentication is on (a warning on every start).
_TOKEN_SETUP = "ray._private.authentication.authentication_token_setup"


def import_ray() -> ModuleType:
    """The ``ray`` module, or a one-line ``ValueError`` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--ray needs Ray, which is not installed: pip install 'triqua[ray]'"
        ) from None
    return ray


def _host_port(address: str) -> tuple[str, int] | None:
    """``address``'s host and port, or None for an address Ray resolves itself (``auto``)."""
    bare = address.removeprefix("ray://")
    host, sep, port = bare.rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


def _is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface."""
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _answers(address: str, host: str, port: int) -> None:
    """Raise a one-line ``ValueError`` unless something accepts connections at ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=JOIN_SECONDS):
            return
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        if isinstance(exc, TimeoutError | socket.timeout):
            why = f"no answer in {JOIN_SECONDS:g} s"
        raise ValueError(f"ray: nothing answers at {address} ({why})") from None


def _token_available() -> bool:
    """Whether a Ray cluster token is at hand (in the environment or the default file)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    return Path(path).is_file()


@contextmanager
def _quiet_token_notice() -> Iterator[None]:
    """Ray's notice that token authentication is on stays out of the batch's stderr."""
    said = logging.getLogger(_TOKEN_SETUP)
    level = said.level
    said.setLevel(logging.ERROR)
    try:
        yield
    finally:
        said.setLevel(level)


def _send_token() -> None:
    """Have Ray send the cluster token when joining (as it does for a cluster found by itself)."""
    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available,
        )
    except ImportError:  # another Ray version: the mode is read from the environment
        os.environ["RAY_AUTH_MODE"] = "token"
        return
    with _quiet_token_notice():
        maybe_enable_token_auth_if_token_available(warn_if_disabled=False)


@contextmanager
def _loopback_kept(ray: ModuleType) -> Iterator[None]:
    """Ray keeps a loopback address as given while joining (it is on this machine)."""
    try:
        constants = ray._private.ray_constants
        before = constants.ENABLE_RAY_CLUSTER
    except AttributeError:  # another Ray version: nothing to keep
        yield
        return
    constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = before


@contextmanager
def ray_cluster(address: str) -> Iterator[ModuleType]:
    """Ray connected for a block: ``local`` starts a cluster here, an address joins one.

    A Ray already initialised in this process (a host program's, a test session's) is used
    as it is and left running; a cluster this call joined or started is left on exit.

    Raises:
        ValueError: when Ray is not installed or the cluster cannot be joined (one line).
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,  # workers' own logs stay in Ray's session folder
        "logging_level": logging.WARNING,
    }
    joining = _host_port(address) if address != LOCAL else None
    loopback = joining is not None and _is_loopback(joining[0])
    if address == LOCAL:
        options["num_cpus"] = os.cpu_count() or 1
    else:
        options["address"] = address
        if joining is not None:
            _answers(address, *joining)
        if "RAY_AUTH_MODE" not in os.environ and _token_available():
            _send_token()
    try:
        with _quiet_token_notice(), _loopback_kept(ray) if loopback else nullcontext():
            ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"ray: cannot join the cluster at {address} ({reason})") from None
    try:
        yield ray
    finally:
        ray.shutdown()
