import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { badRequest, KboxError, notFound } from "../errors.js";
import type { PatDoc, Store } from "../store/index.js";
import { sign, type TokenClaims, verify } from "./jwt.js";
import type { Principal } from "./principal.js";

export const PAT_PREFIX = "kbox_pat_";
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Hash-equal in constant time (hex digests). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A fresh opaque secret with its prefix, and the hash that is all that is stored of it. */
export function newSecret(prefix: string): { token: string; hash: string } {
  const token = `${prefix}${randomBytes(32).toString("base64url")}`;
  return { token, hash: sha256(token) };
}
export const hashSecret = sha256;

/** What a short-lived token is minted for. */
export interface MintRequest {
  kind: TokenClaims["kind"];
  account: string;
  kbid: string;
  roles: string[];
  /** Minutes. */
  ttl: number;
  groups?: string[];
  path?: string;
  agentSession?: string;
}

/** Personal access tokens (opaque, stored hashed) and short-lived signed tokens (HS256, TTL in minutes). */
export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly key: Buffer,
    private readonly issuer: () => string,
  ) {}

  /** The base URL clients reach this zone at (KBOX_PUBLIC_URL, else the TCP listener). */
  issuerUrl(): string {
    return this.issuer();
  }

  /** Mint a short-lived token for `parent`'s credential; it dies with it. */
  mint(parent: Principal, req: MintRequest): { token: string; expires: string } {
    if (!parent.credential) throw badRequest("This caller cannot mint tokens");
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + Math.round(req.ttl * 60);
    const claims: TokenClaims = {
      iss: this.issuer(),
      kind: req.kind,
      acc: req.account,
      kb: req.kbid,
      roles: req.roles,
      parent: parent.credential,
      ...(req.groups ? { groups: req.groups } : {}),
      ...(req.path ? { path: req.path } : {}),
      ...(req.agentSession ? { agent_session: req.agentSession } : {}),
      iat,
      exp,
      jti: randomUUID(),
    };
    return { token: sign(claims, this.key), expires: new Date(exp * 1000).toISOString() };
  }

  /** The claims of a valid, unexpired token this zone signed. */
  verify(token: string): TokenClaims | undefined {
    return verify(token, this.key);
  }

  listPats(userId: string): { id: string; description: string; expires: string; account_id: string | null }[] {
    return [...this.store.zone.pats.values()]
      .filter((p) => p.user_id === userId)
      .map((p) => ({ id: p.id, description: p.description, expires: p.expires, account_id: p.account_id ?? null }));
  }

  async createPat(
    userId: string,
    input: { description: string; expires: string; account?: string },
  ): Promise<{ id: string; token: string; expires: string }> {
    const exp = new Date(input.expires);
    if (exp.getTime() <= Date.now()) throw badRequest("expiration_date must be in the future");
    const id = randomUUID();
    const { token, hash } = newSecret(PAT_PREFIX);
    const doc: PatDoc = {
      id,
      user_id: userId,
      ...(input.account ? { account_id: input.account } : {}),
      description: input.description,
      created: new Date().toISOString(),
      expires: exp.toISOString(),
      hash,
    };
    await this.store.zone.pats.put(id, doc);
    return { id, token, expires: doc.expires };
  }

  async deletePat(userId: string, id: string): Promise<void> {
    const p = this.store.zone.pats.get(id);
    if (!p || p.user_id !== userId) throw notFound("Token not found");
    await this.store.zone.pats.delete(id);
  }

  /** The personal access token a secret is, unexpired; undefined when unknown, expired or deleted. */
  pat(token: string): PatDoc | undefined {
    const h = sha256(token);
    for (const p of this.store.zone.pats.values()) {
      if (!sameHash(p.hash, h)) continue;
      return new Date(p.expires).getTime() > Date.now() ? p : undefined;
    }
    return undefined;
  }

  patAlive(id: string): boolean {
    const p = this.store.zone.pats.get(id);
    return Boolean(p && new Date(p.expires).getTime() > Date.now());
  }
}

/** 403 with the reason (a clear refusal rather than the bare "Forbidden"). */
export const refuse = (detail: string) => new KboxError(403, detail);
