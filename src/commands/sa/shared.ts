import type { Context, GlobalOptions } from "../../cli/context.js";

/** Service accounts of the account (`--account`, else the credential's), scoped to `--kb` or account-wide (`*`). */
export async function saScope(ctx: Context, opts: GlobalOptions): Promise<{ account_id: string; kb_id: string }> {
  return { account_id: await ctx.account(opts), kb_id: opts.kb ? await ctx.kbid(opts) : "*" };
}

/** `30d`, `12h`, `1y` or an ISO date into an ISO date-time. */
export function parseExpiry(s: string, now = Date.now()): string | undefined {
  const m = /^(\d+)([hdwy])$/.exec(s.trim());
  if (m) {
    const unit = { h: 3600e3, d: 86400e3, w: 7 * 86400e3, y: 365 * 86400e3 }[m[2] as "h" | "d" | "w" | "y"];
    return new Date(now + Number(m[1]) * unit).toISOString();
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}
