import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return looksLikeKboxd(pid);
}

/**
 * After a crash and a reboot (or just time) the recorded pid may belong to another program; where
 * /proc tells us the command line, a process that is not kboxd does not hold the lock.
 */
function looksLikeKboxd(pid: number): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return true;
  }
  return /kboxd/.test(cmdline);
}

/**
 * Take the pid lock: created exclusively, so two daemons starting at once cannot both win.
 * A pid file left by a killed daemon (its process is gone) is removed and the lock retried.
 * Returns the pid of the running owner when the lock is held by a live daemon.
 */
export function acquirePidLock(pidFile: string): { ok: true } | { ok: false; pid: number } {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(pidFile, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return { ok: true };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(pidFile, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) return { ok: false, pid };
      rmSync(pidFile, { force: true });
    }
  }
  throw new Error(`could not take the pid lock ${pidFile}`);
}

/** Remove the pid file if it is still ours. */
export function releasePidLock(pidFile: string): void {
  try {
    if (existsSync(pidFile) && Number(readFileSync(pidFile, "utf8").trim()) === process.pid) rmSync(pidFile, { force: true });
  } catch {
    /* already gone */
  }
}

/** The pid recorded in a pid file, if that process is alive. */
export function runningPid(pidFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
