import { randomUUID } from "node:crypto";
import { hashSecret, newSecret, sameHash } from "../auth/tokens.js";
import { KboxError, notFound } from "../errors.js";
import type { InviteDoc, Store } from "../store/index.js";

export const INVITE_PREFIX = "kbox_inv_";
/** Invitations last a week unless the inviter says otherwise. */
export const INVITE_DAYS = 7;

/** Invitations by e-mail. No mail leaves this machine: creating one yields a one-time acceptance token. */
export class InviteService {
  constructor(private readonly store: Store) {}

  list(account: string, kbid: string | null): { email: string; role: string; expires: string }[] {
    return [...this.store.zone.invites.values()]
      .filter((i) => i.account_id === account && i.kb_id === kbid)
      .map((i) => ({ email: i.email, role: i.role, expires: i.expires }));
  }

  /** A new invitation (replacing one to the same e-mail and place); the token is returned once. */
  async create(
    account: string,
    kbid: string | null,
    input: { email: string; role: string; expires?: string },
  ): Promise<{ token: string; expires: string }> {
    await this.delete(account, kbid, input.email).catch(() => undefined);
    const expires = input.expires ?? new Date(Date.now() + INVITE_DAYS * 86400e3).toISOString();
    if (Date.parse(expires) <= Date.now()) throw new KboxError(422, "expires must be in the future");
    const { token, hash } = newSecret(INVITE_PREFIX);
    const id = randomUUID();
    const doc: InviteDoc = {
      id,
      account_id: account,
      kb_id: kbid,
      email: input.email,
      role: input.role,
      created: new Date().toISOString(),
      expires,
      hash,
    };
    await this.store.zone.invites.put(id, doc);
    return { token, expires };
  }

  async delete(account: string, kbid: string | null, email: string): Promise<void> {
    const e = email.toLowerCase();
    const found = [...this.store.zone.invites.values()].filter(
      (i) => i.account_id === account && i.kb_id === kbid && i.email.toLowerCase() === e,
    );
    if (!found.length) throw notFound("Invitation not found");
    for (const i of found) await this.store.zone.invites.delete(i.id);
  }

  /** Redeem a token: the invitation, removed so it cannot be used twice. Unknown, used and deleted: 404; expired: 410. */
  async redeem(token: string): Promise<InviteDoc> {
    const h = hashSecret(token);
    const inv = [...this.store.zone.invites.values()].find((i) => sameHash(i.hash, h));
    if (!inv) throw notFound("Invitation not found: it was used, deleted or never existed");
    await this.store.zone.invites.delete(inv.id);
    if (Date.parse(inv.expires) <= Date.now()) throw new KboxError(410, "Invitation expired");
    return inv;
  }

  async dropKb(kbid: string): Promise<void> {
    for (const i of [...this.store.zone.invites.values()]) if (i.kb_id === kbid) await this.store.zone.invites.delete(i.id);
  }
}
