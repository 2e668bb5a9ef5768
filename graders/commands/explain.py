"""`grade explain [ID]`: every key of assignment.toml, or a pack's criteria and rules with the
handout sentence each one enforces."""

from __future__ import annotations

import click

from graders import console
from graders.causes import words
from graders.checks import title_of
from graders.commands import register
from graders.declaration import describe_keys
from graders.pack import Pack, get_pack
from graders.pack_specs import EntrySpec


@register
@click.command("explain")
@click.argument("assignment", required=False)
def command(assignment: str | None) -> None:
    """Document every key of assignment.toml, or, with an ASSIGNMENT id, list its criteria
    and rules with the handout sentence each one enforces."""
    lines = describe_pack(get_pack(assignment)) if assignment else describe_keys()
    for line in lines:
        console.out.print(line, markup=False, soft_wrap=True)


def describe_pack(pack: Pack) -> list[str]:
    """The pack's criteria (id, points, title), rules (name, deduction), [entries] and
    [environment], each with the handout sentence it enforces."""
    declaration = pack.declaration
    lines = [f"{pack.id}: {pack.title} ({declaration.max_points:g} points)", "criteria:"]
    for criterion in declaration.criteria:
        lines += [
            f"  {criterion.id} ({criterion.points:g} points): {criterion.title}",
            f"      handout: {_handout(criterion)}",
        ]
        if criterion.causes:
            lines.append("      charged once each: " + "; ".join(
                f"{_cause_name(kind)} -{weight:g}" for kind, weight in criterion.causes.items()))
    lines.append("rules:")
    for rule in declaration.rules:
        lines += [
            f"  {rule.name} (-{rule.deduction:g} points): {title_of(rule.name)}",
            f"      handout: {_handout(rule)}",
        ]
    lines += _entries(declaration.entries)
    environment = declaration.environment
    if environment.requirements:
        lines += [f"environment (student code may import; `grade setup {pack.id}` builds it):",
                  *(f"  course: {line}" for line in environment.course),
                  *(f"  package: {line}" for line in environment.packages),
                  f"      handout: {_handout(environment)}"]
    return lines


def _entries(entries: dict[str, EntrySpec]) -> list[str]:
    """The ``[entries]`` the pack's driver asks for, each with its ways in order."""
    if not entries:
        return []
    lines = ["entries (what the driver asks for, and the ways to reach it, in order):"]
    for name, entry in entries.items():
        lines.append(f"  {name}: {entry.what}")
        for way in entry.ways:
            how, *options = way.model_dump(exclude_defaults=True).items()
            shown = ", ".join(key if value is True else f"{key} {value}" for key, value in options)
            lines.append(f"      {how[0]}: {how[1]}" + (f" ({shown})" if shown else ""))
        if entry.handout:
            lines.append(f"      handout: {_handout(entry)}")
    return lines


def _cause_name(kind: str) -> str:
    """An engine kind with its words (``graders/causes.toml``); a pack's own kind as it is."""
    said = words(kind)
    return kind if said == kind else f"{said} ({kind})"


def _handout(spec: object) -> str:
    text = " ".join(str(getattr(spec, "handout", "") or "").split())
    return text or "(no handout sentence declared)"
