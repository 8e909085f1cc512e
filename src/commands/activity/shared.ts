import type { Command } from "commander";
import { CliError, EXIT } from "../../cli/errors.js";
import { AGGREGATIONS, EVENT_TYPES } from "../../client/routes/activity.js";

/** The month a `--month` names (YYYY-MM), this month by default. */
export function monthOf(value: string | undefined): string {
  const m = value ?? new Date().toISOString().slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(m)) throw new CliError(`--month must be YYYY-MM, not ${JSON.stringify(m)}`, EXIT.usage);
  return m;
}

export function eventOf(value: string | undefined): (typeof EVENT_TYPES)[number] {
  const e = value ?? "ask";
  if (!(EVENT_TYPES as readonly string[]).includes(e))
    throw new CliError(`unknown event type ${JSON.stringify(e)}`, EXIT.usage, `one of: ${EVENT_TYPES.join(", ")}`);
  return e as (typeof EVENT_TYPES)[number];
}

export function aggregationOf(value: string | undefined): (typeof AGGREGATIONS)[number] {
  const a = value ?? "day";
  if (!(AGGREGATIONS as readonly string[]).includes(a))
    throw new CliError(`--by must be one of ${AGGREGATIONS.join(", ")}`, EXIT.usage);
  return a as (typeof AGGREGATIONS)[number];
}

/** `--since 7d`, `--since 24h` or an ISO date: the start of a range (7 days ago by default). */
export function sinceOf(value: string | undefined): string {
  const v = value ?? "7d";
  const rel = /^(\d+)([hdw])$/.exec(v);
  if (rel) {
    const unit = { h: 3600_000, d: 86_400_000, w: 7 * 86_400_000 }[rel[2] as "h" | "d" | "w"];
    return new Date(Date.now() - Number(rel[1]) * unit).toISOString();
  }
  if (Number.isNaN(Date.parse(v)))
    throw new CliError(`--since must be like 7d, 24h, 2w or a date, not ${JSON.stringify(v)}`, EXIT.usage);
  return new Date(v).toISOString();
}

export interface FilterOptions {
  filter?: string;
  where?: string[];
  meta?: string[];
}

/** Filters from `--filter <json>`, `--where member=value` (eq) and `--meta key=value` (audit metadata eq). */
export function filtersOf(o: FilterOptions): Record<string, unknown> {
  let filters: Record<string, unknown> = {};
  if (o.filter) {
    try {
      filters = JSON.parse(o.filter) as Record<string, unknown>;
    } catch {
      throw new CliError(
        "--filter must be a JSON object of members and operators",
        EXIT.usage,
        `e.g. '{"user_id":{"eq":"ana"}}'`,
      );
    }
  }
  for (const w of o.where ?? []) {
    const [k, ...rest] = w.split("=");
    if (!k || !rest.length) throw new CliError(`--where must be member=value, not ${JSON.stringify(w)}`, EXIT.usage);
    filters[k] = { eq: rest.join("=") };
  }
  const meta = (o.meta ?? []).map((w) => {
    const [key, ...rest] = w.split("=");
    if (!key || !rest.length) throw new CliError(`--meta must be key=value, not ${JSON.stringify(w)}`, EXIT.usage);
    return { key, eq: rest.join("=") };
  });
  if (meta.length) filters.audit_metadata = [...((filters.audit_metadata as unknown[]) ?? []), ...meta];
  return filters;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** The filter flags list and download share. */
export function filterFlags(cmd: Command): Command {
  return cmd
    .option("--month <YYYY-MM>", "the month to read (default: this month)")
    .option("--filter <json>", "filters as JSON: members with eq, ne, gt, ge, lt, le, isnull, isin, isnotin, like, ilike")
    .option("--where <member=value>", "only rows whose member equals value (repeatable)", collect)
    .option("--meta <key=value>", "only rows whose audit metadata has key=value (repeatable)", collect)
    .option("--show <members>", "members to show, comma-separated, or all");
}

export function showOf(value: string | undefined, fallback: string[]): string[] | "all" {
  if (value === "all") return "all";
  return value
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : fallback;
}
