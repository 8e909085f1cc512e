import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import { checkProfileName, normaliseUrl } from "./shared.js";

export interface ProfileAddOptions {
  url?: string;
  kb?: string;
  use?: boolean;
  force?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** Add (or with --force replace) a profile: remote with --url, else another view of the local daemon. */
export function runProfileAdd(ctx: Context, name: string, opts: ProfileAddOptions): void {
  checkProfileName(name);
  const existing = ctx.config.profiles[name];
  if (existing && !opts.force)
    throw usageError(`profile ${name} already exists`, "pass --force to replace it, or `kbox profile remove` it first");
  if (name === "local" && opts.url)
    throw usageError("the profile named local is the local daemon", "choose another name for a remote zone");
  const profile = opts.url
    ? { kind: "remote" as const, url: normaliseUrl(opts.url), kb: opts.kb, secret: existing?.secret }
    : { kind: "local" as const, kb: opts.kb };
  ctx.config.profiles[name] = profile;
  if (opts.use) ctx.config.current_profile = name;
  ctx.saveConfig();
  if (opts.json) {
    printJson(ctx.io, { name, ...profile });
    return;
  }
  const where = profile.kind === "remote" ? `remote ${profile.url}` : "local daemon";
  ctx.status(`added profile ${name} (${where})${opts.use ? ", now active" : ""}`, opts);
  if (profile.kind === "remote" && !profile.secret)
    ctx.status(`store its API key with: kbox auth login --profile ${name} --zone ${profile.url} --api-key -`, opts);
}

export function profileAddCommand(ctx: Context): Command {
  return new Command("add")
    .description("Add a profile: a remote zone (--url) or the local daemon with its own default KB")
    .argument("<name>", "profile name")
    .option("--url <url>", "remote zone or kbox daemon base URL (with or without /api/v1)")
    .option("--kb <kb>", "default knowledge box (slug or uuid) of this profile")
    .option("--use", "make it the active profile")
    .option("--force", "replace an existing profile of that name")
    .option("--json", "print the profile as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox profile add work --url https://europe-1.nuclia.cloud --kb 7c0e…\n  kbox profile add scratch --kb scratch-notes --use",
    )
    .action((name: string, _o, cmd: Command) => runProfileAdd(ctx, name, ctx.opts(cmd)));
}
