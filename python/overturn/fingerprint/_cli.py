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

Lines are read by the core (``assembly/call.ts``), never by ``json.loads``:
one JSON reader (RFC 8259 with D11–D14, iterative, so a line nested 100,000
levels deep works), one call model, the same errors in both languages.
"""
from __future__ import annotations

import os
import re
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import __version__
from ._diagnostics import Diff, Explanation, diff, explain_record, js_dumps
from ._diagnostics_wasm import explain_calls_text
from ._diagnostics_wasm import cli_text
from ._errors import FingerprintError

PROG = "python -m overturn.fingerprint"
CHUNK = 64 * 1024

# --- help ----------------------------------------------------------------------


def _help(topic: str) -> Optional[str]:
    """Help text of ``topic`` from the core (``assembly/cli/help.ts``), or None for an unknown topic."""
    try:
        return cli_text("help", topic, PROG, __version__)
    except FingerprintError as e:
        if e.code == "bad-request":
            return None
        raise


# --- arguments -----------------------------------------------------------------

class UsageError(Exception):
    pass


class Args:
    def __init__(self) -> None:
        self.command = "fingerprint"
        self.json = False
        self.help = False
        self.version = False
        self.files: List[str] = []
        self.in_files: List[str] = []


_COMMANDS = {"explain", "verify", "why", "help"}
_WORD = re.compile(r"[a-z][a-z-]*\Z")


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
            elif s == "--version":
                a.version = True
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
        elif first and not options_done and _WORD.match(s) and not os.path.exists(s):
            # A bare word that is no file: a mistyped command, not a missing recording.
            raise UsageError('unknown command "%s" (commands: explain, verify, why, help; or a FILE)' % s)
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

    def text(self, s: str) -> None:
        """Bytes made by the core, newlines included."""
        self.parts.append(s)

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

def read_line(text: str) -> Tuple[Dict[str, Any], Explanation]:
    """The line as the core read it (assembly/call.ts; no json.loads here): its record and explanation."""
    rec, digest = explain_record(text)
    e: Explanation = {"version": 1, "kind": rec["kind"], "name": rec["name"], "selected": rec["selected"],
                      "canonical": rec["canonical"], "preimage": rec["preimage"], "fingerprint": digest}
    return rec, e


def read_calls(text: str) -> List[Tuple[Dict[str, Any], Explanation]]:
    """Every call of a line: a recording line or one provider call is one; a
    message holding several (assembly/shapes.ts) is each of them, in order."""
    out: List[Tuple[Dict[str, Any], Explanation]] = []
    for rec, digest in explain_calls_text(text):
        out.append((rec, {"version": 1, "kind": rec["kind"], "name": rec["name"], "selected": rec["selected"],
                          "canonical": rec["canonical"], "preimage": rec["preimage"], "fingerprint": digest}))
    return out


# --- text formats ------------------------------------------------------------------

def selection_text(c: Dict[str, Any], e: Explanation) -> str:
    if "matchOn" in c:
        what = "matchOn " + js_dumps(c["matchOn"])
    elif "ignoreArgs" in c:
        what = "ignoreArgs " + js_dumps(c["ignoreArgs"])
    else:
        return "none"
    s = e["selected"]
    t = "%s: kept %s, dropped %s" % (what, js_dumps(s["kept"]), js_dumps(s["dropped"]))
    if s["missing"]:
        t += ", missing " + js_dumps(s["missing"])
    if "matchOn" in c and "ignoreArgs" in c:
        t += " (matchOn wins over ignoreArgs)"
    return t


def selection_name(c: Dict[str, Any]) -> str:
    if "matchOn" in c:
        return "matchOn " + js_dumps(c["matchOn"])
    if "ignoreArgs" in c:
        return "ignoreArgs " + js_dumps(c["ignoreArgs"])
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
    fmt = "fingerprint-json" if a.json else "fingerprint"  # the core writes what is printed

    def each(text: str, file: str, line: int) -> None:
        for _, e in read_calls(text):
            if a.json:
                out.record({"file": file, "line": line, "name": e["name"], "fingerprint": e["fingerprint"]})
            else:
                out.line("%s  %s" % (e["fingerprint"], e["name"]))
    return finish(each_line(a.files, out, a.json, each))


def run_explain(a: Args, out: Output) -> int:
    def each(text: str, file: str, line: int) -> None:
        for call, e in read_calls(text):
            if a.json:
                rec: Dict[str, Any] = {"file": file, "line": line}
                rec.update(e)
                out.record(rec)
                continue
            out.line("%s:%d  %s  %s" % (file, line, e["name"], e["fingerprint"]))
            out.line("  kind       %s" % e["kind"])
            out.line("  selection  %s" % selection_text(call, e))
            out.line("  canonical  %s" % e["canonical"])
    return finish(each_line(a.files, out, a.json, each))


def run_verify(a: Args, out: Output) -> int:
    n = {"match": 0, "differ": 0, "unrecorded": 0}

    def each(text: str, file: str, line: int) -> None:
        rec, e = read_line(text)
        stored = rec.get("recorded")
        if stored is None:
            n["unrecorded"] += 1
            return
        hex_ = e["fingerprint"]
        if hex_ == stored:
            n["match"] += 1
            return
        n["differ"] += 1
        canonical = e["canonical"]
        if a.json:
            out.record({"file": file, "line": line, "name": e["name"], "recorded": stored,
                        "fingerprint": hex_, "canonical": canonical})
        else:
            out.line("%s:%d  %s  recorded %s  computed %s" % (file, line, e["name"], stored, hex_))
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
    if n["match"] + n["differ"] == 0:
        warn('verify: nothing to verify (no line has a "fingerprint")')
        return 1
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
        call, target = read_line(text)
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
        rec, explanation = read_line(text)
        if rec["name"] != target["name"] or rec["kind"] != target["kind"]:
            return None
        candidates += 1
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
            if "matchOn" not in call:
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
    if a.version:
        sys.stdout.write(cli_text("version", "", PROG, __version__))
        return 0
    if a.command == "help":
        topic = a.files[0] if a.files else None
        text = _help(topic) if topic is not None else None
        sys.stdout.write(text if text is not None else _help("main"))  # type: ignore[arg-type]
        return 2 if topic and text is None else 0
    if a.help:
        sys.stdout.write(_help("main" if a.command == "fingerprint" else a.command))  # type: ignore[arg-type]
        return 0
    if not a.files and a.command != "why":
        if a.command == "fingerprint":
            _stderr(_help("main"))  # type: ignore[arg-type]
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
