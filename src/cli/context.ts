import type { Command } from "commander";
import type { KboxClient } from "../client/client.js";
import { ApiError } from "../client/errors.js";
import type { Target, Transport } from "../client/transport.js";
import { type Config, loadConfig, type Profile, saveConfig } from "./config.js";
import { type CliEnv, parseEnv } from "./env.js";
import { CliError, EXIT } from "./errors.js";
import type { IO } from "./io.js";
import { status } from "./output.js";
import { cliPaths, type KboxPaths } from "./paths.js";

/** Options every command accepts (some only where they make sense). */
export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
  yes?: boolean;
  kb?: string;
  profile?: string;
  account?: string;
}

/** What a context is built from besides its IO: the seams tests replace (as gh's Factory). */
export interface ContextDeps {
  /**
   * How requests travel to a target (the local socket, a zone URL): node:http by default. A test
   * passes a fake that records the requests and answers canned wire responses, so a verb's flags
   * and output are tested without a daemon.
   */
  transport?: (target: Target) => Transport;
}

/** The name under which KBOX_URL (with KBOX_API_KEY) acts as a profile. */
export const ENV_PROFILE = "$KBOX_URL";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a command needs: IO, the environment, paths, config, the chosen profile, and clients made on demand. */
export class Context {
  /** The environment, parsed once from the IO's (the only way a command sees a variable). */
  readonly env: CliEnv;
  readonly paths: KboxPaths;
  exitCode: number = EXIT.ok;
  private cfg?: Config;
  private clients = new Map<string, Promise<KboxClient>>();
  /** Global options parsed from the root command (set by the program before an action runs). */
  globals: GlobalOptions = {};

  constructor(
    readonly io: IO,
    private readonly deps: ContextDeps = {},
  ) {
    this.env = parseEnv(io.env);
    this.paths = cliPaths(io.env);
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
    const env = this.env;
    // KBOX_URL is an ad-hoc remote profile for scripts; an explicit profile still wins.
    // Empty variables count as unset (`KBOX_PROFILE= kbox …`).
    if (!opts.profile && !env.profile && env.url) return ENV_PROFILE;
    return opts.profile || env.profile || this.config.current_profile || "local";
  }

  profile(opts: GlobalOptions = this.globals): Profile {
    const name = this.profileName(opts);
    if (name === ENV_PROFILE)
      return { kind: "remote", url: this.env.url, credential: this.env.credentialKind as Profile["credential"] };
    const p = this.config.profiles[name];
    if (!p) throw new CliError(`no profile named ${JSON.stringify(name)}`, EXIT.usage, "list them with `kbox profile list`");
    return p;
  }

  status(msg: string, opts: GlobalOptions = this.globals): void {
    status(this.io, opts.quiet, msg);
  }

  /** A client for a target (the local socket, a zone URL), through the context's transport; never starts a daemon. */
  async connect(target: Target): Promise<KboxClient> {
    const { KboxClient } = await import("../client/client.js");
    return new KboxClient(target, this.deps.transport?.(target));
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
    if (profile.kind === "remote") {
      if (!profile.url) throw new CliError(`profile ${name} has no URL`, EXIT.usage);
      const apiKey = this.env.apiKey ?? (await this.secret(name, profile));
      return this.connect({ kind: "http", baseUrl: profile.url, apiKey, credential: profile.credential });
    }
    const { connectLocal } = await import("../client/connect.js");
    if (this.config.settings["daemon.autostart"] === "false") autostart = false;
    return connectLocal(this.paths, {
      autostart,
      env: this.env.raw,
      notice: (m) => this.status(m, opts),
      transport: this.deps.transport,
    });
  }

  /** The stored API key of a remote profile (keyring or credentials file; loaded lazily). */
  secret = async (name: string, profile: Profile): Promise<string | undefined> =>
    (await import("./credentials.js")).loadSecret(this, name, profile.secret);

  private accountRef?: Promise<string>;

  /**
   * The account whose account-level paths a knowledge-box command uses (`/account/{a}/kbs`...):
   * one named (`--account`, KBOX_ACCOUNT, the profile's), or the credential's own when it is not a
   * knowledge-box key. undefined: a knowledge-box key or the local socket without an account, which
   * keep the knowledge-box paths (`/kbs`, `/kb/{id}`) every zone also serves.
   */
  async accountForm(opts: GlobalOptions = this.globals): Promise<string | undefined> {
    const p = this.profile(opts);
    if (opts.account || this.env.account || p.account) return this.account(opts);
    if (p.kind === "remote" && p.credential && p.credential !== "kb-key") return this.account(opts);
    return undefined;
  }

  /**
   * The account account-level commands work on: `--account`, KBOX_ACCOUNT, the profile's, else the
   * one the credential belongs to (the zone's `GET /api/authorizer/info`; the default account on the socket).
   */
  account(opts: GlobalOptions = this.globals): Promise<string> {
    const ref = opts.account || this.env.account || this.profile(opts).account;
    if (ref) return Promise.resolve(ref);
    this.accountRef ??= (async () => {
      const { authorizerInfo } = await import("../client/routes/zone.js");
      const info = await (await this.client(opts)).call(authorizerInfo);
      const id = info.user?.account_id;
      if (!id) throw new CliError("the zone did not say which account this credential belongs to", EXIT.usage, "pass --account");
      return id;
    })();
    return this.accountRef;
  }

  /**
   * The knowledge box a command works on: `--kb` (slug or uuid), KBOX_KB, the profile's KB, or the
   * current KB set by `kbox kb use`. Returns its uuid.
   */
  async kbid(opts: GlobalOptions = this.globals): Promise<string> {
    const ref = opts.kb || this.env.kb || this.profile(opts).kb;
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
