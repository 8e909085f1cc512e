import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Claims of kbox's short-lived tokens (HS256 JWTs). */
export interface TokenClaims {
  iss: string;
  /** ephemeral (read a knowledge box or a path), agent (an agent session), secure (security groups). */
  kind: "ephemeral" | "agent" | "secure";
  /** Account id and knowledge box id the token is for. */
  acc: string;
  kb: string;
  /** Local roles granted (never more than the parent had). */
  roles: string[];
  /** The credential that minted it (`sa:<key id>`, `pat:<id>`, `nua:<id>`, `socket`); revoked with it. */
  parent: string;
  groups?: string[];
  path?: string;
  agent_session?: string;
  iat: number;
  exp: number;
  jti: string;
}

const b64 = (v: Buffer | string) => Buffer.from(v).toString("base64url");
const HEADER = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));

/** A 256-bit signing key in `<dir>/signing.key` (mode 0600), made on first use. */
export function loadSigningKey(dir: string): Buffer {
  const file = join(dir, "signing.key");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length < 32) throw new Error(`${file} holds no usable signing key`);
  return key;
}

export function sign(claims: TokenClaims, key: Buffer): string {
  const body = `${HEADER}.${b64(JSON.stringify(claims))}`;
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

/** The claims of a token this key signed, not yet expired; undefined for anything else. */
export function verify(token: string, key: Buffer, now = Date.now()): TokenClaims | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
  const want = createHmac("sha256", key).update(`${parts[0]}.${parts[1]}`).digest();
  const got = Buffer.from(parts[2], "base64url");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as TokenClaims;
  } catch {
    return undefined;
  }
  if (typeof claims.exp !== "number" || claims.exp * 1000 <= now) return undefined;
  return claims;
}

/** Does this look like a JWT (three base64url parts)? */
export const isJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
