import { existsSync, readFileSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { Command } from "commander";
import { configFile } from "../cli/config.js";
import type { Context } from "../cli/context.js";
import { EXIT } from "../cli/errors.js";
import { printJson, styles } from "../cli/output.js";
import type { KboxClient } from "../client/client.js";

export type CheckStatus = "ok" | "warn" | "fail" | "skip";

/** One line of the report: what was checked, how it went, and how to fix it. */
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

const GiB = 1024 ** 3;
const fmtBytes = (n: number) => (n >= GiB ? `${(n / GiB).toFixed(1)} GiB` : `${(n / 1024 ** 2).toFixed(0)} MiB`);

function checkConfig(ctx: Context): Check {
  const f = configFile(ctx.paths.config);
  if (!existsSync(f)) return { name: "config", status: "ok", detail: `${f} (not created yet: defaults)` };
  try {
    JSON.parse(readFileSync(f, "utf8"));
    return { name: "config", status: "ok", detail: f };
  } catch (e) {
    return {
      name: "config",
      status: "fail",
      detail: `${f}: ${(e as Error).message}`,
      fix: `fix the JSON or move ${f} away (profiles and settings are then reset)`,
    };
  }
}

async function checkSpace(dir: string): Promise<Check> {
  try {
    let probe = dir;
    while (!existsSync(probe) && probe !== "/") probe = probe.replace(/\/[^/]*$/, "") || "/";
    const s = await statfs(probe);
    const free = s.bavail * s.bsize;
    const detail = `${dir}: ${fmtBytes(free)} free`;
    if (free < 200 * 1024 ** 2)
      return { name: "disk", status: "fail", detail, fix: "free space on that file system or move KBOX_HOME / XDG_DATA_HOME" };
    if (free < GiB) return { name: "disk", status: "warn", detail, fix: "less than 1 GiB free: ingestion and models may fail" };
    return { name: "disk", status: "ok", detail };
  } catch (e) {
    return { name: "disk", status: "warn", detail: `${dir}: ${(e as Error).message}` };
  }
}

async function checkKeyring(ctx: Context): Promise<Check[]> {
  const { keyringStatus, credentialsFile, credentialsFileMode } = await import("../cli/credentials.js");
  const k = await keyringStatus(ctx);
  const out: Check[] = [
    k.available
      ? { name: "keyring", status: "ok", detail: k.detail }
      : {
          name: "keyring",
          status: "warn",
          detail: `${k.detail}; API keys go to ${credentialsFile(ctx.paths.config)}`,
          fix: "run a Secret Service (e.g. gnome-keyring) for keyring storage, or keep the 0600 file",
        },
  ];
  const mode = credentialsFileMode(ctx);
  if (mode !== undefined && (mode & 0o077) !== 0) {
    const f = credentialsFile(ctx.paths.config);
    out.push({ name: "credentials", status: "fail", detail: `${f} has mode ${mode.toString(8)}`, fix: `chmod 600 ${f}` });
  }
  return out;
}

/** Daemon (or zone) reachable; the client when it is, for the checks that need it. */
async function checkDaemon(ctx: Context, checks: Check[]): Promise<KboxClient | undefined> {
  const profile = ctx.profile();
  const name = ctx.profileName();
  if (profile.kind === "remote") {
    try {
      const client = await ctx.client(ctx.globals, false);
      const kbs = await import("../client/routes/kbs.js");
      if (profile.kb || ctx.env.kb) await ctx.kbid();
      else await client.call(kbs.listKbs, {});
      checks.push({ name: "zone", status: "ok", detail: `${profile.url} answers with the key of profile ${name}` });
    } catch (e) {
      checks.push({
        name: "zone",
        status: "fail",
        detail: `${profile.url}: ${(e as Error).message}`,
        fix: "check the URL and key: `kbox auth status --check`, `kbox auth login`",
      });
    }
    return undefined;
  }
  const { hello } = await import("../client/connect.js");
  const { PROTOCOL_VERSION } = await import("../client/routes/version.js");
  const client = await ctx.connect({ kind: "unix", socket: ctx.paths.socket });
  const h = await hello(client).catch(() => undefined);
  if (!h) {
    // Not broken: every other command starts it on demand (unless daemon.autostart is false).
    const manual = ctx.config.settings["daemon.autostart"] === "false";
    checks.push({
      name: "daemon",
      status: manual ? "fail" : "warn",
      detail: `kboxd is not running (${ctx.paths.socket})${manual ? "" : "; commands start it on demand"}`,
      fix: "`kbox daemon start`, then run kbox doctor again to check models and tables",
    });
    return undefined;
  }
  if (h.protocol !== PROTOCOL_VERSION) {
    checks.push({
      name: "daemon",
      status: "fail",
      detail: `kboxd ${h.version} speaks protocol ${h.protocol}, this kbox ${PROTOCOL_VERSION}`,
      fix: "`kbox daemon restart`",
    });
    return undefined;
  }
  checks.push({
    name: "daemon",
    status: "ok",
    detail: `kboxd ${h.version} (protocol ${h.protocol}, pid ${h.pid}, data ${h.data_dir})`,
  });
  return client;
}

async function checkModels(client: KboxClient): Promise<Check> {
  try {
    const models = await import("../client/routes/models.js");
    const st = await client.call(models.listModels, {});
    if (st.missing.length) {
      const m = st.missing.map((x) => `${x.model} (kb ${x.kb})`).join(", ");
      return { name: "models", status: "warn", detail: `missing: ${m}`, fix: "`kbox models pull <model>`" };
    }
    if (st.keyword_only)
      return {
        name: "models",
        status: "warn",
        detail: st.notice,
        fix: "`kbox models pull bge-small-en-v1.5` for semantic search",
      };
    return {
      name: "models",
      status: "ok",
      detail: `default embedder ${st.default ?? "none"}${st.reranker ? `, reranker ${st.reranker}` : ""}`,
    };
  } catch (e) {
    return { name: "models", status: "skip", detail: `unknown (${(e as Error).message})` };
  }
}

async function checkTables(client: KboxClient): Promise<Check[]> {
  const api = await import("../client/routes/doctor.js");
  try {
    const r = await client.call(api.doctor, {});
    const tables = [
      ...r.meta.map((t) => ({ ...t, where: "meta" })),
      ...r.kbs.flatMap((k) => k.tables.map((t) => ({ ...t, where: k.slug }))),
    ];
    const bad = tables.filter((t) => !t.ok);
    const out: Check[] = [
      bad.length
        ? {
            name: "tables",
            status: "fail",
            detail: bad.map((t) => `${t.where}/${t.name}: ${t.error}`).join("; "),
            fix: "restore the knowledge box from a backup (`kbox backup restore`), or export and recreate it",
          }
        : {
            name: "tables",
            status: "ok",
            detail: `${tables.length} LanceDB tables in ${r.kbs.length} knowledge boxes open and readable`,
          },
    ];
    if (r.sync) out.push({ name: "sync", status: "ok", detail: `${r.sync.watching.length} folder watcher(s) alive` });
    else out.push({ name: "sync", status: "skip", detail: "no sync feature in this daemon" });
    return out;
  } catch (e) {
    return [{ name: "tables", status: "fail", detail: (e as Error).message, fix: "see `kbox daemon logs`" }];
  }
}

/** Every check, in order; the daemon-side ones only when the daemon answers. */
export async function doctorChecks(ctx: Context): Promise<Check[]> {
  const checks: Check[] = [checkConfig(ctx)];
  checks.push({
    name: "profile",
    status: "ok",
    detail: `${ctx.profileName()} (${ctx.profile().kind}${ctx.profile().url ? ` ${ctx.profile().url}` : ""})`,
  });
  const client = await checkDaemon(ctx, checks);
  if (ctx.profile().kind === "local") checks.push(await checkSpace(ctx.paths.data));
  checks.push(...(await checkKeyring(ctx)));
  if (client) {
    checks.push(await checkModels(client));
    checks.push(...(await checkTables(client)));
  } else if (ctx.profile().kind === "local") {
    for (const name of ["models", "tables", "sync"]) checks.push({ name, status: "skip", detail: "daemon not running" });
  }
  return checks;
}

export async function runDoctor(ctx: Context, opts: { json?: boolean }): Promise<void> {
  const checks = await doctorChecks(ctx);
  const ok = !checks.some((c) => c.status === "fail");
  if (!ok) ctx.exitCode = EXIT.failure;
  if (opts.json) return printJson(ctx.io, { ok, checks });
  const out = ctx.io.stdout;
  if (!out.isTTY) {
    for (const c of checks) out.write(`${c.name}\t${c.status}\t${c.detail}\t${c.fix ?? ""}\n`);
    return;
  }
  const st = styles(ctx.io);
  const mark = { ok: st.green("✓"), warn: st.yellow("!"), fail: st.red("✗"), skip: st.dim("-") };
  const w = Math.max(...checks.map((c) => c.name.length));
  for (const c of checks) {
    out.write(`${mark[c.status]} ${st.bold(c.name.padEnd(w))}  ${c.detail}\n`);
    if (c.fix && c.status !== "ok") out.write(`  ${" ".repeat(w)}  ${st.dim(`fix: ${c.fix}`)}\n`);
  }
  ctx.status(ok ? "no problems found" : "problems found (exit 1)");
}

export function doctorCommand(ctx: Context): Command {
  return new Command("doctor")
    .description("Check the daemon, data dir, models, keyring and LanceDB tables; exits 1 when something is broken")
    .option("--json", "print the checks as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox doctor\n  kbox doctor --json | jq -r '.checks[] | select(.status != \"ok\") | .name'",
    )
    .action(async (_o, cmd: Command) => runDoctor(ctx, ctx.opts(cmd)));
}
