"""``python -m overturn.fingerprint`` — fingerprints, explanations and replay checks for recordings.

Internal module (the entry is ``__main__.py``). The twin of the TypeScript
CLI ``overturn-fingerprint`` (``src/cli.ts``): same commands, flags, output
bytes and exit statuses for the same input, so keep the two in step.

A recording is JSON Lines, one call a line: ``{"name", "args" | "argsJSON",
"kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}``; other members are
ignored, null means absent. Files stream: read in 64 KiB chunks and split on
``\\n`` by hand (a trailing ``\\r`` is dropped), so memory stays constant
whatever the file size, and output is flushed after every chunk, so a pipe
sees results while its input is still being written. Lines are decoded as
strict UTF-8 (a bad byte is a reported error); a UTF-8 BOM at the start of a
file is skipped; blank lines are skipped. A bad line is reported with its
number and reason and the run goes on; the exit status is 1 when anything
failed, 2 for a usage error.

Lines are read with ``json.loads`` (as the TypeScript CLI uses
``JSON.parse``), with two adjustments so both read the same lines alike:
bare ``NaN``/``Infinity`` tokens are refused, and integer literals longer
than Python's int-conversion limit become the nearest double (±inf), as in
JavaScript. Why a line is not JSON is always told by the core, in the same
words in both languages.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import FINGERPRINT_VERSION, canonicalize_json, fingerprint, fingerprint_json
from ._diagnostics import Diff, Explanation, diff, explain, explain_json, js_dumps
from ._errors import FingerprintError

PROG = "python -m overturn.fingerprint"
CHUNK = 64 * 1024

# --- help ----------------------------------------------------------------------

HELP: Dict[str, str] = {
    "main": """usage: {p} [--json] FILE...            one fingerprint per call: "<sha256 hex>  <name>"
       {p} explain [--json] FILE...    the selection and canonical text of each call
       {p} verify [--json] FILE...     recompute every stored "fingerprint", report the ones that differ
       {p} why [--json] CALL.json --in FILE...
                                           the recorded call nearest to CALL, and what differs
       {p} COMMAND --help              help for one command

FILE is a recording in JSON Lines, one call a line:
  {{"name": ..., "args": <value> | "argsJSON": "<JSON text>", "kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}}
Use - for standard input. Bad lines are reported (FILE:LINE: reason) and skipped;
the exit status is 1 if any failed, 2 for a usage error. --json writes JSON Lines.
Fingerprint contract v{v}.""",
    "explain": """usage: {p} explain [--json] FILE...

For each call: its fingerprint, kind, what matchOn/ignoreArgs kept and dropped
(top-level keys), and the canonical JSON text that is hashed.
--json: one object per call: {{"file", "line", "version", "kind", "name",
"selected": {{"kept", "dropped", "missing"}}, "canonical", "preimage", "fingerprint"}}.""",
    "verify": """usage: {p} verify [--json] FILE...

Recomputes the fingerprint of every line that stores one ("fingerprint") and
reports the lines whose stored value no longer matches, then a summary.
Exit status 1 if any differ or failed. Run it after upgrading the SDK.
--json: one object per differing line, {{"file", "line", "name", "recorded",
"fingerprint", "canonical"}}, then {{"summary": {{"match", "differ", "unrecorded", "failed"}}}}.""",
    "why": """usage: {p} why [--json] CALL.json --in FILE [--in FILE...]

Answers "why was this call unseen?": CALL.json holds one call (same shape as a
recording line). Among the recorded calls with the same kind and name, shows
the one with the fewest differences and each difference that changes the
fingerprint (path, before, after). Whitespace, nulls, key order and number
spelling are never differences: the comparison runs on canonical texts.
--json: one object {{"call", "seen", "candidates", "nearest": null |
{{"file", "line", "explanation", "diff": {{"same", "changes"}}}}}}.""",
}


def _help(topic: str) -> str:
    return HELP[topic].format(p=PROG, v=FINGERPRINT_VERSION)


# --- arguments -----------------------------------------------------------------

class UsageError(Exception):
    pass


class Args:
    def __init__(self) -> None:
        self.command = "fingerprint"
        self.json = False
        self.help = False
        self.files: List[str] = []
        self.in_files: List[str] = []


_COMMANDS = {"explain", "verify", "why", "help"}


def parse_args(argv: List[str]) -> Args:
    a = Args()
    options_done = False
    first = True
    i = 0
    while i < len(argv):
        s = argv[i]
        i += 1
        if not options_done and s.startswith("-") and s != "-":
            if s == "--":
                options_done = True
            elif s == "--json":
                a.json = True
            elif s in ("-h", "--help"):
                a.help = True
            elif s == "--in" or s.startswith("--in="):
                if a.command != "why":
                    raise UsageError("--in belongs to the why command")
                if s == "--in":
                    v = argv[i] if i < len(argv) else ""
                    i += 1
                else:
                    v = s[5:]
                if not v:
                    raise UsageError("--in needs a FILE")
                a.in_files.append(v)
            else:
                raise UsageError("unknown option %s" % s)
            continue
        if first and not options_done and s in _COMMANDS:
            a.command = s
        else:
            a.files.append(s)
        first = False
    return a


# --- output ----------------------------------------------------------------------

def _bytes(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


class Progress:
    """"label: N lines, X MB of Y MB (P%)" on stderr, only on a terminal and after the first second."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.label = ""
        self.total: Optional[int] = None

    def update(self, nbytes: int, lines: int) -> None:
        now = time.monotonic()
        if now - self.start < 1.0 or now - self.last < 0.25:
            return
        self.last = now
        of = (" of %.1f MB (%d%%)" % (self.total / 1048576, 100 * nbytes // self.total)) if self.total else " MB"
        _stderr("\r\x1b[K%s: %s lines, %.1f%s" % (self.label, "{:,}".format(lines), nbytes / 1048576, of))
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            _stderr("\r\x1b[K")
        self.shown = False


_progress: Optional[Progress] = None
_stdout_tty = False


def _stderr(s: str) -> None:
    sys.stderr.buffer.write(_bytes(s))
    sys.stderr.buffer.flush()


def warn(s: str) -> None:
    if _progress:
        _progress.clear()
    _stderr(s + "\n")


class Output:
    """Buffered stdout, flushed after each input chunk."""

    def __init__(self) -> None:
        self.parts: List[str] = []

    def line(self, s: str) -> None:
        self.parts.append(s)
        self.parts.append("\n")

    def record(self, o: Any) -> None:
        self.line(js_dumps(o))

    def flush(self) -> None:
        if not self.parts:
            return
        if _progress and _stdout_tty:
            _progress.clear()  # same terminal: no output on the progress line
        text = "".join(self.parts)
        self.parts = []
        sys.stdout.buffer.write(_bytes(text))
        sys.stdout.buffer.flush()


# --- reading ---------------------------------------------------------------------

class LineError(Exception):
    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def decode_line(b: bytes, line_no: int) -> Optional[str]:
    """The text of a line, or LineError; None for a blank line."""
    if b.endswith(b"\r"):
        b = b[:-1]
    if line_no == 1 and b.startswith(b"\xef\xbb\xbf"):
        b = b[3:]
    if not b.strip(b" \t\r"):
        return None
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        raise LineError("invalid UTF-8", "invalid-utf8") from None


def file_error(file: str, err: OSError) -> str:
    if isinstance(err, FileNotFoundError):
        return "%s: no such file" % file
    if isinstance(err, PermissionError):
        return "%s: permission denied" % file
    if isinstance(err, IsADirectoryError):
        return "%s: is a directory" % file
    return "%s: %s" % (file, err.strerror or err)


class Counts:
    def __init__(self) -> None:
        self.lines = 0
        self.failed = 0
        self.file_errors = 0


def each_line(files: List[str], out: Output, json_mode: bool,
              each: Callable[[str, str, int], Optional[str]]) -> Counts:
    """Streams each file's lines into ``each`` (which may raise LineError or
    FingerprintError: reported, counted, the run goes on); ``"stop"`` ends the
    whole read early."""
    counts = Counts()

    def fail(file: str, line: int, err: Exception) -> None:
        counts.failed += 1
        code = getattr(err, "code", "internal-error")
        if json_mode:
            out.record({"file": file, "line": line, "error": str(err), "code": code})
        else:
            warn("%s:%d: %s" % (file, line, err))

    def file_failed(file: str, e: OSError) -> None:
        counts.file_errors += 1
        if json_mode:
            out.record({"file": file, "error": file_error(file, e)[len(file) + 2:], "code": "unreadable-file"})
        else:
            warn(file_error(file, e))

    for file in files:
        f = None
        try:
            if file == "-":
                fd, total = sys.stdin.fileno(), None
            else:
                f = open(file, "rb", buffering=0)
                fd, total = f.fileno(), os.fstat(f.fileno()).st_size
        except OSError as e:
            file_failed(file, e)
            continue
        if _progress:
            _progress.label, _progress.total = file, total
        line_no = nbytes = 0
        parts: List[bytes] = []
        stop = False

        def handle(b: bytes) -> bool:
            nonlocal line_no
            line_no += 1
            try:
                text = decode_line(b, line_no)
            except LineError as e:  # not even UTF-8
                counts.lines += 1
                fail(file, line_no, e)
                return False
            if text is None:
                return False
            counts.lines += 1
            try:
                return each(text, file, line_no) == "stop"
            except (LineError, FingerprintError) as e:
                fail(file, line_no, e)
                return False

        try:
            while not stop:
                try:
                    chunk = os.read(fd, CHUNK)
                except OSError as e:
                    file_failed(file, e)
                    break
                if not chunk:
                    if parts:
                        handle(b"".join(parts))
                    break
                nbytes += len(chunk)
                start = 0
                nl = chunk.find(b"\n")
                while nl >= 0:
                    piece = chunk[start:nl]
                    if parts:
                        parts.append(piece)
                        piece = b"".join(parts)
                        parts = []
                    start = nl + 1
                    if handle(piece):
                        stop = True
                        break
                    nl = chunk.find(b"\n", start)
                if stop:
                    break
                if start < len(chunk):
                    parts.append(chunk[start:])
                if _progress:
                    _progress.update(nbytes, line_no)
                out.flush()
        finally:
            if f is not None:
                f.close()
        out.flush()
        if stop:
            break
    return counts


# --- one line → one call ---------------------------------------------------------

class _Constant(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def _big_int(s: str) -> Any:
    # Past sys.get_int_max_str_digits() int() refuses; such a literal is far
    # beyond the largest double, which is what JSON.parse makes of it (±inf).
    try:
        return int(s)
    except ValueError:
        return float(s)


def _json_error(text: str, err: BaseException) -> LineError:
    """Why a line is not JSON, in the core's words (the same in both SDKs)."""
    try:
        canonicalize_json(text)
    except FingerprintError as e:
        return LineError(str(e), e.code)
    if isinstance(err, RecursionError):
        return LineError("the line is nested too deeply for Python's JSON reader", "too-deep")
    return LineError("invalid JSON: NaN, Infinity and -Infinity are not allowed in a recording line", "bad-line")


def _loads(text: str) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except _Constant as e:
        raise _json_error(text, e) from None
    except ValueError:
        pass  # perhaps only an over-long integer: try again with the slow hook
    except RecursionError as e:
        raise _json_error(text, e) from None
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_big_int)
    except (ValueError, RecursionError) as e:
        raise _json_error(text, e) from None


def _opt_str(o: Dict[str, Any], key: str) -> Optional[str]:
    v = o.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise LineError('"%s" must be a string' % key, "bad-line")
    return v


def _opt_keys(o: Dict[str, Any], key: str) -> Optional[List[str]]:
    v = o.get(key)
    if v is None:
        return None
    if not isinstance(v, list) or not all(isinstance(k, str) for k in v):
        raise LineError('"%s" must be an array of strings' % key, "bad-line")
    return v


_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class Call:
    """One recorded call, with the options as the recording spells them."""

    __slots__ = ("name", "kind", "match_on", "ignore_args", "args", "args_json")

    def __init__(self, name: str, kind: Optional[str], match_on: Optional[List[str]],
                 ignore_args: Optional[List[str]], args: Any, args_json: Optional[str]) -> None:
        self.name = name
        self.kind = kind
        self.match_on = match_on
        self.ignore_args = ignore_args
        self.args = args
        self.args_json = args_json

    def kwargs(self) -> Dict[str, Any]:
        kw: Dict[str, Any] = {"match_on": self.match_on, "ignore_args": self.ignore_args}
        if self.kind is not None:
            kw["kind"] = self.kind
        return kw

    def _run(self, text_fn: Callable[..., Any], value_fn: Callable[..., Any]) -> Any:
        try:
            if self.args_json is not None:
                return text_fn(self.name, self.args_json, **self.kwargs())
            return value_fn(self.name, self.args, **self.kwargs())
        except FingerprintError as e:
            if e.offset is not None and self.args_json is not None:
                raise LineError("argsJSON: %s" % e, e.code) from None
            raise

    def fingerprint(self) -> str:
        return self._run(fingerprint_json, fingerprint)  # type: ignore[no-any-return]

    def explain(self) -> Explanation:
        return self._run(explain_json, explain)  # type: ignore[no-any-return]


def parse_call(text: str) -> Tuple[Call, Optional[str]]:
    o = _loads(text)
    if not isinstance(o, dict):
        raise LineError("a call must be a JSON object", "bad-line")
    name = _opt_str(o, "name")
    if name is None:
        raise LineError('missing "name"', "bad-line")
    kind = _opt_str(o, "kind")
    match_on = _opt_keys(o, "matchOn")
    ignore_args = _opt_keys(o, "ignoreArgs")
    args_json = _opt_str(o, "argsJSON")
    stored = _opt_str(o, "fingerprint")
    if stored is not None and not _HEX64.match(stored):
        raise LineError('"fingerprint" must be 64 lowercase hex digits', "bad-line")
    return Call(name, kind, match_on, ignore_args, o.get("args"), args_json), stored


# --- text formats ------------------------------------------------------------------

def selection_text(c: Call, e: Explanation) -> str:
    if c.match_on is not None:
        what = "matchOn " + js_dumps(c.match_on)
    elif c.ignore_args is not None:
        what = "ignoreArgs " + js_dumps(c.ignore_args)
    else:
        return "none"
    s = e["selected"]
    t = "%s: kept %s, dropped %s" % (what, js_dumps(s["kept"]), js_dumps(s["dropped"]))
    if s["missing"]:
        t += ", missing " + js_dumps(s["missing"])
    if c.match_on is not None and c.ignore_args is not None:
        t += " (matchOn wins over ignoreArgs)"
    return t


def selection_name(c: Call) -> str:
    if c.match_on is not None:
        return "matchOn " + js_dumps(c.match_on)
    if c.ignore_args is not None:
        return "ignoreArgs " + js_dumps(c.ignore_args)
    return "no selection"


def clip(s: str, limit: int = 100) -> str:
    """At most ``limit`` code points, then "…"."""
    return s if len(s) <= limit else s[:limit] + "…"


def change_lines(d: Diff) -> List[str]:
    lines = []
    for c in d["changes"]:
        where = c["path"] or "(args)"
        if c["kind"] == "changed":
            what = "%s → %s" % (clip(c["before"] or ""), clip(c["after"] or ""))
        elif c["kind"] == "added":
            what = clip(c["after"] or "")
        else:
            what = clip(c["before"] or "")
        lines.append("  %s %s: %s" % (c["kind"].ljust(8), where, what))
    return lines


# --- commands --------------------------------------------------------------------

def finish(c: Counts) -> int:
    if c.failed:
        warn("%d of %d lines failed" % (c.failed, c.lines))
    return 1 if c.failed or c.file_errors else 0


def run_fingerprint(a: Args, out: Output) -> int:
    def each(text: str, file: str, line: int) -> None:
        call, _ = parse_call(text)
        hex_ = call.fingerprint()
        if a.json:
            out.record({"file": file, "line": line, "name": call.name, "fingerprint": hex_})
        else:
            out.line("%s  %s" % (hex_, call.name))
    return finish(each_line(a.files, out, a.json, each))


def run_explain(a: Args, out: Output) -> int:
    def each(text: str, file: str, line: int) -> None:
        call, _ = parse_call(text)
        e = call.explain()
        if a.json:
            rec: Dict[str, Any] = {"file": file, "line": line}
            rec.update(e)
            out.record(rec)
            return
        out.line("%s:%d  %s  %s" % (file, line, e["name"], e["fingerprint"]))
        out.line("  kind       %s" % e["kind"])
        out.line("  selection  %s" % selection_text(call, e))
        out.line("  canonical  %s" % e["canonical"])
    return finish(each_line(a.files, out, a.json, each))


def run_verify(a: Args, out: Output) -> int:
    n = {"match": 0, "differ": 0, "unrecorded": 0}

    def each(text: str, file: str, line: int) -> None:
        call, stored = parse_call(text)
        if stored is None:
            n["unrecorded"] += 1
            call.fingerprint()  # still a check that the line can be fingerprinted
            return
        hex_ = call.fingerprint()
        if hex_ == stored:
            n["match"] += 1
            return
        n["differ"] += 1
        canonical = call.explain()["canonical"]
        if a.json:
            out.record({"file": file, "line": line, "name": call.name, "recorded": stored,
                        "fingerprint": hex_, "canonical": canonical})
        else:
            out.line("%s:%d  %s  recorded %s  computed %s" % (file, line, call.name, stored, hex_))
            out.line("  canonical  %s" % canonical)

    counts = each_line(a.files, out, a.json, each)
    if a.json:
        out.record({"summary": {"match": n["match"], "differ": n["differ"], "unrecorded": n["unrecorded"],
                                "failed": counts.failed}})
    else:
        out.line('verify: %d match, %d differ, %d without "fingerprint", %d failed'
                 % (n["match"], n["differ"], n["unrecorded"], counts.failed))
    out.flush()
    code = finish(counts)
    return 1 if n["differ"] else code


def run_why(a: Args, out: Output) -> int:
    if len(a.files) != 1:
        raise UsageError("why takes one CALL.json (see why --help)")
    if not a.in_files:
        raise UsageError("why needs the recording: --in FILE")
    src = a.files[0]
    if src == "-" and "-" in a.in_files:
        raise UsageError("only one of CALL.json and --in can be standard input")
    try:
        if src == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(src, "rb") as f:
                data = f.read()
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise LineError("invalid UTF-8", "invalid-utf8") from None
        call, _ = parse_call(text)
        target = call.explain()
    except (LineError, FingerprintError) as e:
        warn("%s: %s" % (src, e))
        return 1
    except OSError as e:
        warn(file_error(src, e))
        return 1

    best: List[Any] = []  # [file, line, call, explanation, diff]
    candidates = 0

    def each(text: str, file: str, line: int) -> Optional[str]:
        nonlocal best, candidates
        rec, _ = parse_call(text)
        if rec.name != target["name"] or (rec.kind if rec.kind is not None else "tool_call") != target["kind"]:
            return None
        candidates += 1
        explanation = rec.explain()
        d = diff(explanation, target)
        if not best or len(d["changes"]) < len(best[4]["changes"]):
            best = [file, line, rec, explanation, d]
        return "stop" if d["same"] else None

    counts = each_line(a.in_files, out, a.json, each)
    seen = bool(best) and best[4]["same"]
    if a.json:
        out.record({"call": target, "seen": seen, "candidates": candidates,
                    "nearest": {"file": best[0], "line": best[1], "explanation": best[3], "diff": best[4]}
                    if best else None})
    else:
        out.line("call       %s  %s" % (target["name"], target["fingerprint"]))
        out.line("           %s" % target["canonical"])
        if not best:
            out.line("unseen     no recorded call of %s (kind %s)" % (js_dumps(target["name"]), target["kind"]))
        elif seen:
            out.line("seen       %s:%d has this fingerprint" % (best[0], best[1]))
        else:
            file, line, rec, explanation, d = best
            out.line("unseen     no recorded call has this fingerprint (recorded calls of %s: %d)"
                     % (target["name"], candidates))
            out.line("nearest    %s:%d  %s" % (file, line, explanation["fingerprint"]))
            out.line("           %s" % explanation["canonical"])
            out.line("changes    %d (before: the recording, after: this call)" % len(d["changes"]))
            for ln in change_lines(d):
                out.line(ln)
            mine, theirs = selection_name(call), selection_name(rec)
            if mine != theirs:
                out.line("note       selection differs: this call has %s, the recording %s" % (mine, theirs))
            if call.match_on is None:
                out.line("hint       if a changed key is noise (a request id, a timestamp, a cursor), "
                         "leave it out with ignoreArgs or matchOn")
    out.flush()
    return finish(counts)


def main(argv: List[str]) -> int:
    global _progress, _stdout_tty
    try:
        a = parse_args(argv)
    except UsageError as e:
        warn("error: %s (see --help)" % e)
        return 2
    if a.command == "help":
        topic = a.files[0] if a.files else None
        known = topic in HELP
        sys.stdout.write(_help(topic if known else "main") + "\n")  # type: ignore[arg-type]
        return 2 if topic and not known else 0
    if a.help:
        sys.stdout.write(_help("main" if a.command == "fingerprint" else a.command) + "\n")
        return 0
    if not a.files and a.command != "why":
        if a.command == "fingerprint":
            _stderr(_help("main") + "\n")
            return 2
        warn("error: %s needs a FILE (- for standard input) (see --help)" % a.command)
        return 2
    if sys.stderr.isatty():
        _progress = Progress()
        _stdout_tty = sys.stdout.isatty()
    out = Output()
    try:
        if a.command == "explain":
            return run_explain(a, out)
        if a.command == "verify":
            return run_verify(a, out)
        if a.command == "why":
            return run_why(a, out)
        return run_fingerprint(a, out)
    except UsageError as e:
        warn("error: %s" % e)
        return 2
    except BrokenPipeError:
        # The reader left (| head): stop quietly; point stdout at devnull so
        # the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    finally:
        if _progress:
            _progress.clear()
