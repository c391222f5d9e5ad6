// Per-line CLI output for a call the core has just read and fingerprinted
// (F_CLI | F_CALL, cli/out.ts): the bytes printed for one recording line.
// Internal.
import { bytes, lit } from "./_emit";
import { writeJsonString } from "../json/writer";
import { is } from "./help";

/**
 * Formatter [fP, fP+fN) for one line: "fingerprint" ("<hex>  <name>\n") or
 * "fingerprint-json" ({"file","line","name","fingerprint"}\n). file: the
 * host's file name bytes; line: its decimal line number; name: the call's
 * decoded name; hex: the 64-byte digest. False for an unknown formatter.
 */
export function writeCallLine(fP: usize, fN: usize, fileP: usize, fileN: usize, lineP: usize, lineN: usize,
  nameP: usize, nameN: usize, hex: usize): bool {
  if (fN == 11 && is(fP, "fingerprint")) {
    return bytes(hex, 64) && lit("  ") && bytes(nameP, nameN) && lit("\n");
  }
  if (fN == 16 && is(fP, "fingerprint-json")) {
    return lit("{\"file\":") && writeJsonString(fileP, fileN, false) && lit(",\"line\":") && bytes(lineP, lineN)
      && lit(",\"name\":") && writeJsonString(nameP, nameN, false) && lit(",\"fingerprint\":\"") && bytes(hex, 64)
      && lit("\"}\n");
  }
  return false;
}

