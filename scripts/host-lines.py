"""Counts each host's code lines: not blank, not comments, not docstrings;
generated files (``*.gen.*``, ``*_gen.go``, ``*_gen.py``, ``_abi*``, the
embedded wasm, the self-test vectors) and tests left out. The hosts are transport (the design's budget:
a new host costs about a thousand lines), so this number is watched by
test/host-size.test.ts. Usage: python3 scripts/host-lines.py [--json] [dir...]
"""
import io
import json
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOSTS = {"typescript": "src", "python": "python/overturn", "go": "go"}
GENERATED = re.compile(r"(\.gen\.|^_abi|_gen\.(go|py)$|^_selftest_vectors\.py$|\.d\.ts$|_test\.go$)")


def python_lines(text: str) -> int:
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    skip = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT, tokenize.ENDMARKER}
    lines = set()
    for i, t in enumerate(toks):
        if t.type in skip:
            continue
        if t.type == tokenize.STRING:
            # A string that is a whole statement is a docstring (or a comment in disguise).
            j = i - 1
            while j >= 0 and toks[j].type in (tokenize.NL, tokenize.COMMENT):
                j -= 1
            starts = j < 0 or toks[j].type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
            if starts and toks[i + 1].type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                continue
        lines.update(range(t.start[0], t.end[0] + 1))
    return len(lines)


def c_like_lines(text: str) -> int:
    # Block comments first (kept as line breaks), then line comments at a line's start.
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return sum(1 for line in text.split("\n") if line.strip() and not line.strip().startswith("//"))


def count(host_dir: Path) -> dict:
    files = {}
    for p in sorted(host_dir.rglob("*")):
        if p.suffix not in (".py", ".ts", ".go") or GENERATED.search(p.name) or "tests" in p.parts or "testdata" in p.parts:
            continue
        text = p.read_text(encoding="utf-8")
        files[str(p.relative_to(ROOT))] = python_lines(text) if p.suffix == ".py" else c_like_lines(text)
    return {"total": sum(files.values()), "files": files}


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--json"]
    hosts = {name: ROOT / d for name, d in HOSTS.items()} if not args else {a: ROOT / a for a in args}
    out = {name: count(d) for name, d in hosts.items() if d.is_dir()}
    if "--json" in sys.argv:
        print(json.dumps(out, indent=1))
        return
    for name, c in out.items():
        for f, n in sorted(c["files"].items(), key=lambda kv: -kv[1]):
            print(f"{n:6}  {f}")
        print(f"{c['total']:6}  {name} in all\n")


if __name__ == "__main__":
    main()
