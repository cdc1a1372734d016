"""Help without a type beside on/off flags: typer prints ``--quiet <bool>`` by default."""

from __future__ import annotations

from typing import TYPE_CHECKING

from typer.core import TyperGroup

if TYPE_CHECKING:  # typer ships its own copy of click; its types are only annotations here
    from typer._click import Command, Context, Parameter


def _untype_flags(command: Command, ctx: Context) -> None:
    """Give every flag of ``command`` (its --help included) an empty metavar."""
    for param in [*command.params, command.get_help_option(ctx)]:
        # a flag's help shows its metavar, when set, in place of '<bool>'
        if param is not None and getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


class FlagsWithoutTypes(TyperGroup):
    """The ``triqua`` group: its commands' help shows flags without a '<bool>' type.

    Typer has no setting for it; the flags are changed as each command is looked up,
    which is when their help can be asked for.
    """

    def get_params(self, ctx: Context) -> list[Parameter]:
        """The group's parameters, flags untyped."""
        _untype_flags(self, ctx)
        return super().get_params(ctx)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """A command with its flags untyped; a command group gets this class too."""
        command = super().get_command(ctx, cmd_name)
        if command is None:
            return None
        if type(command) is TyperGroup:  # a sub-group ('triqua runs …'): same behaviour
            command.__class__ = FlagsWithoutTypes
        _untype_flags(command, ctx)
        return command
