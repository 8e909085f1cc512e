/**
 * AWS STS AssumeRole for object-store connections that give a role (role_arn, external_id) and no
 * access keys: the daemon calls STS with its own AWS credentials (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), signed with Signature Version 4, and syncs with the
 * temporary credentials it gets back (kept until shortly before they expire).
 */
import { createHash, createHmac } from "node:crypto";
import { badRequest } from "../errors.js";
import { type FetchPolicy, guardedFetch } from "../net/outbound.js";
import { ProviderError } from "./cloud/oauth.js";
import type { CloudSettings } from "./cloud/types.js";

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expires: number;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const hmac = (k: Buffer | string, s: string) => createHmac("sha256", k).update(s).digest();

/** Signature Version 4 headers of a form POST (service sts). */
export function signV4(
  url: URL,
  body: string,
  creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  region: string,
  now = new Date(),
): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, "");
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded; charset=utf-8",
    host: url.host,
    "x-amz-date": amzDate,
    ...(creds.sessionToken ? { "x-amz-security-token": creds.sessionToken } : {}),
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    "POST",
    url.pathname || "/",
    "",
    ...names.map((n) => `${n}:${headers[n].trim()}`),
    "",
    names.join(";"),
    sha256(body),
  ].join("\n");
  const scope = `${day}/${region}/sts/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), region), "sts"), "aws4_request");
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  const { host: _h, ...sent } = headers;
  return {
    ...sent,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}`,
  };
}

const EARLY_MS = 5 * 60_000;
const cache = new Map<string, TemporaryCredentials>();
const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

/** Temporary credentials of a role (cached per role and external id until 5 minutes before they expire). */
export async function assumeRole(
  roleArn: string,
  externalId: string,
  cloud: Pick<CloudSettings, "stsUrl" | "aws">,
  policy: FetchPolicy,
): Promise<TemporaryCredentials> {
  const k = `${cloud.stsUrl} ${roleArn} ${externalId}`;
  const hit = cache.get(k);
  if (hit && hit.expires - EARLY_MS > Date.now()) return hit;
  const { accessKeyId, secretAccessKey, sessionToken, region } = cloud.aws;
  if (!accessKeyId || !secretAccessKey)
    throw badRequest(
      `To assume ${roleArn} the daemon needs its own AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in kboxd's environment), or give the connection access_key_id and secret_access_key`,
    );
  const body = new URLSearchParams({
    Action: "AssumeRole",
    Version: "2011-06-15",
    RoleArn: roleArn,
    RoleSessionName: "kbox-sync",
    ExternalId: externalId,
    DurationSeconds: "3600",
  }).toString();
  const url = new URL(cloud.stsUrl);
  const res = await guardedFetch(
    url.toString(),
    {
      method: "POST",
      headers: signV4(url, body, { accessKeyId, secretAccessKey, sessionToken }, region),
      body,
      signal: AbortSignal.timeout(30_000),
      maxRedirects: 0,
    },
    policy,
  );
  const xml = await res.text();
  if (!res.ok) throw new ProviderError(`AssumeRole ${roleArn}`, res.status, tag(xml, "Message") ?? xml);
  const creds = {
    accessKeyId: tag(xml, "AccessKeyId") ?? "",
    secretAccessKey: tag(xml, "SecretAccessKey") ?? "",
    sessionToken: tag(xml, "SessionToken") ?? "",
    expires: Date.parse(tag(xml, "Expiration") ?? "") || Date.now() + 15 * 60_000,
  };
  if (!creds.accessKeyId || !creds.secretAccessKey) throw badRequest(`AssumeRole ${roleArn}: STS answered no credentials`);
  cache.set(k, creds);
  return creds;
}
