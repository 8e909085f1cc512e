import { createHash, createHmac } from "node:crypto";
import type { Log } from "../lifecycle/logger.js";
import { type FetchPolicy, guardedFetch } from "../net/outbound.js";

/** Where a result goes, with the caller's headers and the key its signature is made with. */
export interface WebhookTarget {
  uri: string;
  headers: Record<string, string>;
  secret: string;
}

export const SIGNATURE_HEADER = "x-kbox-signature";

/**
 * The signature of a webhook body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the
 * webhook's `secret`, or else by the hex SHA-256 of the client's NUA key (which the receiver can compute).
 */
export function signBody(body: string, secret: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** The default signing key of a client: the hex SHA-256 of its NUA key. */
export function keySecret(nuaKey: string): string {
  return createHash("sha256").update(nuaKey).digest("hex");
}

export interface DeliveryResult {
  delivered: boolean;
  attempts: number;
  last_status?: number;
  last_error?: string;
}

export interface WebhookOptions {
  policy: FetchPolicy;
  attempts: number;
  /** First retry after this many ms, doubling. */
  backoffMs: number;
  log: Log;
  /** Attempts made before (a delivery resumed after a restart): counted in, and fewer left. */
  done?: number;
  /** Called before each attempt with the state so far (to keep it durably). */
  onAttempt?: (state: DeliveryResult) => Promise<void>;
}

/** POST a JSON body to a webhook, retried with exponential backoff on network errors and non-2xx answers. */
export async function deliver(target: WebhookTarget, payload: unknown, o: WebhookOptions): Promise<DeliveryResult> {
  const body = JSON.stringify(payload);
  const out: DeliveryResult = { delivered: false, attempts: o.done ?? 0 };
  for (let i = o.done ?? 0; i < Math.max(o.attempts, (o.done ?? 0) + 1); i++) {
    if (i > (o.done ?? 0)) await new Promise((r) => setTimeout(r, o.backoffMs * 2 ** (i - 1)));
    await o.onAttempt?.({ ...out, attempts: i + 1 });
    out.attempts = i + 1;
    try {
      const res = await guardedFetch(
        target.uri,
        {
          method: "POST",
          headers: {
            ...target.headers,
            "content-type": "application/json",
            [SIGNATURE_HEADER]: signBody(body, target.secret),
            "x-kbox-delivery-attempt": String(i + 1),
          },
          body,
          maxRedirects: 0,
          signal: AbortSignal.timeout(30_000),
        },
        o.policy,
      );
      out.last_status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) {
        out.delivered = true;
        return out;
      }
      out.last_error = `HTTP ${res.status}`;
    } catch (e) {
      out.last_error = (e as Error).message;
      if ((e as { code?: string }).code === "BLOCKED") break; // the policy will not change between attempts
    }
  }
  o.log.error(`nua: webhook ${target.uri} not delivered after ${out.attempts} attempt(s): ${out.last_error}`);
  return out;
}
