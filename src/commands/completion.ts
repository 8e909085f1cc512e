import { setTimeout as sleep } from "node:timers/promises";
import { Argument, Command } from "commander";
import { SHELLS, type Shell } from "../cli/completion.js";
import type { Context } from "../cli/context.js";
import * as kbs from "../client/routes/kbs.js";

/** Print the completion script of a shell: the same text as completions/ in the package. */
export async function runCompletion(ctx: Context, cmd: Command, shell: Shell): Promise<void> {
  const { completionScript } = await import("../cli/completion.js");
  let root = cmd;
  while (root.parent) root = root.parent;
  ctx.io.stdout.write(completionScript(root, shell));
}

export function completionCommand(ctx: Context): Command {
  return new Command("completion")
    .description("Print a shell completion script (bash, zsh or fish)")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  source <(kbox completion bash)                      # bash, this shell",
        "  kbox completion bash > ~/.local/share/bash-completion/completions/kbox",
        '  kbox completion zsh > "${fpath[1]}/_kbox"           # zsh',
        "  kbox completion fish > ~/.config/fish/completions/kbox.fish",
      ].join("\n"),
    )
    .action((shell: Shell, _o, cmd: Command) => runCompletion(ctx, cmd, shell));
}

/** How long a completion may wait for the daemon before it offers nothing. */
const COMPLETE_TIMEOUT_MS = 1000;

/** Candidate words for the completion scripts; never starts the daemon, prints nothing on any error. */
export async function runComplete(ctx: Context, what: string): Promise<void> {
  if (what === "profiles") {
    for (const name of Object.keys(ctx.config.profiles)) ctx.io.stdout.write(`${name}\n`);
    return;
  }
  if (what !== "kbs") return;
  const work = (async () => {
    const client = await ctx.client(ctx.globals, false);
    return client.call(kbs.listKbs, {});
  })();
  const timeout = sleep(COMPLETE_TIMEOUT_MS, undefined, { ref: false });
  const res = await Promise.race([work, timeout]).catch(() => undefined);
  for (const kb of res?.kbs ?? []) ctx.io.stdout.write(`${kb.slug}\n`);
}

/** `kbox __complete <kbs|profiles>`: hidden, used by the completion scripts. */
export function completeCommand(ctx: Context): Command {
  return new Command("__complete")
    .description("Completion candidates (used by the completion scripts)")
    .argument("<what>", "kbs or profiles")
    .action((what: string) => runComplete(ctx, what));
}
