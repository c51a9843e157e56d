"""Each fix of ``--fixes`` says on its page which rule lets it fire (issue 34), so the table and the pages cannot drift.

A fix changes a program only on its failure (held back: ``Fix.failure``), where its pattern is the bug,
or where it was measured not to slow the program down. Its page, docs/passes/<name>.md, has exactly one
section ``## When `--fixes` runs it`` naming one of those rules in bold and the ``ops`` guard (where none
of its ops is in the module it is not run at all). A held-back fix's section says "held back" and names
the failure rule; no other fix's section says "held back". Passes outside the table have no such section.
"""

import re
from pathlib import Path

import pytest
from opt_py.iree import fixes

ROOT = Path(__file__).resolve().parents[2]
PASSES = ROOT / "docs" / "passes"
HEADING = "## When `--fixes` runs it"
ON_FAILURE, PATTERN, MEASURED = "**on its failure**", "**where its pattern is the bug**", "**measured**"


def sections(text: str) -> list[str]:
    """The bodies of the page's ``HEADING`` sections (each up to the next heading), code blocks left out."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    parts = re.split(r"^(#{1,6} .*)$", text, flags=re.M)  # [before, heading, body, heading, body, ...]
    return [parts[i + 1].strip() for i in range(1, len(parts), 2) if parts[i].strip() == HEADING]


@pytest.mark.parametrize("fix", fixes.FIXES, ids=lambda f: f.name)
def test_fix_page_says_when_fixes_runs_it(fix):
    page = PASSES / f"{fix.name}.md"
    assert page.is_file(), f"{fix.name} is in fixes.FIXES but has no page {page.relative_to(ROOT)}"
    found = sections(page.read_text())
    assert len(found) == 1, f"{page.relative_to(ROOT)}: {len(found)} '{HEADING}' sections, not 1"
    body = found[0]
    lines = [line for line in body.splitlines() if line.strip()]
    assert 3 <= len(lines) <= 8, f"{page.relative_to(ROOT)}: the section has {len(lines)} lines, not 3-8"
    body = " ".join(body.split())  # phrases may be wrapped across lines
    rules = [r for r in (ON_FAILURE, PATTERN, MEASURED) if r in body]
    assert len(rules) == 1, f"{page.relative_to(ROOT)}: the section names {rules or 'no rule'}, not one rule"
    held = bool(fix.failure)
    assert ("held back" in body.lower()) == held, (
        f"{page.relative_to(ROOT)}: fixes.py {'holds it back' if held else 'runs it in the first compile'}, "
        f"the section {'does not say' if held else 'says'} 'held back'"
    )
    assert (rules[0] == ON_FAILURE) == held, f"{page.relative_to(ROOT)}: rule {rules[0]}, held back: {held}"
    assert "not run at all" in body, f"{page.relative_to(ROOT)}: the section does not say what its ops guard skips"


def test_only_the_fixes_pages_have_the_section():
    """A registered pass outside ``--fixes`` does not claim a rule."""
    names = {f.name for f in fixes.FIXES}
    extra = sorted(p.name for p in PASSES.glob("*.md") if p.stem not in names and sections(p.read_text()))
    assert not extra, f"pages of passes outside fixes.FIXES with a '{HEADING}' section: {extra}"


def test_sections_finds_what_it_should():
    """The reader itself: no section, one, a heading in a code block (not one), the body ending at the next heading."""
    assert sections("# p\n\ntext\n") == []
    one = f"# p\n\n```sh\n{HEADING}\n```\n\n{HEADING}\n\nRule: a.\n\n## Next\n\nb\n"
    assert sections(one) == ["Rule: a."]
    assert len(sections(one + f"\n{HEADING}\n\nc\n")) == 2
