import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { type KbRole, ROLE_GRANTS, type ServiceAccount } from "../../src/api/accounts.js";
import type { Role } from "../../src/api/route.js";
import { badRequest, notFound } from "../errors.js";
import type { ServiceAccountDoc, Store } from "../store/index.js";

/** Who is calling: the roles granted and, for a KB-scoped key, the one knowledge box it may touch. */
export interface Principal {
  roles: ReadonlySet<Role>;
  /** undefined: every knowledge box. */
  kbid?: string;
  /**
   * The account it acts in, checked against a route's account parameter. undefined: the one implicit
   * local account, which answers to any account id (every principal today; keys get one with accounts).
   */
  account?: string;
  via: "socket" | "key" | "roles-header" | "anonymous";
}

export const OWNER: Principal = { roles: new Set(["READER", "WRITER", "MANAGER", "OWNER"]), via: "socket" };
/** The caller of a public route: no roles, never authenticated. */
export const ANONYMOUS: Principal = { roles: new Set(), via: "anonymous" };

const TOKEN_PREFIX = "kbox_sa_";
const hashToken = (token: string) => createHash("sha256").update(token).digest();

/** Service accounts and their keys; tokens are shown once and stored only as SHA-256 hashes. */
export class AuthService {
  constructor(private readonly store: Store) {}

  list(kbid: string | null): ServiceAccount[] {
    return [...this.store.accounts.values()]
      .filter((a) => a.kb_id === kbid)
      .map((a) => ({
        id: a.id,
        title: a.title,
        role: a.role,
        kb_id: a.kb_id,
        keys: a.keys.map(({ id, created, expires }) => ({ id, created, expires })),
      }));
  }

  async create(kbid: string | null, title: string, role: KbRole): Promise<{ id: string }> {
    const id = randomUUID();
    await this.store.accounts.put(id, { id, title, role, kb_id: kbid, created: new Date().toISOString(), keys: [] });
    return { id };
  }

  async delete(kbid: string | null, saId: string): Promise<void> {
    this.require(kbid, saId);
    await this.store.accounts.delete(saId);
  }

  async createKey(kbid: string | null, saId: string, expires: string): Promise<{ id: string; token: string }> {
    const sa = this.require(kbid, saId);
    const exp = new Date(expires);
    if (exp.getTime() <= Date.now()) throw badRequest("expires must be in the future");
    const id = randomUUID();
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    const key = { id, created: new Date().toISOString(), expires: exp.toISOString(), hash: hashToken(token).toString("hex") };
    await this.store.accounts.put(sa.id, { ...sa, keys: [...sa.keys, key] });
    return { id, token };
  }

  async deleteKey(kbid: string | null, saId: string, keyId: string): Promise<void> {
    const sa = this.require(kbid, saId);
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
          return { roles: new Set(ROLE_GRANTS[sa.role]), kbid: sa.kb_id ?? undefined, via: "key" };
        }
      }
    }
    return undefined;
  }

  private require(kbid: string | null, saId: string): ServiceAccountDoc {
    const sa = this.store.accounts.get(saId);
    if (!sa || sa.kb_id !== kbid) throw notFound("Service account not found");
    return sa;
  }
}
