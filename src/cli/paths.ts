import { homedir, tmpdir, userInfo } from "node:os";
import { type HostDirs, type KboxPaths, kboxPaths } from "../api/paths.js";
import type { EnvRecord } from "./env.js";

export type { KboxPaths };

/** The host's home and temp dirs and user id, for the XDG layout. */
export function hostDirs(): HostDirs {
  return { home: homedir(), tmp: tmpdir(), uid: typeof process.getuid === "function" ? process.getuid() : userInfo().username };
}

/** Where kbox keeps its things for an environment: KBOX_HOME, else XDG over this host's dirs (looked up only then). */
export function cliPaths(env: EnvRecord): KboxPaths {
  return kboxPaths(env, env.KBOX_HOME ? undefined : hostDirs());
}
