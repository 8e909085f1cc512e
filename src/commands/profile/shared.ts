import type { Context } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Profile names are plain words, so they work as file keys and shell words. */
export function checkProfileName(name: string): string {
  if (!NAME.test(name)) throw usageError(`invalid profile name ${JSON.stringify(name)}`, "use letters, digits, '.', '_' and '-'");
  return name;
}

/** A zone or daemon base URL, normalised without a trailing /api/v1 (the transport adds it). */
export function normaliseUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw usageError(`invalid URL ${JSON.stringify(raw)}`, "e.g. https://europe-1.nuclia.cloud or http://127.0.0.1:8080");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw usageError(`unsupported URL scheme ${u.protocol}`, "use http:// or https://");
  u.pathname = u.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return u.toString().replace(/\/+$/, "");
}

/** The named profile, or a usage error listing what exists. */
export function requireProfile(ctx: Context, name: string) {
  const p = ctx.config.profiles[name];
  if (!p)
    throw new CliError(
      `no profile named ${JSON.stringify(name)}`,
      EXIT.usage,
      `profiles: ${Object.keys(ctx.config.profiles).join(", ")}`,
    );
  return p;
}
