import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { deleteSecret } from "../../cli/credentials.js";
import { usageError } from "../../cli/errors.js";
import { requireProfile } from "../profile/shared.js";

/** Forget the stored key of a remote profile (the profile stays; `kbox profile remove` drops it). */
export async function runAuthLogout(ctx: Context, opts: { profile?: string; quiet?: boolean }): Promise<void> {
  const name = ctx.profileName(opts);
  const p = requireProfile(ctx, name);
  if (p.kind !== "remote") throw usageError(`profile ${name} is local and has no key`, "pass --profile <remote profile>");
  const removed = await deleteSecret(ctx, name, p.secret);
  ctx.config.profiles[name] = { ...p, secret: undefined };
  ctx.saveConfig();
  ctx.status(removed ? `removed the API key of profile ${name}` : `profile ${name} had no stored key`, opts);
}

export function authLogoutCommand(ctx: Context): Command {
  return new Command("logout")
    .description("Forget the API key of a remote profile (the active one, or --profile)")
    .addHelpText("after", "\nExamples:\n  kbox auth logout\n  kbox auth logout --profile work")
    .action(async (_o, cmd: Command) => runAuthLogout(ctx, ctx.opts(cmd)));
}
