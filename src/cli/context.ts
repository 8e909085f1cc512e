import type { Command } from "commander";
import { type KboxPaths, kboxPaths } from "../api/paths.js";
import type { KboxClient } from "../client/client.js";
import { ApiError } from "../client/errors.js";
import { type Config, loadConfig, type Profile, saveConfig } from "./config.js";
import { CliError, EXIT } from "./errors.js";
import type { IO } from "./io.js";
import { status } from "./output.js";

/** Options every command accepts (some only where they make sense). */
export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
  yes?: boolean;
  kb?: string;
  profile?: string;
}

/** The name under which KBOX_URL (with KBOX_API_KEY) acts as a profile. */
export const ENV_PROFILE = "$KBOX_URL";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a command needs: IO, paths, config, the chosen profile, and a client made on demand. */
export class Context {
  readonly paths: KboxPaths;
  exitCode: number = EXIT.ok;
  private cfg?: Config;
  private clients = new Map<string, Promise<KboxClient>>();
  /** Global options parsed from the root command (set by the program before an action runs). */
  globals: GlobalOptions = {};

  constructor(readonly io: IO) {
    this.paths = kboxPaths(io.env);
  }

  get config(): Config {
    this.cfg ??= loadConfig(this.paths.config);
    return this.cfg;
  }

  saveConfig(): void {
    saveConfig(this.paths.config, this.config);
  }

  /** Options of a command merged with the global ones. */
  opts<T>(cmd: Command): T & GlobalOptions {
    return { ...this.globals, ...cmd.optsWithGlobals() } as T & GlobalOptions;
  }

  profileName(opts: GlobalOptions = this.globals): string {
    const env = this.io.env;
    // KBOX_URL is an ad-hoc remote profile for scripts; an explicit profile still wins.
    // Empty variables count as unset (`KBOX_PROFILE= kbox …`).
    if (!opts.profile && !env.KBOX_PROFILE && env.KBOX_URL) return ENV_PROFILE;
    return opts.profile || env.KBOX_PROFILE || this.config.current_profile || "local";
  }

  profile(opts: GlobalOptions = this.globals): Profile {
    const name = this.profileName(opts);
    if (name === ENV_PROFILE) return { kind: "remote", url: this.io.env.KBOX_URL };
    const p = this.config.profiles[name];
    if (!p) throw new CliError(`no profile named ${JSON.stringify(name)}`, EXIT.usage, "list them with `kbox profile list`");
    return p;
  }

  status(msg: string, opts: GlobalOptions = this.globals): void {
    status(this.io, opts.quiet, msg);
  }

  /** A client for the active profile; the local daemon is started when needed unless `autostart` is false. */
  client(opts: GlobalOptions = this.globals, autostart = true): Promise<KboxClient> {
    const name = this.profileName(opts);
    const key = `${name}:${autostart}`;
    let c = this.clients.get(key);
    if (!c) {
      c = this.makeClient(name, this.profile(opts), autostart, opts);
      this.clients.set(key, c);
      c.catch(() => this.clients.delete(key));
    }
    return c;
  }

  private async makeClient(name: string, profile: Profile, autostart: boolean, opts: GlobalOptions): Promise<KboxClient> {
    const { KboxClient } = await import("../client/client.js");
    if (profile.kind === "remote") {
      if (!profile.url) throw new CliError(`profile ${name} has no URL`, EXIT.usage);
      const apiKey = this.io.env.KBOX_API_KEY ?? (await this.secret(name, profile));
      return new KboxClient({ kind: "http", baseUrl: profile.url, apiKey });
    }
    const { connectLocal } = await import("../client/connect.js");
    if (this.config.settings["daemon.autostart"] === "false") autostart = false;
    return connectLocal(this.paths, { autostart, env: this.io.env, notice: (m) => this.status(m, opts) });
  }

  /** The stored API key of a remote profile (keyring or credentials file; loaded lazily). */
  secret = async (name: string, profile: Profile): Promise<string | undefined> =>
    (await import("./credentials.js")).loadSecret(this, name, profile.secret);

  /**
   * The knowledge box a command works on: `--kb` (slug or uuid), KBOX_KB, the profile's KB, or the
   * current KB set by `kbox kb use`. Returns its uuid.
   */
  async kbid(opts: GlobalOptions = this.globals): Promise<string> {
    const ref = opts.kb || this.io.env.KBOX_KB || this.profile(opts).kb;
    if (!ref)
      throw new CliError("no knowledge box selected", EXIT.usage, "pass --kb <slug>, set KBOX_KB, or run `kbox kb use <slug>`");
    const client = await this.client(opts);
    // Loaded here, not at start-up: the wire schemas are only needed once a request is made.
    const { getKb, getKbBySlug } = await import("../client/routes/kbs.js");
    try {
      if (UUID.test(ref)) return (await client.call(getKb, { params: { kbid: ref } })).uuid;
      return (await client.call(getKbBySlug, { params: { slug: ref } })).uuid;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        throw new CliError(`knowledge box ${JSON.stringify(ref)} not found`, EXIT.failure, "list them with `kbox kb list`");
      }
      throw e;
    }
  }
}
