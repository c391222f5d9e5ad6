// Why a file could not be read, in words: the host passes the error's name
// as its system gave it (POSIX errno names, "ENOENT"; Node's err.code,
// Python's errno.errorcode) and the core says it the same in every CLI.
// An unknown name is shown as it came; "-" (an error without a name):
// "cannot be read".
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

function words(p: usize, n: usize): string {
  if (n == 6 && is(p, "ENOENT")) return "no such file";
  if ((n == 6 && is(p, "EACCES")) || (n == 5 && is(p, "EPERM"))) return "permission denied";
  if (n == 6 && is(p, "EISDIR")) return "is a directory";
  if (n == 7 && is(p, "ENOTDIR")) return "a part of the path is not a directory";
  if (n == 5 && is(p, "ELOOP")) return "too many symbolic links";
  if (n == 12 && is(p, "ENAMETOOLONG")) return "file name too long";
  if ((n == 6 && is(p, "EMFILE")) || (n == 6 && is(p, "ENFILE"))) return "too many open files";
  if (n == 3 && is(p, "EIO")) return "input/output error";
  if (n == 5 && is(p, "ENXIO")) return "no such device";
  if (n == 6 && is(p, "ENOMEM")) return "out of memory";
  return "";
}
