import type { Context } from "../../cli/context.js";
import { printFields } from "../../cli/output.js";
import type * as gr from "../../client/routes/guardrails.js";

/** Account routes take the account by id or slug; "local" names the caller's default account. */
export const ACCOUNT = { account_id: "local" };

export function printPolicy(ctx: Context, p: gr.GuardrailPolicy): void {
  printFields(ctx.io, [
    ["id", p.id],
    ["name", p.name],
    ["enabled", String(p.enabled)],
    ["blocking", String(p.blocking)],
    ["query", p.query],
    ["instruction", p.instruction],
    ["description", p.description ?? ""],
  ]);
}
