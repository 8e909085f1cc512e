/** Documents as the MCP tools and resources show them: addressed by URI, read as text. */
import { ParagraphReader } from "../ask/paragraphs.js";
import { KboxError } from "../errors.js";
import type { ResourceRef, ResourceService } from "../resources/service.js";

/** The URI scheme of a knowledge box's resources: `kbox://{kbid}/{rid}` (the hosted service's is `nucliadb://`). */
export const URI_SCHEMES = ["kbox:", "nucliadb:"] as const;

/** The URI of a resource. */
export const resourceUri = (kbid: string, rid: string) => `kbox://${kbid}/${rid}`;

/** What get_document names: a resource (id, slug or URI) or one paragraph (its id). */
export type DocumentRef = { resource: ResourceRef } | { paragraph: string };

const RID = /^[0-9a-f]{32}$/;
const PARAGRAPH = /^[0-9a-f]{32}\/[a-z]\/[^/]+(\/[^/]+)?\/\d+-\d+$/;

/** Read a name an assistant passes: a resource URI, a paragraph id, a resource id, or else a slug. */
export function parseName(kbid: string, name: string): DocumentRef {
  const n = name.trim();
  const scheme = URI_SCHEMES.find((s) => n.startsWith(`${s}//`));
  if (scheme) {
    const [kb, ...rest] = n.slice(scheme.length + 2).split("/");
    if (kb.toLowerCase() !== kbid.toLowerCase()) throw new KboxError(404, `${n} is not in this knowledge box`);
    return parseName(kbid, rest.join("/"));
  }
  if (PARAGRAPH.test(n)) return { paragraph: n };
  return { resource: RID.test(n) ? { rid: n } : { slug: n } };
}

/** A document as the tools return it. */
export interface DocumentView {
  resource_id: string;
  uri: string;
  title: string;
  slug?: string;
  status?: string;
  created?: string;
  origin_url?: string;
  /** Set when one paragraph was asked for. */
  paragraph_id?: string;
  text: string;
  truncated: boolean;
}

const FIELD_NAMES: Record<string, string> = { a: "generic", t: "text", f: "file", u: "link", c: "conversation", k: "key_value" };

/** Read a resource's text (its fields' paragraphs in reading order) or one paragraph, at most maxChars. */
export async function readDocument(
  resources: ResourceService,
  kbid: string,
  ref: DocumentRef,
  maxChars: number,
): Promise<DocumentView> {
  const rid = "paragraph" in ref ? ref.paragraph.slice(0, 32) : undefined;
  const { store, res } = await resources.resolve(kbid, rid ? { rid } : (ref as { resource: ResourceRef }).resource);
  const reader = new ParagraphReader(store);
  await reader.load([res.id]);
  let text: string;
  if ("paragraph" in ref) {
    const p = reader.get(ref.paragraph);
    if (!p) throw new KboxError(404, `Paragraph ${ref.paragraph} does not exist`);
    text = p.text;
  } else {
    const fields = [...new Set(reader.of(res.id).map((p) => p.field))];
    text = fields
      .filter((f) => !(f === "a/title" && fields.length > 1))
      .map((f) => {
        const [type, id] = f.split("/");
        const body = reader.fieldText(res.id, f);
        return fields.length > 2 ? `## ${FIELD_NAMES[type] ?? type} field ${id}\n\n${body}` : body;
      })
      .join("\n\n");
  }
  const truncated = text.length > maxChars;
  const origin = res.origin as { url?: string } | undefined;
  return {
    resource_id: res.id,
    uri: resourceUri(kbid, res.id),
    title: res.title ?? res.slug ?? res.id,
    slug: res.slug,
    status: res.metadata?.status,
    created: res.created,
    origin_url: origin?.url ?? undefined,
    ...("paragraph" in ref ? { paragraph_id: ref.paragraph } : {}),
    text: truncated ? `${text.slice(0, maxChars)}…` : text,
    truncated,
  };
}
