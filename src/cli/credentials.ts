import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CliError, EXIT } from "./errors.js";

/**
 * What the credential functions read of the CLI's context: the config dir, the settings and the
 * KBOX_CREDENTIAL_STORE variable. A Context is one; this module does not import it.
 */
export interface CredentialsContext {
  readonly paths: { readonly config: string };
  readonly config: { readonly settings: Readonly<Record<string, string>> };
  readonly env: { readonly credentialStore?: string };
}

/** Where a profile's API key lives. */
export type SecretBackend = "keyring" | "file";
/** `credentials.store` setting / KBOX_CREDENTIAL_STORE: try the keyring first, or force one backend. */
export type StorePreference = "auto" | "keyring" | "file";

export const KEYRING_SERVICE = "kbox";
/** A keyring that does not answer within this is treated as absent (a locked Secret Service may prompt forever). */
export const KEYRING_TIMEOUT_MS = 1500;

export const credentialsFile = (configDir: string) => join(configDir, "credentials.json");

interface CredentialsFile {
  profiles: Record<string, { api_key: string }>;
}

/** The keyring account of a profile: scoped by config dir, so two KBOX_HOMEs never share a secret. */
export const keyringAccount = (ctx: CredentialsContext, profile: string) => `${profile}@${ctx.paths.config}`;

export interface KeyringStatus {
  available: boolean;
  detail: string;
}

type KeyringModule = typeof import("@napi-rs/keyring");

async function loadKeyring(): Promise<KeyringModule> {
  // Loaded only when a secret is stored or read: the native module costs start-up time.
  return import("@napi-rs/keyring");
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  const t = sleep(ms, undefined, { ref: false }).then(() => {
    throw new Error(`${what} did not answer within ${ms} ms`);
  });
  return Promise.race([p, t]);
}

function timeoutMs(ctx: CredentialsContext): number {
  const v = Number(ctx.config.settings["keyring.timeout_ms"]);
  return Number.isFinite(v) && v > 0 ? v : KEYRING_TIMEOUT_MS;
}

async function keyringCall<T>(
  ctx: CredentialsContext,
  what: string,
  fn: (k: KeyringModule, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ms = timeoutMs(ctx);
  const k = await loadKeyring();
  return withTimeout(fn(k, AbortSignal.timeout(ms)), ms, what);
}

/** Whether the OS keyring answers: a write, read back and delete of a probe entry, bounded in time. */
export async function keyringStatus(ctx: CredentialsContext): Promise<KeyringStatus> {
  const pref = storePreference(ctx);
  if (pref === "file") return { available: false, detail: "disabled (credentials.store=file)" };
  try {
    const got = await keyringCall(ctx, "the OS keyring", async (k, signal) => {
      const e = new k.AsyncEntry(KEYRING_SERVICE, `probe@${ctx.paths.config}`);
      await e.setPassword("probe", signal);
      const v = await e.getPassword(signal);
      await e.deletePassword(signal).catch(() => undefined);
      return v;
    });
    if (got !== "probe") return { available: false, detail: "the OS keyring did not return what was stored" };
    return {
      available: true,
      detail: `OS keyring (${process.platform === "linux" ? "Secret Service / kernel keyring" : process.platform})`,
    };
  } catch (e) {
    return { available: false, detail: `no OS keyring: ${(e as Error).message}` };
  }
}

/** The configured backend preference: KBOX_CREDENTIAL_STORE, else the `credentials.store` setting, else auto. */
export function storePreference(ctx: CredentialsContext): StorePreference {
  const v = ctx.env.credentialStore ?? ctx.config.settings["credentials.store"] ?? "auto";
  if (v === "auto" || v === "keyring" || v === "file") return v;
  throw new CliError(`invalid credential store ${JSON.stringify(v)}`, EXIT.usage, "use auto, keyring or file");
}

function readFile(ctx: CredentialsContext): CredentialsFile {
  const f = credentialsFile(ctx.paths.config);
  if (!existsSync(f)) return { profiles: {} };
  try {
    const c = JSON.parse(readFileSync(f, "utf8")) as Partial<CredentialsFile>;
    return { profiles: { ...c.profiles } };
  } catch {
    throw new CliError(`cannot read ${f}`, EXIT.failure, "fix or remove the file, then `kbox auth login` again");
  }
}

function writeFile(ctx: CredentialsContext, c: CredentialsFile): void {
  const f = credentialsFile(ctx.paths.config);
  mkdirSync(dirname(f), { recursive: true, mode: 0o700 });
  const tmp = `${f}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  // The umask may have widened the mode of a file that already existed under this name.
  chmodSync(tmp, 0o600);
  renameSync(tmp, f);
}

/** The mode of the credentials file, when it exists (doctor warns about anything wider than 0600). */
export function credentialsFileMode(ctx: CredentialsContext): number | undefined {
  const f = credentialsFile(ctx.paths.config);
  return existsSync(f) ? statSync(f).mode & 0o777 : undefined;
}

/** Store a profile's key: in the keyring when it answers (unless `file` is configured), else in the 0600 file. */
export async function saveSecret(
  ctx: CredentialsContext,
  profile: string,
  key: string,
): Promise<{ backend: SecretBackend; location: string; why?: string }> {
  const pref = storePreference(ctx);
  let why: string | undefined;
  if (pref !== "file") {
    const st = await keyringStatus(ctx);
    if (st.available) {
      await keyringCall(ctx, "the OS keyring", (k, signal) =>
        new k.AsyncEntry(KEYRING_SERVICE, keyringAccount(ctx, profile)).setPassword(key, signal),
      );
      removeFromFile(ctx, profile);
      return { backend: "keyring", location: describeSecret(ctx, profile, "keyring") };
    }
    if (pref === "keyring")
      throw new CliError(
        `cannot store the key in the OS keyring: ${st.detail}`,
        EXIT.failure,
        "set `kbox config set credentials.store auto` to fall back to a file",
      );
    why = st.detail;
  }
  const c = readFile(ctx);
  c.profiles[profile] = { api_key: key };
  writeFile(ctx, c);
  return { backend: "file", location: describeSecret(ctx, profile, "file"), why };
}

/** Read a profile's key from where it was stored. */
export async function loadSecret(
  ctx: CredentialsContext,
  profile: string,
  backend: SecretBackend | undefined,
): Promise<string | undefined> {
  if (backend === "keyring") {
    try {
      const v = await keyringCall(ctx, "the OS keyring", (k, signal) =>
        new k.AsyncEntry(KEYRING_SERVICE, keyringAccount(ctx, profile)).getPassword(signal),
      );
      return v ?? undefined;
    } catch (e) {
      throw new CliError(
        `cannot read the key of profile ${profile} from the OS keyring: ${(e as Error).message}`,
        EXIT.auth,
        "unlock the keyring, or set KBOX_API_KEY",
      );
    }
  }
  return readFile(ctx).profiles[profile]?.api_key;
}

function removeFromFile(ctx: CredentialsContext, profile: string): boolean {
  const c = readFile(ctx);
  if (!c.profiles[profile]) return false;
  delete c.profiles[profile];
  writeFile(ctx, c);
  return true;
}

/** Forget a profile's key wherever it is; true when something was removed. */
export async function deleteSecret(
  ctx: CredentialsContext,
  profile: string,
  backend: SecretBackend | undefined,
): Promise<boolean> {
  let removed = removeFromFile(ctx, profile);
  if (backend === "keyring") {
    removed =
      (await keyringCall(ctx, "the OS keyring", (k, signal) =>
        new k.AsyncEntry(KEYRING_SERVICE, keyringAccount(ctx, profile)).deletePassword(signal),
      ).catch(() => false)) || removed;
  }
  return removed;
}

/** Human description of where a secret lives. */
export function describeSecret(ctx: CredentialsContext, profile: string, backend: SecretBackend): string {
  return backend === "keyring"
    ? `OS keyring (service ${KEYRING_SERVICE}, account ${keyringAccount(ctx, profile)})`
    : credentialsFile(ctx.paths.config);
}
