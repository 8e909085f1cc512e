import { readdirSync, readFileSync } from "node:fs";

/** Resident bytes of a process (all its threads), 0 once it has gone. */
export function rssBytes(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The pids of a process's children (a daemon's extraction workers), none once it has gone. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds (user + system, all threads) a process has used so far, 0 once it has gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The kind of work a thread of kboxd does, from its name (and whether it is the process's own thread). */
function threadKind(name: string, main: boolean): string {
  if (main) return "daemon's thread";
  if (name === "node") return "V8 and libuv";
  if (/^(tokio-rt-worker|lance)/.test(name)) return "LanceDB";
  return name.replace(/[-_ ]?\d+$/, "");
}

/**
 * CPU seconds a process's threads have used so far, by kind: its own thread (the event loop), Node's
 * other threads (V8's compiler and garbage collector, libuv's pool), LanceDB's, and the rest by name.
 */
export function threadSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // gone
  }
  for (const tid of tids) {
    try {
      const st = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const kind = threadKind(st.slice(st.indexOf("(") + 1, st.lastIndexOf(")")), tid === String(pid));
      const f = st.slice(st.lastIndexOf(") ") + 2).split(" ");
      out.set(kind, (out.get(kind) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch {} // the thread ended
  }
  return out;
}

/** What each kind of thread used between two readings of threadSeconds, largest first: "kind 1.2 s, ...". */
export function threadsBetween(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
    .filter(([, v]) => v >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
    .join(", ");
}
