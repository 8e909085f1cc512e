import { sqlString } from "./db.js";

/** SQL building blocks for LanceDB (DataFusion) prefilters over the paragraphs table. */

export const TRUE = "true";
export const FALSE = "false";

export function and(parts: string[]): string {
  const p = parts.filter((x) => x !== TRUE);
  if (p.includes(FALSE)) return FALSE;
  if (!p.length) return TRUE;
  return p.length === 1 ? p[0] : p.map((x) => `(${x})`).join(" AND ");
}

export function or(parts: string[]): string {
  const p = parts.filter((x) => x !== FALSE);
  if (p.includes(TRUE)) return TRUE;
  if (!p.length) return FALSE;
  return p.length === 1 ? p[0] : p.map((x) => `(${x})`).join(" OR ");
}

export function not(x: string): string {
  if (x === TRUE) return FALSE;
  if (x === FALSE) return TRUE;
  return `NOT (${x})`;
}

export const eq = (col: string, v: string) => `${col} = ${sqlString(v)}`;

export function inList(col: string, values: Iterable<string>): string {
  const list = [...new Set(values)];
  return list.length ? `${col} IN (${list.map(sqlString).join(", ")})` : FALSE;
}

/** Escape LIKE wildcards so a value matches literally (DataFusion's default escape is `\`). */
export function likeLiteral(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A list column holds exactly this value. */
export const listHas = (col: string, v: string) => `array_has(${col}, ${sqlString(v)})`;

/** A list column holds a value starting with `prefix`. */
export function listHasPrefix(col: string, prefix: string): string {
  return `('|' || array_to_string(${col}, '|')) LIKE ${sqlString(`%|${likeLiteral(prefix)}%`)}`;
}

/**
 * A set of resources as a filter: `rid IN (...)` or, when fewer resources are outside the set,
 * `rid NOT IN (...)`, so the statement stays small either way.
 */
export function ridSet(yes: string[], no: string[]): string {
  if (!no.length) return TRUE;
  if (!yes.length) return FALSE;
  return yes.length <= no.length ? inList("rid", yes) : `rid NOT IN (${no.map(sqlString).join(", ")})`;
}
