import { KboxError } from "../errors.js";
import type { NuaUsageDoc, Store } from "../store/index.js";

/** What a client's tokens were spent on. */
export type UsageKind = "predict" | "chat" | "processing";

/** A rough token count (4 characters a token), the one every kind of usage is counted in. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Token usage per understanding client, checked against its `tokens_limit`. Over the limit the client
 * gets 423 (Locked): the limit does not reset by waiting, so 429's "retry later" would be wrong (and
 * SDKs retry 429s); the owner raises `tokens_limit` to unlock it.
 */
export class NuaUsage {
  constructor(private readonly store: Store) {}

  get(clientId: string): NuaUsageDoc {
    return this.store.zone.nuaUsage.get(clientId) ?? { client_id: clientId, tokens_used: 0, by_kind: {}, requests: 0 };
  }

  /** Throws 423 when the client has used its `tokens_limit` (null: no limit). */
  check(clientId: string): void {
    const c = this.store.zone.nuaClients.get(clientId);
    if (!c || c.tokens_limit == null) return;
    const used = this.get(clientId).tokens_used;
    if (used >= c.tokens_limit)
      throw new KboxError(
        423,
        `This understanding client used ${used} of its tokens_limit of ${c.tokens_limit} tokens: raise tokens_limit to use it again`,
      );
  }

  async add(clientId: string, kind: UsageKind, tokens: number): Promise<void> {
    const u = this.get(clientId);
    const n = Math.max(0, Math.round(tokens));
    await this.store.zone.nuaUsage.put(clientId, {
      ...u,
      tokens_used: u.tokens_used + n,
      by_kind: { ...u.by_kind, [kind]: (u.by_kind[kind] ?? 0) + n },
      requests: u.requests + 1,
    });
  }

  async drop(clientId: string): Promise<void> {
    if (this.store.zone.nuaUsage.has(clientId)) await this.store.zone.nuaUsage.delete(clientId);
  }
}
