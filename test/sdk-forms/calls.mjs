// The tool calls every SDK form in vectors/sdk-forms.*.json holds, with the
// fingerprint each must get: `fingerprint(name, args)` as the independent
// oracle computes it (test/reference/contract.mjs). The Python builder
// (python/tests/sdk_forms.py) uses the same names and args. Test-only.
import { fingerprintOf } from "../reference/contract.mjs";

/** Plain args (no trimming, integers, sorted-key JSON is canonical) so hashlib + json.dumps agree too. */
export const CALLS = {
  get_weather: { name: "get_weather", args: { city: "Paris", days: 3 } },
  get_time: { name: "get_time", args: { tz: "Europe/Paris" } },
};

export const FINGERPRINTS = Object.fromEntries(Object.values(CALLS).map((c) => [c.name, fingerprintOf(c).fingerprint]));
