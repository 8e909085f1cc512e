import type { Principal } from "../auth/principal.js";
import type { NuaClientDoc } from "../store/index.js";
import { approxTokens, type NuaUsage, type UsageKind } from "./usage.js";

/** Is this an async iterable (a stream route's answer)? */
function isStream(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === "object" && v !== null && Symbol.asyncIterator in v;
}

/** The text of an answer or stream item, for counting its tokens. */
function textOf(v: unknown): string {
  if (typeof v === "string") return v;
  if (v instanceof Response || v === undefined) return "";
  return JSON.stringify(v) ?? "";
}

/**
 * Run a predict call for a NUA-key caller: refused with 423 when its client is over `tokens_limit`, and
 * its tokens counted after (the request body in, the answer or each streamed item out, 4 characters a
 * token). Callers without a NUA key are not metered.
 */
export async function metered<T>(
  usage: NuaUsage,
  p: Principal,
  client: (p: Principal) => Promise<NuaClientDoc>,
  kind: UsageKind,
  body: unknown,
  run: () => Promise<T>,
): Promise<T> {
  if (p.via !== "nua") return run();
  const c = await client(p);
  usage.check(c.client_id);
  const input = approxTokens(textOf(body));
  const out = await run();
  if (!isStream(out)) {
    await usage.add(c.client_id, kind, input + approxTokens(textOf(out)));
    return out;
  }
  const src = out;
  async function* counted() {
    let chars = 0;
    try {
      for await (const item of src) {
        chars += textOf(item).length;
        yield item;
      }
    } finally {
      await usage.add(c.client_id, kind, input + Math.ceil(chars / 4)).catch(() => undefined);
    }
  }
  return counted() as T;
}
