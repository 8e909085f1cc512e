import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * What a remote profile's secret is, and so the header it travels in: a service-account key (of one
 * knowledge box, or account-wide: `X-NUCLIA-SERVICEACCOUNT`), a user's personal access token
 * (`Authorization: Bearer`), or an understanding-API key (`X-NUCLIA-NUAKEY`).
 */
export type CredentialKind = "kb-key" | "account-key" | "user-token" | "nua-key";
export const CREDENTIAL_KINDS: readonly CredentialKind[] = ["kb-key", "account-key", "user-token", "nua-key"];

/** A named connection: the local daemon, or a remote zone with a credential. */
export interface Profile {
  kind: "local" | "remote";
  /** Remote: the zone (or daemon) base URL. */
  url?: string;
  /** The knowledge box this profile works on by default. */
  kb?: string;
  /** Remote: where its API key is stored (see src/cli/credentials.ts). */
  secret?: "keyring" | "file";
  /** Remote: what the stored secret is (default kb-key). */
  credential?: CredentialKind;
  /** The account (id or slug) account-level commands work on; default: the credential's own. */
  account?: string;
}

/** The CLI's persistent settings (`kbox config`, `kbox kb use`, profiles). */
export interface Config {
  current_profile?: string;
  profiles: Record<string, Profile>;
  /** Free settings of `kbox config set`. */
  settings: Record<string, string>;
}

export const configFile = (configDir: string) => join(configDir, "config.json");

export function loadConfig(configDir: string): Config {
  const f = configFile(configDir);
  const base: Config = { profiles: { local: { kind: "local" } }, settings: {} };
  if (!existsSync(f)) return base;
  try {
    const c = JSON.parse(readFileSync(f, "utf8")) as Partial<Config>;
    return { ...base, ...c, profiles: { ...base.profiles, ...c.profiles }, settings: { ...c.settings } };
  } catch {
    return base;
  }
}

/** Written atomically with mode 0600. */
export function saveConfig(configDir: string, config: Config): void {
  const f = configFile(configDir);
  mkdirSync(dirname(f), { recursive: true, mode: 0o700 });
  const tmp = `${f}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, f);
}
