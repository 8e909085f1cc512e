/**
 * The link fetcher's side of the daemon's outbound policy (daemon/net/outbound.ts): the same checks
 * (every redirect hop's host, the address DNS gave the connection), refusals as BLOCKED extraction errors.
 */
import { BlockedFetchError, checkTarget, type FetchPolicy, blockedCause as policyBlocked } from "../../net/outbound.js";
import { ExtractionError } from "./errors.js";

export { policyDispatcher } from "../../net/outbound.js";

/** Throws BLOCKED when a URL's host is an IP literal the policy refuses (names are checked at connect time). */
export function checkUrlHost(url: URL, policy: FetchPolicy): void {
  try {
    checkTarget(url, policy);
  } catch (e) {
    if (e instanceof BlockedFetchError) throw new ExtractionError("BLOCKED", e.message);
    throw e;
  }
}

/** The BLOCKED error of a fetch failure the policy caused, if it did. */
export function blockedCause(err: unknown): ExtractionError | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof ExtractionError && e.code_str === "BLOCKED") return e;
  }
  const b = policyBlocked(err);
  return b ? new ExtractionError("BLOCKED", b.message) : undefined;
}
