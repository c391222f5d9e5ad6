// Dates as JavaScript's Date.prototype.toISOString() prints them (D15, D16).
// The hosts send a time value (milliseconds since 1970-01-01 UTC; a day
// count for a Python date) and the core writes the text, so no host formats
// a date. Internal.
import { writePadded } from "../num/digits";

/** ECMA-262 TimeClip: a Date holds at most this many ms either side of 1970; beyond, or NaN, it is invalid. */
const MAX_TIME: f64 = 8.64e15;
const DAY_MS: i64 = 86_400_000;

/** Whether t is the time value of a valid Date (NaN is not). */
@inline export function validTime(t: f64): bool {
  return t >= -MAX_TIME && t <= MAX_TIME;
}

/** toISOString() of the valid time value t at out ("YYYY-MM-DDTHH:mm:ss.sssZ"); returns its byte count. */
export function writeIsoTime(t: f64, out: usize): usize {
  const ms = <i64>t; // TimeClip truncates toward zero; hosts send whole ms
  let days = ms / DAY_MS;
  let rem = ms % DAY_MS;
  if (rem < 0) { rem += DAY_MS; days--; }
  const p = out + writeIsoDay(days, out);
  store<u8>(p, 0x54); // T
  writePadded(<u64>(rem / 3_600_000), 2, p + 1);
  store<u8>(p + 3, 0x3A);
  writePadded(<u64>(rem / 60_000 % 60), 2, p + 4);
  store<u8>(p + 6, 0x3A);
  writePadded(<u64>(rem / 1000 % 60), 2, p + 7);
  store<u8>(p + 9, 0x2E);
  writePadded(<u64>(rem % 1000), 3, p + 10);
  store<u8>(p + 13, 0x5A); // Z
  return p + 14 - out;
}

/**
 * "YYYY-MM-DD" of a day count from 1970-01-01 (proleptic Gregorian) at out;
 * returns its byte count. Years outside 0..9999 take a sign and six digits,
 * as toISOString() writes them ("+010000", "-000001").
 */
export function writeIsoDay(days: i64, out: usize): usize {
  // Civil date from days: 400-year eras of 146097 days, counted from March 1
  // so that a leap day ends its year.
  const z = days + 719_468;
  const era = (z >= 0 ? z : z - 146_096) / 146_097;
  const doe = z - era * 146_097;
  const yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
  const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const mp = (5 * doy + 2) / 153;
  const d = doy - (153 * mp + 2) / 5 + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  let p = out;
  if (y >= 0 && y <= 9999) {
    writePadded(<u64>y, 4, p);
    p += 4;
  } else {
    store<u8>(p, y < 0 ? 0x2D : 0x2B);
    writePadded(<u64>(y < 0 ? -y : y), 6, p + 1);
    p += 7;
  }
  store<u8>(p, 0x2D);
  writePadded(<u64>m, 2, p + 1);
  store<u8>(p + 3, 0x2D);
  writePadded(<u64>d, 2, p + 4);
  return p + 6 - out;
}

