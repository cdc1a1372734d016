"""How the ``triqua`` group presents itself: flags without a type, usage errors in one line.

Typer prints ``--quiet <bool>`` for a flag and ``--top-k <int>`` for an option by default,
and a usage error as a box (or, with rich help off, as three lines of usage, hint and
error); the README promises one ``error:`` line that names the way to help. Typer has no
setting for these: the help leans on Typer 0.29's internals (an argument's
``display_type_rich``, an option's ``type_descriptor``), and
``tests/test_cli_help_hooks.py`` fails, naming the one that moved, if Typer changes them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, get_args

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:  # typer ships its own copy of click; its types are only annotations here
    from typer._click import Command, Context, Parameter


#: The value an option of each type is shown taking, where the option names none itself:
#: capitals, as its arguments and the options naming their own (``--md FILE``) are shown.
_METAVARS = {int: "N", float: "NUMBER", str: "TEXT", Path: "PATH"}
#: A text option whose name ends so takes that value (``--chroma-path PATH``).
_NAMED_TEXT = {"path": "PATH", "url": "URL", "model": "MODEL"}


def _show_values(command: Command, ctx: Context) -> None:
    """Give every flag of ``command`` (its --help included) an empty metavar, every option one.

    Typer shows an option's value as its type (``--top-k <int>``, ``--chroma-path <path>``)
    beside options naming theirs in capitals; an option naming none gets its type's capital
    name from :data:`_METAVARS` (``--top-k N``), or for text what its name ends with says
    (:data:`_NAMED_TEXT`: ``--chroma-path PATH``).
    """
    for param in [*command.params, command.get_help_option(ctx)]:
        if param is not None and param.param_type_name == "argument":
            # its name is its value (RUN, REPORT), shown without a type ('RUN <str>')
            setattr(param, "display_type_rich", _no_type)  # noqa: B010 - the instance's
            continue
        if param is None or param.metavar is not None or param.param_type_name != "option":
            continue
        if getattr(param, "is_flag", False):  # shown, when set, in place of '<bool>'
            param.metavar = ""
            continue
        annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
        element = (get_args(annotation) or (annotation,))[0]  # list[Path]: repeatable Path
        if element in _METAVARS:
            ending = (param.name or "").rsplit("_", 1)[-1]
            named = _NAMED_TEXT.get(ending) if element is str else None
            param.metavar = named or _METAVARS[element]


def _no_type(ctx: Context) -> None:
    """No type beside an argument's name in the help."""


#: The exit status click gives a usage error (bad option, bad value, missing argument).
_USAGE = 2


class FlagsWithoutTypes(TyperGroup):
    """The ``triqua`` group: flags shown without a '<bool>' type, usage errors in one line.

    Typer has no setting for either; the flags are changed as each command is looked up,
    which is when their help can be asked for, and a command's usage error is caught as
    the group invokes the command.
    """

    def invoke(self, ctx: Context) -> Any:
        """Run the command; a usage error becomes one ``error:`` line and exit status 2."""
        try:
            return super().invoke(ctx)
        except typer.TyperException as exc:
            _one_line(exc, ctx)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        """Read the group's own options; a bad one (``triqua --bogus``) is one line too."""
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as exc:
            _one_line(exc, ctx)

    def get_params(self, ctx: Context) -> list[Parameter]:
        """The group's parameters, flags untyped."""
        _show_values(self, ctx)
        return super().get_params(ctx)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """A command with its flags untyped; a command group gets this class too."""
        command = super().get_command(ctx, cmd_name)
        if command is None:
            return None
        if type(command) is TyperGroup:  # a sub-group ('triqua runs …'): same behaviour
            command.__class__ = FlagsWithoutTypes
        _show_values(command, ctx)
        return command


def _one_line(exc: typer.TyperException, ctx: Context) -> NoReturn:
    """Say a usage error as one ``error:`` line naming the help, and exit 2; else re-raise."""
    if (
        getattr(exc, "exit_code", None) != _USAGE
        or not hasattr(exc, "format_message")
        or type(exc).__name__ == "NoArgsIsHelpError"  # bare ``triqua``: the help is the answer
    ):
        raise exc
    where = getattr(getattr(exc, "ctx", None), "command_path", None) or ctx.command_path
    print(f"error: {exc.format_message()} (see '{where} --help')", file=sys.stderr)
    raise typer.Exit(_USAGE) from None
