/**
 * The SSRF guard of link fetching: a link may not reach loopback, private, link-local or otherwise
 * non-public addresses unless the daemon allows it. The check runs on every redirect hop's host (IP
 * literals) and on the address DNS actually gave the connection (a lookup hook), so a public name that
 * resolves to 127.0.0.1 is caught too, and the address checked is the address connected to.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { Agent } from "undici";
import { ExtractionError } from "./errors.js";

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

/** The BLOCKED error of a link that reaches a non-public address. */
export function blockedAddress(host: string, ip: string): ExtractionError {
  const what = host === ip ? ip : `${host} (${ip})`;
  return new ExtractionError("BLOCKED", `blocked: ${what} is a private address; set KBOX_LINKS_ALLOW_PRIVATE=1 to allow`);
}

/** Throws BLOCKED when a URL's host is an IP literal that is not public (names are checked at connect time). */
export function checkUrlHost(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !isPublicAddress(host)) throw blockedAddress(host, host);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect that refuses non-public answers (all of them are checked: the socket may try each). */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) return callback(blockedAddress(hostname, bad.address) as unknown as NodeJS.ErrnoException, "");
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    callback(null, first?.address ?? "", first?.family);
  });
}

let agent: Agent | undefined;

/** The undici dispatcher of guarded fetches (one per thread, so connections are reused). */
export function publicOnlyDispatcher(): Agent {
  agent ??= new Agent({ connect: { lookup: guardedLookup as never } });
  return agent;
}

/** The BLOCKED error somewhere in a fetch failure's cause chain, if the guard refused the connection. */
export function blockedCause(err: unknown): ExtractionError | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof ExtractionError && e.code_str === "BLOCKED") return e;
  }
  return undefined;
}
