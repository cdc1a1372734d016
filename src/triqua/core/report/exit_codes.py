"""The exit statuses of triqua's commands: what each says happened.

One enumeration for every command (``check``, ``verify``, ``batch``, ``regrade``), so a CI
script reads the same number the same way everywhere; the README's table of exit codes
lists exactly these (a test compares the two).
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExitCode"]


class ExitCode(IntEnum):
    """Exit status of a triqua command."""

    #: Everything asked was done, and every gate passed.
    OK = 0
    #: A ``--fail-under`` or ``--fail-on`` gate failed; for ``batch`` also: some lines could
    #: not be checked (bad input) or their check failed (a provider error).
    GATE_FAILED = 1
    #: A usage or input error, said in one ``error: …`` line; nothing was run or stored.
    USAGE = 2
    #: The work failed: errors left nothing checked (``check``, ``verify``, every line of a
    #: ``batch``), or a ``regrade`` could not judge a fact again (no revision is appended).
    FAILED_RUN = 3
    #: Interrupted (Ctrl-C); what finished is kept and a rerun goes on from there.
    INTERRUPTED = 130
