// Why a file could not be read, in words: the host passes the error as its
// system gave it, by POSIX errno name ("ENOENT": Node's err.code, Python's
// errno.errorcode) or by the system's text for it ("no such file or
// directory": a Go syscall.Errno, which has no name), and the core says it
// the same in every CLI. An unknown one is shown as it came; "-" (an error
// without a name): "cannot be read".
// Internal.
import { bytes, lit } from "../json/emit";
import { is } from "./help";

/** The words for error name [p, p+n) into the sink. */
export function writeErrno(p: usize, n: usize): bool {
  const w = words(p, n);
  if (w.length > 0) return lit(w);
  if (n == 1 && load<u8>(p) == 0x2D) return lit("cannot be read");
  return lit("cannot be read (") && bytes(p, n) && lit(")");
}

function eq(p: usize, n: usize, s: string): bool {
  return n == <usize>s.length && is(p, s);
}

function words(p: usize, n: usize): string {
  if (eq(p, n, "ENOENT") || eq(p, n, "no such file or directory")) return "no such file";
  if (eq(p, n, "EACCES") || eq(p, n, "EPERM") || eq(p, n, "permission denied") || eq(p, n, "operation not permitted")) {
    return "permission denied";
  }
  if (eq(p, n, "EISDIR") || eq(p, n, "is a directory")) return "is a directory";
  if (eq(p, n, "ENOTDIR") || eq(p, n, "not a directory")) return "a part of the path is not a directory";
  if (eq(p, n, "ELOOP") || eq(p, n, "too many levels of symbolic links")) return "too many symbolic links";
  if (eq(p, n, "ENAMETOOLONG") || eq(p, n, "file name too long")) return "file name too long";
  if (eq(p, n, "EMFILE") || eq(p, n, "ENFILE") || eq(p, n, "too many open files") || eq(p, n, "too many open files in system")) {
    return "too many open files";
  }
  if (eq(p, n, "EIO") || eq(p, n, "input/output error")) return "input/output error";
  if (eq(p, n, "ENXIO") || eq(p, n, "no such device or address") || eq(p, n, "device not configured")) return "no such device";
  if (eq(p, n, "ENOMEM") || eq(p, n, "cannot allocate memory")) return "out of memory";
  return "";
}
