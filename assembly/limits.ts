// Limits a host sets for the calls that follow (issue 15): a server caps what
// one request may cost before the memory is taken. NO_LIMIT (the default)
// keeps every existing input working. The byte limit is the hosts' (they see
// the size before copying into linear memory); depth and members are checked
// here, where the structure is read (json/reader.ts, json/values.ts). Internal.
import { E_LIMIT_DEPTH, E_LIMIT_MEMBERS, fail } from "./errors";

export const NO_LIMIT: u32 = 0xFFFF_FFFF;

/** The deepest nesting of containers (1 = a flat object or array). */
export let maxDepth: u32 = NO_LIMIT;
/** The most members of one object (duplicates count: they cost sorting). */
export let maxMembers: u32 = NO_LIMIT;

export function setLimits(depth: u32, members: u32): void {
  maxDepth = depth;
  maxMembers = members;
}

/** False (and the failure recorded at `offset`) when opening a container makes the nesting `depth` too deep. */
@inline export function depthAllowed(depth: u32, offset: i32): bool {
  if (depth <= maxDepth) return true;
  fail(E_LIMIT_DEPTH, offset);
  return false;
}

/** False (and the failure recorded at `offset`) when an object holds more than maxMembers members. */
@inline export function membersAllowed(members: u32, offset: i32): bool {
  if (members <= maxMembers) return true;
  fail(E_LIMIT_MEMBERS, offset);
  return false;
}
