import { homedir, tmpdir, userInfo } from "node:os";
import { join } from "node:path";

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

/** Resolve kbox's folders: KBOX_HOME puts config, data, socket, pid and logs under one dir; else XDG. */
export function kboxPaths(env: NodeJS.ProcessEnv = process.env): KboxPaths {
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
  const h = homedir();
  const uid = typeof process.getuid === "function" ? process.getuid() : userInfo().username;
  const runtime = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, "kbox") : join(tmpdir(), `kbox-${uid}`);
  return {
    config: join(env.XDG_CONFIG_HOME || join(h, ".config"), "kbox"),
    data: join(env.XDG_DATA_HOME || join(h, ".local", "share"), "kbox"),
    runtime,
    socket: join(runtime, "kboxd.sock"),
    pid: join(runtime, "kboxd.pid"),
    logs: join(env.XDG_STATE_HOME || join(h, ".local", "state"), "kbox"),
  };
}
