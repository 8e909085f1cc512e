import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A named connection: the local daemon, or a remote zone with a knowledge box API key. */
export interface Profile {
  kind: "local" | "remote";
  /** Remote: the zone (or daemon) base URL. */
  url?: string;
  /** The knowledge box this profile works on by default. */
  kb?: string;
  /** Remote: where its API key is stored (see src/cli/credentials.ts). */
  secret?: "keyring" | "file";
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
