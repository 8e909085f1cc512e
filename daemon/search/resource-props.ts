import type { CatalogProp } from "../../src/api/filters.js";
import { type ResourceDoc, resourceRelations } from "../store/index.js";

/**
 * Resource-level filter properties and facets, evaluated against the resource records (kept in
 * memory): the one definition catalog, find and search share. They live here rather than on
 * paragraph rows so a PATCH of labels, origin or security takes effect at once, without rewriting
 * paragraphs.
 */

export function labelsOf(r: ResourceDoc): string[] {
  const out: string[] = [];
  for (const c of r.usermetadata?.classifications ?? []) if (!c.cancelled_by_user) out.push(`/l/${c.labelset}/${c.label}`);
  for (const fc of (r.computedmetadata?.field_classifications ?? []) as {
    classifications?: { labelset: string; label: string }[];
  }[]) {
    for (const c of fc.classifications ?? []) out.push(`/l/${c.labelset}/${c.label}`);
  }
  return out;
}

/** The origin source(s) of a resource: `source_id`, and `source` when it differs. */
export function originSources(r: ResourceDoc): string[] {
  const o = r.origin;
  return [...new Set([o?.source_id, o?.source].filter((s): s is string => Boolean(s)))];
}

/** Every facet a resource carries (catalog facets, legacy `filters`): labels, status, tags, icon, language, metadata, source, path. */
export function resourceFacets(r: ResourceDoc): string[] {
  const o = r.origin;
  const out = [...labelsOf(r), `/n/s/${r.metadata.status}`];
  for (const t of o?.tags ?? []) out.push(`/t/${t}`);
  if (r.icon) out.push(`/n/i/${r.icon}`);
  if (r.metadata.language) out.push(`/s/p/${r.metadata.language}`);
  for (const [k, v] of Object.entries(o?.metadata ?? {})) out.push(`/m/${k}/${v}`);
  for (const s of originSources(r)) out.push(`/u/s/${s}`);
  if (o?.path) {
    const parts = o.path.split("/").filter(Boolean);
    for (let i = 1; i <= parts.length; i++) out.push(`/p/${parts.slice(0, i).join("/")}`);
  }
  return out;
}

/** Paragraph labels a user attached through `fieldmetadata`, by paragraph id. */
export function userParagraphLabels(res: ResourceDoc): Map<string, string[]> {
  const out = new Map<string, string[]>();
  type Fm = { paragraphs?: { key: string; classifications: { labelset: string; label: string }[] }[] };
  for (const fm of (res.fieldmetadata ?? []) as Fm[]) {
    for (const p of fm.paragraphs ?? [])
      out.set(
        p.key,
        p.classifications.map((c) => `/l/${c.labelset}/${c.label}`),
      );
  }
  return out;
}

const time = (s: string | undefined | null) => (s ? Date.parse(s) : Number.NaN);

/** Inclusive date window test; a missing bound is open. */
export function inWindow(value: string | undefined, since?: string | null, until?: string | null): boolean {
  const t = time(value);
  if (Number.isNaN(t)) return false;
  if (since && t < time(since)) return false;
  if (until && t > time(until)) return false;
  return true;
}

/** Left-anchored path match: `/a/b` matches `/a/b`, `/a/b/c`, not `/a/bc`. */
export function pathMatches(path: string | undefined | null, prefix: string | undefined): boolean {
  if (!prefix) return true;
  if (!path) return false;
  const p = prefix.endsWith("/") && prefix.length > 1 ? prefix.slice(0, -1) : prefix;
  return path === p || path.startsWith(p.endsWith("/") ? p : `${p}/`);
}

function mimeMatches(mime: string | undefined, type: string, subtype?: string): boolean {
  if (!mime) return false;
  const [t, s] = mime.toLowerCase().split(";")[0].trim().split("/");
  return t === type.toLowerCase() && (!subtype || s === subtype.toLowerCase());
}

function hasEntity(r: ResourceDoc, subtype: string, value?: string): boolean {
  const rels = resourceRelations(r) as {
    to?: { type?: string; group?: string; value?: string };
  }[];
  return rels.some((x) => x.to?.type === "entity" && x.to.group === subtype && (value === undefined || x.to.value === value));
}

/**
 * Whether a resource satisfies a property, judged on resource-level data alone; `undefined` when
 * the property is field- or paragraph-level and must be tested on the paragraph rows.
 */
export function resourceMatches(r: ResourceDoc, p: CatalogProp): boolean | undefined {
  const o = r.origin;
  switch (p.prop) {
    case "resource":
      return (p.id === undefined || r.id === p.id) && (p.slug === undefined || r.slug === p.slug);
    case "created":
      return inWindow(r.created, p.since, p.until);
    case "modified":
      return inWindow(r.modified, p.since, p.until);
    case "label":
      return labelsOf(r).some((l) => (p.label ? l === `/l/${p.labelset}/${p.label}` : l.startsWith(`/l/${p.labelset}/`)));
    case "resource_mimetype":
      return mimeMatches(r.icon, p.type, p.subtype);
    case "language": {
      const langs = p.only_primary ? [r.metadata.language] : [r.metadata.language, ...(r.metadata.languages ?? [])];
      return langs.some((l) => l && l.toLowerCase() === p.language.toLowerCase());
    }
    case "origin_tag":
      return (o?.tags ?? []).includes(p.tag);
    case "origin_metadata": {
      const v = o?.metadata?.[p.field];
      return v !== undefined && (p.value === undefined || v === p.value);
    }
    case "origin_path":
      return pathMatches(o?.path, p.prefix);
    case "origin_source":
      return p.id === undefined ? originSources(r).length > 0 : originSources(r).includes(p.id);
    case "origin_collaborator":
      return (o?.collaborators ?? []).includes(p.collaborator);
    case "status":
      return r.metadata.status === p.status;
    case "entity":
      return hasEntity(r, p.subtype, p.value);
    default:
      return undefined;
  }
}
