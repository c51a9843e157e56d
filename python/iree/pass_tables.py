"""The tables written from what each of opt-py's own passes declares (``python tools/write_pass_tables.py``).

A pass's declaration (``python/passes/<module>.py``: its name, summary and,
for a fix, its ``fix``) is the one home of what it is. From them this writes
``iree/fixes_table.py`` (``FIXES``, the table ``--fixes`` and ``--list-fixes``
read without importing a pass), the README's pass table and
docs/reference/fixes.md's table; ``stale()`` names those that differ from
what it would write (test/unit/test_registry.py).

Fixes sharing a point run in the table's order, so the table keeps the order
it has: a fix new to it comes last among the fixes of its phase. Where the
order matters a fix says so (``Fix.after``: the fix it must run after at its
point), and is moved behind that one if it is not.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ..authoring import Fix
from ..authoring.fix import TARGETS
from ..pipeline import registry
from .phases import CODEGEN_PHASE, PHASES

COMMAND = "python tools/write_pass_tables.py"
ROOT = Path(__file__).resolve().parents[2]
TABLE = "python/iree/fixes_table.py"
README = "README.md"
FIXES_MD = "docs/reference/fixes.md"
BEGIN = f"<!-- written by {COMMAND} from each pass's declaration in python/passes/: edit those -->"
END = "<!-- end of the written table -->"
DEFAULT = Fix("", ops=())


def declared() -> dict[str, type]:
    """Every one of opt-py's own passes, by name (each module imported)."""
    return {name: registry.builtin_pass(name) for name in registry.BUILTIN_PASSES}


def gathered(passes: dict[str, type], previous: list[str]) -> tuple[Fix, ...]:
    """The passes' fixes, named, in the order of ``previous`` (the table as it is): a new one last among
    the fixes of its phase, one that must run after another (``after``) moved behind that one."""
    fixes = {name: dataclasses.replace(cls.fix, name=name) for name, cls in passes.items() if cls.fix is not None}
    for f in fixes.values():
        _check(f, fixes)
    order = [name for name in dict.fromkeys(previous) if name in fixes]
    for name in sorted(set(fixes) - set(order)):
        ranked = [i for i, n in enumerate(order) if _rank(fixes[n]) <= _rank(fixes[name])]
        order.insert(ranked[-1] + 1 if ranked else 0, name)
    for _ in range(len(order) + 1):
        late = [n for n in order if fixes[n].after and order.index(fixes[n].after) > order.index(n)]
        if not late:
            return tuple(fixes[name] for name in order)
        order.remove(late[0])
        order.insert(order.index(fixes[late[0]].after) + 1, late[0])
    raise ValueError(f"fixes that must run after one another in a circle: {', '.join(late)}")


def _check(f: Fix, fixes: dict[str, Fix]) -> None:
    """A fix declares a point to run at, ops, known targets, and runs after a fix at its point."""
    where = f"pass '{f.name}' declares a fix"
    if not (f.phase in PHASES[:-1] or (f.phase is None and bool(f.codegen) != bool(f.frontend))):
        raise ValueError(
            f"{where} at phase {f.phase!r}: expected one of {', '.join(PHASES[:-1])} (or a codegen or frontend point)"
        )
    if not f.ops or not f.fixes:
        raise ValueError(f"{where} without the ops it works on or the line that says what it fixes")
    if set(f.targets) - set(TARGETS) or set(f.codegen) - set(TARGETS) or set(f.options) - set(TARGETS):
        raise ValueError(f"{where} for target kinds other than {', '.join(TARGETS)}")
    other = fixes.get(f.after) if f.after else f
    if other is None or (other.phase, other.codegen, other.frontend) != (f.phase, f.codegen, f.frontend):
        raise ValueError(f"{where} running after '{f.after}', which is not a fix at its point")


def _rank(f: Fix) -> int:
    """Where a fix runs among the phases (a codegen point: with the phase after which codegen runs; a
    frontend point: with the input phase, which runs the frontend)."""
    return PHASES.index(f.phase or ("input" if f.frontend else CODEGEN_PHASE))


def table_order(text: str) -> list[str]:
    """The fixes' names in the table's text, in order (also where a merge left conflict markers in it)."""
    return re.findall(r'^ {8}name="([\w.-]+)",$', text, flags=re.M)


def table_text(fixes: tuple[Fix, ...]) -> str:
    """``iree/fixes_table.py``: each fix's name first, then the fields its declaration gives."""
    rows = [
        f'"""The fixes ``--fixes`` runs, in their order. Written by ``{COMMAND}`` from each pass\'s',
        "``fix`` in python/passes/: edit those, not this. Writing it keeps the order it has (a new fix comes",
        'last at its phase; see iree/pass_tables.py)."""',
        "",
        "from ..authoring import Fix",
        "",
        "FIXES: tuple[Fix, ...] = (",
    ]
    for f in fixes:
        rows += ["    Fix(", f"        name={_literal(f.name)},"]
        for field in dataclasses.fields(Fix):
            value = getattr(f, field.name)
            if field.name != "name" and (field.name in ("fixes", "ops") or value != getattr(DEFAULT, field.name)):
                rows.append(f"        {field.name}={_literal(value)},")
        rows.append("    ),")
    return "\n".join([*rows, ")"]) + "\n"


def _literal(value) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        items = ", ".join(_literal(v) for v in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def readme_table(fixes: tuple[Fix, ...], passes: dict[str, type]) -> str:
    """The README's pass table: the passes by where ``--fixes`` runs them, each linked to its page."""
    rows = ["| where `--fixes` runs them | passes |", "| --- | --- |"]
    points: dict[str, list[str]] = {}
    for f in fixes:
        kinds = f" ({', '.join(f.codegen)})" if f.codegen and not f.phase else ""
        points.setdefault(_where(f) + kinds, []).append(f.name)
    points["not in `--fixes` (run by name)"] = [n for n in sorted(passes) if passes[n].fix is None]
    for point, names in points.items():
        rows.append(f"| {point} | {', '.join(f'[`{n}`](docs/passes/{n}.md)' for n in names)} |")
    return "\n".join(rows)


def fixes_md_table(fixes: tuple[Fix, ...]) -> str:
    """docs/reference/fixes.md's table: each fix, where and for which targets it runs, what it fixes."""
    rows = ["| fix | where | targets | fixes |", "| --- | --- | --- | --- |"]
    for f in fixes:
        where = _where(f) + (f", after `{f.after}`" if f.after else "") + ("; held back" if f.failure else "")
        rows.append(f"| [`{f.name}`](../passes/{f.name}.md) | {where} | {_targets(f)} | {_markdown(f.fixes)} |")
    return "\n".join(rows)


def _where(f: Fix) -> str:
    """The phase, or the codegen point(s), a fix runs at."""
    if f.phase:
        return f"`{f.phase}`"
    if f.frontend:
        side, _, at = f.frontend.partition(":")
        return f"frontend, {side} `{at}`"
    return "; ".join(
        f"codegen, {side} `{at}`" for side, at in (p.split(":", 1) for p in dict.fromkeys(f.codegen.values()))
    )


def _targets(f: Fix) -> str:
    if f.codegen and not f.phase:
        return ", ".join(f.codegen)
    plain = "all" if f.targets == DEFAULT.targets else ", ".join(k for k in f.targets if k not in f.options)
    spelled = dict.fromkeys(f.options.values())
    options = [f"{', '.join(k for k, o in f.options.items() if o == s)} as `{s}`" for s in spelled]
    return "; ".join([plain, *options] if plain else options)


def _markdown(text: str) -> str:
    """``text`` as Markdown shows it: its markup characters escaped (an underscore only where it could
    start or end emphasis, not inside a word such as bitwise_and)."""
    return re.sub(r"[\\`*|<]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", lambda m: "\\" + m.group(0), text)


def written() -> dict[str, str]:
    """Each file this writes, as it would write it: path (from the repository's root) -> text."""
    passes = declared()
    table = ROOT / TABLE
    fixes = gathered(passes, table_order(table.read_text()) if table.exists() else [])
    return {
        TABLE: table_text(fixes),
        README: _replaced(README, readme_table(fixes, passes)),
        FIXES_MD: _replaced(FIXES_MD, fixes_md_table(fixes)),
    }


def _replaced(path: str, table: str) -> str:
    text = (ROOT / path).read_text()
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise ValueError(f"{path} has no table to write: its lines '{BEGIN}' and '{END}' mark where it goes")
    head, rest = text.split(BEGIN, 1)
    return f"{head}{BEGIN}\n{table}\n{END}{rest.split(END, 1)[1]}"


def stale() -> list[str]:
    """The written files that differ from what ``COMMAND`` would write."""
    return [path for path, text in written().items() if (ROOT / path).read_text() != text]


def write() -> list[str]:
    """Write the tables; the files that changed."""
    changed = []
    for path, text in written().items():
        if (ROOT / path).read_text() != text:
            (ROOT / path).write_text(text)
            changed.append(path)
    return changed
