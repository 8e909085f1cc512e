import { Command, Option } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as tokens from "../../client/routes/tokens.js";

type Opts = {
  kb?: string;
  ttl?: string;
  groups?: string;
  session?: string;
  path?: string;
  json?: boolean;
  quiet?: boolean;
};

function ttl(opts: Opts): number | undefined {
  if (opts.ttl === undefined) return undefined;
  const n = Number(opts.ttl);
  if (!Number.isInteger(n) || n < 1 || n > 10) throw usageError("--ttl is whole minutes from 1 to 10");
  return n;
}

/** The knowledge box of a token: `--kb`, else the one of the credential (a knowledge-box key). */
async function kbOf(ctx: Context, opts: Opts): Promise<string | undefined> {
  return opts.kb || ctx.env.kb || ctx.profile(opts).kb ? ctx.kbid(opts) : undefined;
}

export async function runToken(ctx: Context, kind: "ephemeral" | "agent" | "secure", opts: Opts): Promise<void> {
  const client = await ctx.client(opts);
  const kb = await kbOf(ctx, opts);
  let res: { token: string; expires: string };
  if (kind === "ephemeral") {
    res = opts.path
      ? await client.call(tokens.ephemeralToken, { body: { kb, path: opts.path, ttl: ttl(opts), agent_session: opts.session } })
      : kb
        ? await client.call(tokens.kbEphemeralToken, {
            params: { account: await ctx.account(opts), kb },
            body: { ttl: ttl(opts), agent_session: opts.session },
          })
        : await client.call(tokens.ephemeralToken, { body: { ttl: ttl(opts), agent_session: opts.session } });
  } else if (kind === "agent") {
    if (!opts.session) throw usageError("an agent key is for one agent session", "pass --session <id>");
    res = await client.call(tokens.agentKey, { body: { kb, agent_session: opts.session, ttl: ttl(opts) } });
  } else {
    const groups = opts.groups
      ? opts.groups
          .split(",")
          .map((g) => g.trim())
          .filter(Boolean)
      : undefined;
    res = await client.call(tokens.temporalKey, { body: { kb, ttl: ttl(opts), security_groups: groups } });
  }
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.token}\n`);
  ctx.status(`${kind} token, expires ${res.expires}`, opts);
}

function verb(ctx: Context, kind: "ephemeral" | "agent" | "secure", description: string): Command {
  const c = new Command(kind)
    .description(description)
    .option("--kb <kb>", "knowledge box (default: the knowledge-box key's own)")
    .addOption(new Option("--ttl <minutes>", "lifetime in minutes, 1 to 10"))
    .option("--json", "print the wire response");
  if (kind === "ephemeral") c.option("--path <path>", "limit the token to requests under this path (/api/v1/kb/…)");
  if (kind !== "secure") c.option("--session <id>", "the agent session it is for");
  if (kind === "secure") c.option("--groups <g1,g2>", "security groups: find and ask see only these");
  const sample = { ephemeral: "--kb notes --ttl 5", agent: "--kb notes --session s-1", secure: "--kb notes --groups sales,eu" }[
    kind
  ];
  c.addHelpText("after", `\nExample:\n  kbox token ${kind} ${sample}`);
  return c.action(async (_o, cmd: Command) => runToken(ctx, kind, ctx.opts(cmd)));
}

/** `kbox token`: short-lived signed tokens, which stop working with the key that made them. */
export function tokenCommand(ctx: Context): Command {
  return new Command("token")
    .description("Short-lived tokens: ephemeral, agent, secure")
    .addCommand(verb(ctx, "ephemeral", "A read-only token for a knowledge box (or one path), for browsers and widgets"))
    .addCommand(verb(ctx, "agent", "A temporal agent key with the key's roles, for one agent session"))
    .addCommand(verb(ctx, "secure", "A temporal secure token: find and ask see only its security groups"))
    .addHelpText(
      "after",
      "\nExamples:\n  kbox token ephemeral --kb notes --ttl 5\n  kbox token secure --kb notes --groups sales,eu --json",
    );
}
