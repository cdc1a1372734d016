"""The Typer internals ``cli/_help.py`` leans on are still there and still shape the help.

Typer has no setting for an argument's type in the help (it prints ``PATH <list[Path]>``
beside the name, metavar or not) nor for the value an option takes when none is named
(``--top-k <int>``). ``_help.py`` sets each instance's ``display_type_rich`` and reads the
option's ``type_descriptor`` (Typer 0.29's own type model). Should Typer rename or drop
either, the help would fall back to its own style without an error: these tests say so
loudly, naming the hook, and check the help they shape on the commands with repeatable
arguments and options.
"""

from __future__ import annotations

import re

import typer
from typer.core import TyperArgument, TyperOption
from typer.testing import CliRunner

from triqua.cli import app

runner = CliRunner()
CHANGED = "Typer changed an internal that src/triqua/cli/_help.py hooks into: "


def _help(*command: str) -> str:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    return result.stdout


def _section(text: str, title: str) -> str:
    return text.split(f"\n{title}:")[-1].split("\n\n")[0]


def test_typer_still_has_the_methods_the_help_replaces_and_reads() -> None:
    # An argument's type is shown by this method, which the help replaces on each instance.
    assert callable(getattr(TyperArgument, "display_type_rich", None)), CHANGED + (
        "TyperArgument.display_type_rich is gone"
    )
    assert "display_type_rich" in TyperArgument.get_help_record.__code__.co_names, CHANGED + (
        "TyperArgument.get_help_record no longer asks display_type_rich for the type"
    )
    # An option shows its metavar, when it has one, in place of its type.
    assert callable(getattr(TyperOption, "display_type_rich", None)), CHANGED + (
        "TyperOption.display_type_rich is gone"
    )
    group = typer.main.get_command(app)
    check = group.commands["check"]  # type: ignore[attr-defined]
    top_k = next(p for p in check.params if p.name == "top_k")
    annotation = getattr(getattr(top_k, "type_descriptor", None), "annotation", None)
    assert annotation is int, CHANGED + "an option's type_descriptor.annotation is gone"


def test_a_repeatable_argument_reads_as_its_name_in_capitals() -> None:
    for command, name in ((("ingest",), "PATH"), (("runs", "delete"), "RUN")):
        text = _help(*command)
        usage = text.splitlines()[0]
        assert usage.endswith(f"[OPTIONS] {{{name}}}..."), (command, usage)
        arguments = _section(text, "Arguments")
        assert re.match(rf"\s+{name}\s{{2,}}\S", arguments.splitlines()[1]), arguments
        assert "<" not in arguments and "list[" not in arguments, CHANGED + arguments


def test_options_show_one_value_in_capitals_not_typers_type() -> None:
    options = _section(_help("check"), "Options")
    for shown in ("-e, --evidence PATH", "--top-k N", "--chroma-url URL", "--collection TEXT"):
        assert shown in options, CHANGED + shown
    assert not re.search(r"<\w", options), CHANGED + options
    assert re.search(r"--quiet\s{2,}", options) or "--quiet" not in options
