#!/usr/bin/env python3
"""Checks that every citation of a documentation heading names a heading that exists.

Usage: doc-citations.py [ROOT]   (ROOT: the checkout, default the current directory)

Comments and documents cite the design notes, the README and the DocC articles in these forms
(a citation may wrap over comment lines; `//`, `///`, `#` and ` *` at a line's start are skipped):

  docs/design.md, "The frame pipeline"     a heading of docs/design.md, quoted
  docs/design.md, frame pipeline           the same, unquoted: up to the next , ; : ) or full stop
  docs/design.md, rules from the field, 7  a numbered rule of that section ("1." items)
  docs/design.md#the-frame-pipeline        a link to a heading (GitHub's anchor of it)
  README, "Quick start" / README "Quick start"   a heading of README.md, quoted
  README.md#quick-start, [text](#quick-start) in README.md   a link to one of README's headings
  article "Command line"                   the title of a DocC article (Sources/*/*.docc/*.md)

A heading matches case-insensitively, with runs of white space as one space, a leading "The"
optional on either side and a trailing parenthesis of the heading optional ("Content-sized
presentation (style ABI 1.2)" is cited as "Content-sized presentation"). Each citation that does not
resolve is printed as FILE:LINE: what is cited, and the script exits 1.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
SKIP_DIRS = {".build", ".git", ".swiftpm", "pictures"}
# This script and its test, whose examples cite headings that do not exist on purpose.
SELF = {"scripts/lib/doc-citations.py", "Tests/ModalKitDemoTests/DocCitationTests.swift"}
TEXT_SUFFIXES = (".swift", ".c", ".h", ".md", ".py", ".sh", ".txt", ".1", ".desktop")


def files():
    paths = []
    try:
        # The checkout's files, tracked or new, but not what git ignores (only when ROOT is the top
        # of its work tree: a directory inside another repository is walked instead).
        top = subprocess.run(["git", "-C", ROOT, "rev-parse", "--show-toplevel"], check=True,
                             capture_output=True, text=True).stdout.strip()
        if os.path.realpath(top) == os.path.realpath(ROOT):
            out = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard"], check=True,
                                 capture_output=True, text=True).stdout.split("\n")
            paths = [p for p in out if p]
    except (OSError, subprocess.CalledProcessError):
        pass
    if not paths:
        for top, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            paths += [os.path.relpath(os.path.join(top, n), ROOT) for n in names]
    for path in sorted(set(paths)):
        if any(part in SKIP_DIRS for part in path.split("/")) or path in SELF:
            continue
        full = os.path.join(ROOT, path)
        if not os.path.isfile(full):
            continue
        if path.endswith(TEXT_SUFFIXES) or path.startswith("scripts/") or os.path.basename(path) == "Package.swift":
            yield path


def normalise(text):
    text = re.sub(r"\s+", " ", text.strip().strip("`").strip()).lower()
    text = re.sub(r"^the ", "", text)
    return text.rstrip(" .")


def headings(path):
    """Markdown headings of a file outside code blocks: [(level, text, line)]."""
    result, fenced = [], False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced:
                m = re.match(r"(#{1,6}) +(.+?)\s*$", line)
                if m:
                    result.append((len(m.group(1)), m.group(2), number))
    return result


def forms(heading):
    """The normalised forms a heading may be cited by."""
    plain = re.sub(r"`", "", heading)
    result = {normalise(plain)}
    result.add(normalise(re.sub(r"\s*\([^)]*\)$", "", plain)))
    return result


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces to -."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def section_rules(path, heading_line):
    """The numbers of the `N.` items in the section starting at heading_line."""
    numbers = set()
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")[heading_line:]
    for line in lines:
        if line.startswith("## "):
            break
        m = re.match(r"(\d+)\. ", line)
        if m:
            numbers.add(int(m.group(1)))
    return numbers


def index(path):
    hs = headings(os.path.join(ROOT, path))
    names = {}
    for level, text, line in hs:
        for form in forms(text):
            names.setdefault(form, (text, line))
    return names, {anchor(text) for _, text, _ in hs}


design, design_anchors = index("docs/design.md")
readme, readme_anchors = index("README.md")
articles = {}
for top, dirs, names in os.walk(os.path.join(ROOT, "Sources")):
    dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
    if top.endswith(".docc"):
        for name in names:
            if name.endswith(".md"):
                for level, text, _ in headings(os.path.join(top, name))[:1]:
                    if level == 1 and not text.startswith("``"):
                        for form in forms(text):
                            articles[form] = text

# A comment's continuation: a newline, indentation and a comment marker, read as one space.
CONTINUATION = re.compile(r"\n[ \t]*(?:///?|#|\*(?!\*)|--)?[ \t]*")
QUOTED = r"\"([^\"]+)\""
PATTERNS = [
    ("design", re.compile(r"docs/design\.md,? " + QUOTED + r"(?:, (\d+)\b)?")),
    ("design", re.compile(r"docs/design\.md, (?![\"`])([^,;:()\".\]]+?)(?=[,;:().\]]|$| - )(?:, (\d+)\b)?", re.M)),
    ("design-anchor", re.compile(r"docs/design\.md#([\w-]+)")),
    ("readme", re.compile(r"\bREADME,? " + QUOTED)),
    ("readme-anchor", re.compile(r"README\.md#([\w-]+)")),
    ("article", re.compile(r"\barticle " + QUOTED)),
]

problems = []
for path in files():
    try:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            raw = f.read()
    except (UnicodeDecodeError, OSError):
        continue
    if "docs/design.md" not in raw and "README" not in raw and "article \"" not in raw and path != "README.md":
        continue
    # Joined text and, for each of its characters, the line it came from.
    joined, lines, line = [], [], 1
    position = 0
    for m in CONTINUATION.finditer(raw):
        chunk = raw[position:m.start()]
        joined.append(chunk); lines += [line] * len(chunk)
        joined.append(" "); lines.append(line)
        line += 1
        position = m.end()
    chunk = raw[position:]
    joined.append(chunk); lines += [line] * len(chunk)
    text = "".join(joined)

    def report(offset, message):
        problems.append(f"{path}:{lines[min(offset, len(lines) - 1)]}: {message}")

    if path == "README.md":
        for m in re.finditer(r"\]\(#([\w-]+)\)", text):
            if m.group(1) not in readme_anchors:
                report(m.start(), f"link to #{m.group(1)}: README.md has no such heading")
    for kind, pattern in PATTERNS:
        for m in pattern.finditer(text):
            cited = m.group(1)
            if kind == "design":
                found = design.get(normalise(cited))
                if found is None:
                    report(m.start(), f"cites docs/design.md, \"{cited.strip()}\": no such heading")
                elif m.group(2):
                    rules = section_rules(os.path.join(ROOT, "docs/design.md"), found[1])
                    if int(m.group(2)) not in rules:
                        report(m.start(), f"cites docs/design.md, \"{found[0]}\", rule {m.group(2)}: no such rule")
            elif kind == "design-anchor" and cited not in design_anchors:
                report(m.start(), f"links docs/design.md#{cited}: no such heading")
            elif kind == "readme" and normalise(cited) not in readme:
                report(m.start(), f"cites README \"{cited}\": no such heading")
            elif kind == "readme-anchor" and cited not in readme_anchors:
                report(m.start(), f"links README.md#{cited}: no such heading")
            elif kind == "article" and normalise(cited) not in articles:
                report(m.start(), f"cites the article \"{cited}\": no DocC article has that title")

for problem in problems:
    print(problem)
if problems:
    print(f"doc-citations: {len(problems)} citation(s) of headings that do not exist", file=sys.stderr)
    sys.exit(1)
