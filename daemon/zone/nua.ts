import { randomUUID } from "node:crypto";
import { hashSecret, newSecret, sameHash } from "../auth/tokens.js";
import { notFound } from "../errors.js";
import type { NuaClientDoc, Store } from "../store/index.js";

export const NUA_PREFIX = "kbox_nua_";

/** A NUA client as the API shows it (never its key). */
export function nuaView(c: NuaClientDoc) {
  const { key: _key, ...rest } = c;
  return rest;
}

/** Understanding-API (NUA) clients of an account and their keys (shown once, stored hashed). */
export class NuaService {
  constructor(private readonly store: Store) {}

  list(account: string, clientId?: string): NuaClientDoc[] {
    return [...this.store.zone.nuaClients.values()].filter(
      (c) => c.account_id === account && (!clientId || c.client_id === clientId),
    );
  }

  require(account: string, clientId: string): NuaClientDoc {
    const c = this.store.zone.nuaClients.get(clientId);
    if (!c || c.account_id !== account) throw notFound("NUA client not found");
    return c;
  }

  async create(
    account: string,
    input: {
      title: string;
      description?: string;
      contact?: string;
      tokens_limit?: number | null;
      allow_kb_management?: boolean;
      processing_webhook?: unknown;
    },
  ): Promise<{ token: string; client_id: string; internal_id: string }> {
    const client_id = randomUUID();
    const { token, hash } = newSecret(NUA_PREFIX);
    const now = new Date().toISOString();
    const doc: NuaClientDoc = {
      client_id,
      internal_id: randomUUID(),
      account_id: account,
      title: input.title,
      description: input.description ?? "",
      contact: input.contact ?? "",
      created: now,
      tokens_limit: input.tokens_limit ?? null,
      allow_kb_management: input.allow_kb_management ?? false,
      processing_webhook: input.processing_webhook ?? null,
      key: { id: randomUUID(), hash, created: now },
    };
    await this.store.zone.nuaClients.put(client_id, doc);
    return { token, client_id, internal_id: doc.internal_id };
  }

  async update(account: string, clientId: string, patch: { title?: string; contact?: string; tokens_limit?: number | null }) {
    const c = this.require(account, clientId);
    const next = { ...c };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as Record<string, unknown>)[k] = v;
    await this.store.zone.nuaClients.put(c.client_id, next);
    return nuaView(next);
  }

  async delete(account: string, clientId: string): Promise<void> {
    this.require(account, clientId);
    await this.store.zone.nuaClients.delete(clientId);
  }

  /** A new key; the old one stops working at once. */
  async renew(account: string, clientId: string): Promise<{ token: string; client_id: string; internal_id: string }> {
    const c = this.require(account, clientId);
    const { token, hash } = newSecret(NUA_PREFIX);
    await this.store.zone.nuaClients.put(c.client_id, {
      ...c,
      key: { id: randomUUID(), hash, created: new Date().toISOString() },
    });
    return { token, client_id: c.client_id, internal_id: c.internal_id };
  }

  /** The client a key belongs to. */
  byKey(token: string): NuaClientDoc | undefined {
    const h = hashSecret(token);
    return [...this.store.zone.nuaClients.values()].find((c) => sameHash(c.key.hash, h));
  }

  keyAlive(keyId: string): boolean {
    return [...this.store.zone.nuaClients.values()].some((c) => c.key.id === keyId);
  }
}
