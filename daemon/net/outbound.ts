/**
 * The one outbound-fetch policy of the daemon: every fetch it makes on a request's behalf (links,
 * sitemaps and robots.txt, model endpoints, hub mirrors) goes through `guardedFetch`. Only http(s);
 * loopback, private, link-local, metadata and reserved addresses are refused unless the owner allowed
 * them (KBOX_FETCH_ALLOW_PRIVATE, or one host or range in KBOX_FETCH_ALLOW). The address checked is
 * the one DNS gave the connection (a lookup hook), so a name resolving to 127.0.0.1 is caught, and every
 * redirect hop is checked again.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { KboxError } from "../errors.js";

/** What the daemon's owner lets it fetch (daemon/settings: KBOX_FETCH_ALLOW_PRIVATE, KBOX_FETCH_ALLOW). */
export interface FetchPolicy {
  /** Non-public addresses allowed everywhere. */
  allowPrivate: boolean;
  /** Host names, IP addresses and CIDR ranges allowed even when they are not public. */
  allow: readonly string[];
  /** Origins (`http://127.0.0.1:11434`) the owner configured as endpoints: allowed whatever their address. */
  origins?: readonly string[];
}

/** A fetch the policy refused (403): the target is not http(s), or a non-public address the owner did not allow. */
export class BlockedFetchError extends KboxError {
  readonly code = "BLOCKED";
  constructor(message: string) {
    super(403, message);
  }
}

const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata endpoints
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(net, bits, "ipv6");
}

/** Is this IP address reachable on the public internet (not loopback, private, link-local, reserved)? */
export function isPublicAddress(ip: string): boolean {
  const v = isIP(ip);
  if (!v) return false;
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 rules.
  return !NON_PUBLIC.check(ip, v === 6 ? "ipv6" : "ipv4");
}

/** The owner's allow-list compiled: names (lower case) and addresses/ranges. */
interface Compiled {
  names: Set<string>;
  ranges: BlockList;
}

const compiled = new WeakMap<FetchPolicy, Compiled>();

function compile(p: FetchPolicy): Compiled {
  let c = compiled.get(p);
  if (c) return c;
  c = { names: new Set(), ranges: new BlockList() };
  for (const raw of p.allow) {
    const entry = raw.trim().toLowerCase();
    const [addr, bits] = entry.split("/");
    const v = isIP(addr);
    if (v && bits !== undefined) c.ranges.addSubnet(addr, Number(bits), v === 6 ? "ipv6" : "ipv4");
    else if (v) c.ranges.addAddress(addr, v === 6 ? "ipv6" : "ipv4");
    else if (entry) c.names.add(entry);
  }
  compiled.set(p, c);
  return c;
}

/** Does the policy let the daemon connect to `ip` (reached by the name `host`)? */
export function addressAllowed(policy: FetchPolicy, host: string, ip: string): boolean {
  if (policy.allowPrivate || isPublicAddress(ip)) return true;
  const c = compile(policy);
  const v = isIP(ip);
  return c.names.has(host.toLowerCase()) || (v !== 0 && c.ranges.check(ip, v === 6 ? "ipv6" : "ipv4"));
}

function blocked(host: string, ip: string): BlockedFetchError {
  const what = host === ip ? ip : `${host} (${ip})`;
  return new BlockedFetchError(
    `blocked: ${what} is a private address; the daemon's owner can allow it with KBOX_FETCH_ALLOW or KBOX_FETCH_ALLOW_PRIVATE=1`,
  );
}

/** Is this URL on an origin the owner configured (an endpoint of KBOX_OPENAI_BASE_URL...)? */
export function ownerOrigin(url: URL, policy: FetchPolicy): boolean {
  return policy.origins?.includes(url.origin) ?? false;
}

/** Throws BlockedFetchError unless the URL is http(s) and its host, when an IP literal, is allowed. */
export function checkTarget(url: string | URL, policy: FetchPolicy): URL {
  let u: URL;
  try {
    u = typeof url === "string" ? new URL(url) : url;
  } catch {
    throw new BlockedFetchError(`not a URL: ${String(url).slice(0, 200)}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new BlockedFetchError(`only http and https URLs can be fetched, not ${u.protocol}`);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !ownerOrigin(u, policy) && !addressAllowed(policy, host, host)) throw blocked(host, host);
  return u;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const agents = new WeakMap<FetchPolicy, Agent>();

/**
 * The undici dispatcher of a policy: its lookup refuses any non-public answer the policy does not allow.
 * undefined (the default dispatcher) when nothing is refused, or for a URL on an owner's origin.
 */
export function policyDispatcher(policy: FetchPolicy, url?: URL): Agent | undefined {
  if (policy.allowPrivate || (url && ownerOrigin(url, policy))) return undefined;
  let agent = agents.get(policy);
  if (agent) return agent;
  const lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      // Every answer is checked: the socket may try each of them.
      const bad = addresses.find((a) => !addressAllowed(policy, hostname, a.address));
      if (bad) return callback(blocked(hostname, bad.address) as unknown as NodeJS.ErrnoException, "");
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]?.address ?? "", addresses[0]?.family);
    });
  };
  agent = new Agent({ connect: { lookup: lookup as never } });
  agents.set(policy, agent);
  return agent;
}

/** The BlockedFetchError somewhere in a fetch failure's cause chain, if the policy refused the connection. */
export function blockedCause(err: unknown): BlockedFetchError | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 6; e = e.cause as typeof e, i++) {
    if (e instanceof BlockedFetchError) return e;
  }
  return undefined;
}

export interface GuardedInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Redirects followed, each hop checked (default 5; 0: a redirect is answered as is). */
  maxRedirects?: number;
}

/**
 * fetch under the policy: the target and every redirect hop checked, the connection's resolved
 * address checked. Throws BlockedFetchError (also when the refusal happened at connect time).
 * A redirect to another host drops the request's authorization headers.
 */
export async function guardedFetch(url: string, init: GuardedInit, policy: FetchPolicy): Promise<Response> {
  const max = init.maxRedirects ?? 5;
  let target = checkTarget(url, policy);
  let headers = { ...(init.headers ?? {}) };
  let method = init.method ?? "GET";
  let body = init.body;
  for (let hop = 0; ; hop++) {
    const dispatcher = policyDispatcher(policy, target);
    let res: Response;
    try {
      res = (await undiciFetch(target, {
        method,
        headers,
        body,
        signal: init.signal,
        redirect: "manual",
        ...(dispatcher ? { dispatcher } : {}),
      })) as unknown as Response;
    } catch (e) {
      throw blockedCause(e) ?? e;
    }
    const loc = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !loc || max === 0) return res;
    await res.body?.cancel().catch(() => undefined);
    if (hop >= max) throw new Error(`too many redirects (more than ${max}) from ${url}`);
    const next = checkTarget(new URL(loc, target), policy);
    if (next.host !== target.host) headers = withoutCredentials(headers);
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
    }
    target = next;
  }
}

function withoutCredentials(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (!/^(authorization|cookie|x-nuclia-serviceaccount|x-nuclia-nuakey|x-stf-nuakey|api-key)$/i.test(k)) out[k] = v;
  return out;
}
