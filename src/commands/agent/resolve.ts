import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import * as kbs from "../../client/routes/kbs.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account agents live in: the profile's (remote), else the local daemon's default one. */
export async function agentAccount(ctx: Context, o: GlobalOptions): Promise<string> {
  return (await ctx.accountForm(o)) ?? "local";
}

/** An agent's id from its id or slug (`--agent`, or the argument). */
export async function agentId(ctx: Context, ref: string | undefined, o: GlobalOptions): Promise<string> {
  if (!ref) throw usageError("name the agent: --agent <slug|id>");
  if (UUID.test(ref)) return ref;
  const list = await (await ctx.client(o)).call(kbs.accountListKbs, {
    params: { account_id: await agentAccount(ctx, o) },
    query: { mode: "agents" },
  });
  const hit = list.find((a) => a.slug === ref);
  if (!hit) throw new CliError(`no agent ${ref} (kbox agent list)`, EXIT.failure);
  return hit.id;
}

/** A JSON object given on the command line. */
export function jsonObject(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text);
    if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
    return v;
  } catch (e) {
    throw usageError(`${what} is not a JSON object: ${(e as Error).message}`);
  }
}
