import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { type KbRole, ROLE_GRANTS, type ServiceAccount } from "../../src/api/accounts.js";
import { badRequest, notFound } from "../errors.js";
import type { ServiceAccountDoc, Store } from "../store/index.js";
import type { Principal } from "./principal.js";

export type { Principal } from "./principal.js";
export { ANONYMOUS, OWNER } from "./principal.js";

const TOKEN_PREFIX = "kbox_sa_";
const hashToken = (token: string) => createHash("sha256").update(token).digest();

/** Service accounts and their keys; tokens are shown once and stored only as SHA-256 hashes. */
export class AuthService {
  /** `account`: the account's id; accounts made before accounts existed belong to `defaultAccount`. */
  constructor(
    private readonly store: Store,
    private readonly defaultAccount: () => string,
  ) {}

  private accountOf(sa: ServiceAccountDoc): string {
    return sa.account_id ?? this.defaultAccount();
  }

  list(account: string, kbid: string | null): ServiceAccount[] {
    return [...this.store.accounts.values()]
      .filter((a) => a.kb_id === kbid && this.accountOf(a) === account)
      .map((a) => ({
        id: a.id,
        title: a.title,
        role: a.role,
        kb_id: a.kb_id,
        keys: a.keys.map(({ id, created, expires }) => ({ id, created, expires })),
      }));
  }

  async create(account: string, kbid: string | null, title: string, role: KbRole): Promise<{ id: string }> {
    const id = randomUUID();
    const doc = { id, title, role, kb_id: kbid, account_id: account, created: new Date().toISOString(), keys: [] };
    await this.store.accounts.put(id, doc);
    return { id };
  }

  async delete(account: string, kbid: string | null, saId: string): Promise<void> {
    this.require(account, kbid, saId);
    await this.store.accounts.delete(saId);
  }

  async createKey(account: string, kbid: string | null, saId: string, expires: string): Promise<{ id: string; token: string }> {
    const sa = this.require(account, kbid, saId);
    const exp = new Date(expires);
    if (exp.getTime() <= Date.now()) throw badRequest("expires must be in the future");
    const id = randomUUID();
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    const key = { id, created: new Date().toISOString(), expires: exp.toISOString(), hash: hashToken(token).toString("hex") };
    await this.store.accounts.put(sa.id, { ...sa, keys: [...sa.keys, key] });
    return { id, token };
  }

  async deleteKey(account: string, kbid: string | null, saId: string, keyId: string): Promise<void> {
    const sa = this.require(account, kbid, saId);
    if (!sa.keys.some((k) => k.id === keyId)) throw notFound("Key not found");
    await this.store.accounts.put(sa.id, { ...sa, keys: sa.keys.filter((k) => k.id !== keyId) });
  }

  /** The principal a bearer token stands for, or undefined when it is unknown, deleted or expired. */
  authenticate(token: string): Principal | undefined {
    const h = hashToken(token);
    const now = Date.now();
    for (const sa of this.store.accounts.values()) {
      for (const k of sa.keys) {
        const stored = Buffer.from(k.hash, "hex");
        if (stored.length === h.length && timingSafeEqual(stored, h)) {
          if (new Date(k.expires).getTime() <= now) return undefined;
          return {
            roles: new Set(ROLE_GRANTS[sa.role]),
            kbid: sa.kb_id ?? undefined,
            account: this.accountOf(sa),
            via: "key",
            credential: `sa:${k.id}`,
          };
        }
      }
    }
    return undefined;
  }

  /** Is this key (by id) still there and unexpired? Tokens it minted live only as long. */
  keyAlive(keyId: string, now = Date.now()): boolean {
    for (const sa of this.store.accounts.values())
      for (const k of sa.keys) if (k.id === keyId) return new Date(k.expires).getTime() > now;
    return false;
  }

  /** Delete the service accounts of a knowledge box that goes away. */
  async dropKb(kbid: string): Promise<void> {
    for (const sa of [...this.store.accounts.values()]) if (sa.kb_id === kbid) await this.store.accounts.delete(sa.id);
  }

  private require(account: string, kbid: string | null, saId: string): ServiceAccountDoc {
    const sa = this.store.accounts.get(saId);
    if (!sa || sa.kb_id !== kbid || this.accountOf(sa) !== account) throw notFound("Service account not found");
    return sa;
  }
}
