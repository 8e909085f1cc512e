/**
 * directory_certificate_credentials: the client-credentials grant with a certificate (RFC 7523
 * client assertion). The connection's PKCS#12 file gives the private key and certificate; each token
 * request carries a JWT (RS256, header x5t = the certificate's SHA-1 thumbprint) signed with that key.
 */
import { createHash, createSign, randomUUID } from "node:crypto";
import forge from "node-forge";
import { z } from "zod";
import { invalid } from "../../errors.js";
import type { FetchPolicy } from "../../net/outbound.js";
import { tokenRequest } from "./oauth.js";
import type { Tokens } from "./types.js";

export const CertificateCredentials = z.strictObject({
  tenant_id: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\w.-]+$/, "a tenant id or domain"),
  client_id: z.string().min(1).max(200),
  pfx_base64: z.string().min(1).max(200_000),
  pfx_password: z.string().max(1000).optional(),
});

/** What is sealed for a certificate connection (the key as PEM, never on the wire). */
export interface CertificateSecret {
  tenant_id: string;
  client_id: string;
  key_pem: string;
  /** base64url SHA-1 of the certificate's DER: the x5t the provider matches the registration with. */
  x5t: string;
  tokens?: Tokens;
}

const issue = (loc: string[], msg: string, input: unknown) => ({
  type: "value_error",
  loc: ["body", "credentials", ...loc],
  msg,
  input,
});

/** Check the body's credentials and read the key and certificate out of the PKCS#12 file (422 when it cannot be read). */
export function parseCertificate(raw: unknown): CertificateSecret {
  const r = CertificateCredentials.safeParse(raw ?? undefined);
  if (!r.success) throw invalid(r.error.issues.map((i) => issue(i.path.map(String), i.message, raw)));
  const c = r.data;
  let key: forge.pki.PrivateKey | undefined;
  let cert: forge.pki.Certificate | undefined;
  try {
    const der = forge.util.decode64(c.pfx_base64.replace(/\s+/g, ""));
    const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), c.pfx_password ?? "");
    for (const type of [forge.pki.oids.pkcs8ShroudedKeyBag, forge.pki.oids.keyBag])
      key ??= p12.getBags({ bagType: type })[type]?.[0]?.key;
    cert = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag]?.[0]?.cert ?? undefined;
  } catch (e) {
    throw invalid([issue(["pfx_base64"], `not a readable PKCS#12 file with this password: ${(e as Error).message}`, "<pfx>")]);
  }
  if (!key || !cert) throw invalid([issue(["pfx_base64"], "the PKCS#12 file needs a private key and its certificate", "<pfx>")]);
  const certDer = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
  return {
    tenant_id: c.tenant_id,
    client_id: c.client_id,
    key_pem: forge.pki.privateKeyToPem(key),
    x5t: createHash("sha1").update(certDer).digest("base64url"),
  };
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** The signed client assertion for one token request. */
export function clientAssertion(s: CertificateSecret, audience: string, now = Date.now()): string {
  const t = Math.floor(now / 1000);
  const head = `${b64url({ alg: "RS256", typ: "JWT", x5t: s.x5t })}.${b64url({
    aud: audience,
    iss: s.client_id,
    sub: s.client_id,
    jti: randomUUID(),
    nbf: t,
    iat: t,
    exp: t + 600,
  })}`;
  return `${head}.${createSign("RSA-SHA256").update(head).sign(s.key_pem, "base64url")}`;
}

/** An app-only access token for the API (scope `<api origin>/.default`). */
export function certificateToken(s: CertificateSecret, loginUrl: string, apiUrl: string, policy: FetchPolicy): Promise<Tokens> {
  const tokenUrl = `${loginUrl.replace(/\/+$/, "")}/${encodeURIComponent(s.tenant_id)}/oauth2/v2.0/token`;
  return tokenRequest(
    tokenUrl,
    {
      grant_type: "client_credentials",
      client_id: s.client_id,
      scope: `${new URL(apiUrl).origin}/.default`,
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: clientAssertion(s, tokenUrl),
    },
    policy,
  );
}
