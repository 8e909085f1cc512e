/** An environment as a record of variables (the process's, or a test's). */
export type EnvRecord = NodeJS.ProcessEnv;

/**
 * The environment as the CLI reads it: every variable a command or the context looks at, parsed
 * once and handed down through the Context. The raw record comes in the IO (processIO in
 * src/cli/io.ts, the process boundary, is the one place the CLI reads the process's environment).
 * Values keep the difference between unset and empty: each reader decides what an empty one
 * means, as it always has.
 */
export interface CliEnv {
  /** KBOX_PROFILE: the profile to use, under `--profile`. */
  profile?: string;
  /** KBOX_URL: an ad-hoc remote profile for scripts (with KBOX_API_KEY). */
  url?: string;
  /** KBOX_API_KEY: the key of a remote profile, over the stored one. */
  apiKey?: string;
  /** KBOX_ACCOUNT: the account (id or slug), under `--account`. */
  account?: string;
  /** KBOX_CREDENTIAL_KIND: what KBOX_API_KEY is (kb-key, account-key, user-token, nua-key). */
  credentialKind?: string;
  /** KBOX_KB: the knowledge box, under `--kb`. */
  kb?: string;
  /** KBOX_CREDENTIAL_STORE: auto, keyring or file, over the `credentials.store` setting. */
  credentialStore?: string;
  /** KBOX_HF_ENDPOINT: the model hub `kbox models pull` asks the daemon to use. */
  hfEndpoint?: string;
  /** KBOX_EMBEDDINGS_API_KEY: the key `kbox models add` registers, under `--api-key`. */
  embeddingsApiKey?: string;
  /** NO_COLOR is set (to anything) or TERM is dumb: no ANSI styles. */
  noColor: boolean;
  /** TERM is dumb: no redrawn progress bars either. */
  dumbTerminal: boolean;
  /** Every variable, as a daemon the CLI starts inherits them. */
  raw: EnvRecord;
}

/** NO_COLOR set (to anything, as no-color.org says) or a dumb terminal: no ANSI styles. */
export const noColor = (raw: EnvRecord): boolean => "NO_COLOR" in raw || raw.TERM === "dumb";

/** Parse an environment (the path layout's variables are src/cli/paths.ts's). */
export function parseEnv(raw: EnvRecord): CliEnv {
  return {
    profile: raw.KBOX_PROFILE,
    url: raw.KBOX_URL,
    apiKey: raw.KBOX_API_KEY,
    kb: raw.KBOX_KB,
    account: raw.KBOX_ACCOUNT,
    credentialKind: raw.KBOX_CREDENTIAL_KIND,
    credentialStore: raw.KBOX_CREDENTIAL_STORE,
    hfEndpoint: raw.KBOX_HF_ENDPOINT,
    embeddingsApiKey: raw.KBOX_EMBEDDINGS_API_KEY,
    noColor: noColor(raw),
    dumbTerminal: raw.TERM === "dumb",
    raw,
  };
}
