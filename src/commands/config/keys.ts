/** A setting `kbox config set` accepts: a description and a validator returning an error or undefined. */
export interface ConfigKey {
  description: string;
  /** Allowed values, shown in help and used for completion. */
  values?: string[];
  validate?: (v: string) => string | undefined;
  default?: string;
}

const oneOf = (values: string[]) => (v: string) => (values.includes(v) ? undefined : `must be one of ${values.join(", ")}`);
const positiveInt = (v: string) => (/^[1-9][0-9]*$/.test(v) ? undefined : "must be a positive integer");

/** Known settings; other areas add theirs with registerConfigKey (at import time, before `kbox config` runs). */
export const CONFIG_KEYS: Record<string, ConfigKey> = {
  "credentials.store": {
    description: "where `kbox auth login` keeps API keys: auto (OS keyring, else a 0600 file), keyring or file",
    values: ["auto", "keyring", "file"],
    default: "auto",
  },
  "keyring.timeout_ms": {
    description: "how long to wait for the OS keyring before treating it as absent",
    validate: positiveInt,
    default: "1500",
  },
  "daemon.autostart": {
    description: "start the local daemon on demand when a command needs it",
    values: ["true", "false"],
    default: "true",
  },
  progress: {
    description: "progress bars on a terminal: auto (TTY only) or never",
    values: ["auto", "never"],
    default: "auto",
  },
};

/** Let another area declare a setting it reads. */
export function registerConfigKey(name: string, key: ConfigKey): void {
  CONFIG_KEYS[name] = key;
}

/** An error message for a bad value, or undefined when it is fine. */
export function validateConfigValue(name: string, value: string): string | undefined {
  const k = CONFIG_KEYS[name];
  if (!k) return "unknown key";
  if (k.values) return oneOf(k.values)(value);
  return k.validate?.(value);
}
