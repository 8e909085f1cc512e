/**
 * Zones for tests: a second kboxd on loopback TCP acting as a remote zone (its own accounts and
 * keys), and the JS SDK `@nuclia/core` built in zone mode against a kboxd.
 */
import { Nuclia } from "@nuclia/core";
import * as accounts from "../../src/api/accounts.js";
import * as zone from "../../src/api/zone.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "./daemon.js";

export interface RemoteZone {
  d: TestDaemon;
  /** Base URL (http://127.0.0.1:port). */
  url: string;
  /** The zone's name (KBOX_ZONE_NAME). */
  name: string;
  account: { id: string; slug: string };
  /** An account-wide SOWNER service-account key of the default account. */
  key: string;
  stop: () => Promise<void>;
}

/** A kboxd on 127.0.0.1 (a free port) named `name`, with an account-wide owner key made over its socket. */
export async function startRemoteZone(name = "remote-1", env: NodeJS.ProcessEnv = {}): Promise<RemoteZone> {
  const d = await startTestDaemon({ listen: "127.0.0.1:0", env: { ...OFFLINE, KBOX_ZONE_NAME: name, ...env } });
  const [account] = await d.client.call(zone.listAccounts);
  const params = { account_id: account.id, kb_id: "*" };
  const sa = await d.client.call(accounts.createServiceAccount, { params, body: { title: "zone owner", role: "SOWNER" } });
  const expires = new Date(Date.now() + 86400e3).toISOString();
  const { token } = await d.client.call(accounts.createServiceAccountKey, {
    params: { ...params, sa_id: sa.id },
    body: { expires },
  });
  return { d, url: d.url as string, name, account: { id: account.id, slug: account.slug }, key: token, stop: () => d.stop() };
}

/**
 * `@nuclia/core` in zone mode (not standalone): `account` (slug), `accountId`, `zone` and an account
 * key set. Its global host (`accounts.<domain>`) and regional host (`<zone>.rag.<domain>`) do not
 * resolve here, so every URL it builds has its origin replaced by the daemon's; paths stay as the SDK
 * makes them.
 */
export function zoneSdk(url: string, o: { zone: string; account: string; accountId: string; apiKey: string }): Nuclia {
  const nuclia = new Nuclia({
    backend: "https://accounts.kbox.test/api",
    zone: o.zone,
    account: o.account,
    accountId: o.accountId,
    apiKey: o.apiKey,
    client: "kbox-test",
  } as ConstructorParameters<typeof Nuclia>[0]);
  const rest = nuclia.rest as unknown as { getFullUrl: (path: string, zone?: string, authorizer?: boolean) => string };
  const built = rest.getFullUrl.bind(rest);
  const seen: string[] = [];
  rest.getFullUrl = (path, z, a) => {
    const full = built(path, z, a);
    seen.push(full);
    return full.replace(/^https:\/\/[^/]+\.kbox\.test/, url);
  };
  (nuclia as unknown as { builtUrls: string[] }).builtUrls = seen;
  return nuclia;
}
