/** Where kbox keeps its things; the one place that knows the layout on disk and in the runtime dir. */
export interface KboxPaths {
  /** Set when KBOX_HOME put everything under one folder. */
  home?: string;
  config: string;
  data: string;
  runtime: string;
  socket: string;
  pid: string;
  logs: string;
}

/** Facts of the host the XDG layout needs. src/api reads no host state: the CLI and the daemon each pass their own. */
export interface HostDirs {
  /** The user's home directory. */
  home: string;
  /** The temp dir, for the per-user runtime dir when XDG_RUNTIME_DIR is unset. */
  tmp: string;
  /** The user's id (a name where there are no uids): the per-user runtime dir's suffix. */
  uid: string | number;
}

/** The variables the layout reads: KBOX_HOME, XDG_RUNTIME_DIR, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME. */
export type PathsEnv = Readonly<Record<string, string | undefined>>;

/** Join with "/" (src/api imports no node:path): repeated and trailing slashes collapse, as path.join does. */
const join = (...parts: string[]) =>
  parts
    .join("/")
    .replace(/\/{2,}/g, "/")
    .replace(/(.)\/$/, "$1");

/**
 * Resolve kbox's folders: KBOX_HOME puts config, data, socket, pid and logs under one dir; else XDG
 * under the host's home and temp dirs (`host` is needed only then).
 */
export function kboxPaths(env: PathsEnv, host?: HostDirs): KboxPaths {
  const home = env.KBOX_HOME;
  if (home) {
    const runtime = join(home, "run");
    return {
      home,
      config: home,
      data: join(home, "data"),
      runtime,
      socket: join(runtime, "kboxd.sock"),
      pid: join(runtime, "kboxd.pid"),
      logs: join(home, "logs"),
    };
  }
  if (!host) throw new Error("kboxPaths: without KBOX_HOME the layout needs the host's home and temp dirs");
  const h = host.home;
  const runtime = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, "kbox") : join(host.tmp, `kbox-${host.uid}`);
  return {
    config: join(env.XDG_CONFIG_HOME || join(h, ".config"), "kbox"),
    data: join(env.XDG_DATA_HOME || join(h, ".local", "share"), "kbox"),
    runtime,
    socket: join(runtime, "kboxd.sock"),
    pid: join(runtime, "kboxd.pid"),
    logs: join(env.XDG_STATE_HOME || join(h, ".local", "state"), "kbox"),
  };
}
