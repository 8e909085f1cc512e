import { readFile } from "node:fs/promises";
import type { Context } from "../../../cli/context.js";
import { usageError } from "../../../cli/errors.js";
import { readStdin } from "../../../cli/prompt.js";

export interface SourceOpts {
  kb?: string;
  config?: string;
  file?: string;
  type?: string;
  description?: string;
  json?: boolean;
}

/** The source from `--config <json>` or `--file <path|->`, with `--type` and `--description` over it. */
export async function sourceOf(ctx: Context, o: SourceOpts): Promise<Record<string, unknown>> {
  const text = o.config ?? (o.file === "-" ? await readStdin(ctx) : o.file ? await readFile(o.file, "utf8") : undefined);
  let s: Record<string, unknown> = {};
  if (text !== undefined) {
    try {
      s = JSON.parse(text);
      if (!s || typeof s !== "object" || Array.isArray(s)) throw new Error("not an object");
    } catch (e) {
      throw usageError(`the source is not a JSON object: ${(e as Error).message}`);
    }
  }
  if (o.type !== undefined) s.type = o.type;
  if (o.description !== undefined) s.description = o.description;
  if (!Object.keys(s).length)
    throw usageError("give the source with --type and --description, --config '<json>' or --file <path|->");
  return s;
}
