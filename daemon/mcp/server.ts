/** One knowledge box as an MCP server: its tools, their descriptions, and its resources by URI. */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Principal } from "../auth/service.js";
import { KboxError } from "../errors.js";
import { type DocumentView, parseName, resourceUri } from "./documents.js";
import { type Hit, type KbTools, type Narrowing, ToolError } from "./tools.js";

/** The caller of the request a handler serves (set by the service from the HTTP request). */
type Extra = { authInfo?: { extra?: Record<string, unknown> } };
const principalOf = (extra: Extra, fallback: Principal) => (extra.authInfo?.extra?.principal as Principal) ?? fallback;

const narrowingShape = {
  labels: z
    .array(z.string())
    .optional()
    .describe('Only documents with these labels, each "labelset" or "labelset/label" (all must match)'),
  path: z.string().optional().describe("Only documents whose origin path starts with this prefix (e.g. /reports/2024)"),
  resource_ids: z.array(z.string()).optional().describe("Only these documents (resource ids)"),
  filters: z.array(z.string()).optional().describe('Legacy filter strings of the search API, e.g. "/l/topic/finance"'),
  filter_expression: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Advanced: a filter_expression object of the find API ({field, paragraph, operator})"),
  search_configuration: z.string().optional().describe("A stored search configuration of the knowledge box, by name"),
};

const text = (t: string, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: t }],
  ...(structured ? { structuredContent: structured } : {}),
});

/** Run a tool; an error the assistant can act on (bad arguments, unknown document) is a tool error, not a protocol one. */
async function guarded(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ToolError || e instanceof KboxError) return { isError: true, content: [{ type: "text", text: e.message }] };
    throw e;
  }
}

const hitLines = (hits: Hit[]) =>
  hits.length
    ? hits
        .map((h) => `[${h.rank}] ${h.title} (${h.uri}, paragraph ${h.paragraph_id}, score ${h.score.toFixed(3)})\n${h.text}`)
        .join("\n\n")
    : "No matching paragraphs.";

const docText = (d: DocumentView) =>
  `# ${d.title}\nuri: ${d.uri}${d.paragraph_id ? `\nparagraph: ${d.paragraph_id}` : ""}${d.origin_url ? `\nsource: ${d.origin_url}` : ""}\n\n${d.text}`;

/** The MCP server of one knowledge box for one session; writer tools only when the session's caller may write. */
export function buildServer(tools: KbTools, session: Principal, version: string): McpServer {
  const kb = tools.about();
  const name = `the knowledge box "${kb.title}"`;
  const server = new McpServer(
    { name: `kbox-${kb.slug}`, title: `kbox: ${kb.title}`, version },
    {
      instructions:
        `Tools over ${name}${kb.description ? ` (${kb.description})` : ""}, the user's own documents. ` +
        "Use search_documents to find passages, ask for an answer with citations, get_document to read a whole " +
        "document or a cited paragraph, list_documents to see what the knowledge box holds.",
    },
  );
  const read = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    "search_documents",
    {
      title: "Search documents",
      description:
        `Find the passages of ${name} most relevant to a query (hybrid keyword and semantic search). Returns ranked ` +
        'paragraphs with their document title, URI and paragraph id. Quote "exact phrases"; -word excludes a word. ' +
        "Use this to locate information; use get_document to read more around a hit.",
      inputSchema: {
        query: z.string().min(1).describe("What to look for, in natural language or keywords"),
        top_k: z.number().int().min(1).max(50).default(10).describe("How many paragraphs to return (1-50)"),
        ...narrowingShape,
      },
      annotations: read,
    },
    async ({ query, top_k, ...n }, extra) =>
      guarded(async () => {
        const hits = await tools.find(query, top_k, n as Narrowing, principalOf(extra, session), extra.signal);
        return text(hitLines(hits), { results: hits });
      }),
  );

  server.registerTool(
    "ask",
    {
      title: "Ask a question",
      description:
        `Answer a question from ${name}: retrieves the relevant passages and writes an answer grounded in them, ` +
        "with numbered citations (document, URI, paragraph id and the cited text). Prefer this for questions; " +
        "prefer search_documents to browse passages.",
      inputSchema: { question: z.string().min(1).describe("The question, as the user would ask it"), ...narrowingShape },
      annotations: read,
    },
    async ({ question, ...n }, extra) =>
      guarded(async () => {
        const r = await tools.ask(question, n as Narrowing, principalOf(extra, session), extra.signal);
        const cites = r.citations.map((c) => `[${c.n}] ${c.title} (${c.uri}, paragraph ${c.paragraph_id}): ${c.text}`);
        const body = `${r.answer || "(no answer)"}${cites.length ? `\n\nCitations:\n${cites.join("\n")}` : ""}`;
        return { ...text(body, r), ...(r.status === "error" ? { isError: true } : {}) };
      }),
  );

  const getShape = {
    max_chars: z.number().int().min(100).max(500_000).default(20_000).describe("Cut the text after this many characters"),
  };
  server.registerTool(
    "get_document",
    {
      title: "Read a document",
      description:
        `Read one document of ${name} with its text: name it by URI (kbox://...), resource id or slug, or pass a ` +
        "paragraph id (as search_documents and ask return) to read just that paragraph.",
      inputSchema: { name: z.string().min(1).describe("Document URI, resource id, slug, or paragraph id"), ...getShape },
      annotations: read,
    },
    async ({ name: ref, max_chars }) =>
      guarded(async () => {
        const d = await tools.get(parseName(tools.kbid, ref), max_chars);
        return text(docText(d), { ...d });
      }),
  );

  server.registerTool(
    "batch_get_documents",
    {
      title: "Read several documents",
      description: `Read up to 20 documents or paragraphs of ${name} at once (names as for get_document).`,
      inputSchema: { names: z.array(z.string().min(1)).min(1).max(20), ...getShape },
      annotations: read,
    },
    async ({ names, max_chars }) =>
      guarded(async () => {
        const docs = await Promise.all(
          names.map((n) => tools.get(parseName(tools.kbid, n), max_chars).catch((e: Error) => ({ name: n, error: e.message }))),
        );
        const out = docs.map((d) => ("error" in d ? `# ${d.name}\nerror: ${d.error}` : docText(d)));
        return text(out.join("\n\n---\n\n"), { documents: docs });
      }),
  );

  server.registerTool(
    "list_documents",
    {
      title: "List documents",
      description: `List the documents of ${name} (newest first) with their titles, URIs and processing status; optionally only titles matching a query or with labels.`,
      inputSchema: {
        query: z.string().optional().describe("Words the title must contain"),
        labels: narrowingShape.labels,
        page: z.number().int().min(0).default(0),
        page_size: z.number().int().min(1).max(200).default(50),
      },
      annotations: read,
    },
    async ({ query, labels, page, page_size }) =>
      guarded(async () => {
        const r = await tools.list(query, { labels }, page, page_size);
        const lines = r.documents.map((d) => `- ${d.title} (${d.uri}${d.slug ? `, slug ${d.slug}` : ""}, ${d.status})`);
        const more = r.next_page ? `\n(more: page ${page + 1})` : "";
        return text(`${r.total} documents\n${lines.join("\n")}${more}`, r);
      }),
  );

  if (session.roles.has("WRITER")) registerWriters(server, tools, session, name);

  server.registerResource(
    "document",
    new ResourceTemplate("kbox://{kbid}/{rid}", {
      list: async () => ({
        resources: (await tools.list(undefined, {}, 0, 200)).documents.map((d) => ({
          uri: d.uri,
          name: d.title,
          mimeType: "text/plain",
        })),
      }),
    }),
    { title: "Document", description: `A document of ${name}, as text`, mimeType: "text/plain" },
    async (uri) => {
      const d = await tools.get(parseName(tools.kbid, uri.href), 2_000_000);
      return { contents: [{ uri: resourceUri(tools.kbid, d.resource_id), mimeType: "text/plain", text: docText(d) }] };
    },
  );
  return server;
}

function registerWriters(server: McpServer, tools: KbTools, session: Principal, name: string): void {
  const added = (r: { resource_id: string; uri: string }) =>
    text(`Added ${r.uri}. It is searchable once processed (seconds for text; a page is fetched first).`, r);
  server.registerTool(
    "add_text",
    {
      title: "Add a text",
      description: `Add a note or text document to ${name}, so later searches and answers can use it.`,
      inputSchema: {
        title: z.string().min(1).describe("The document's title"),
        text: z.string().min(1).describe("The text to store"),
        format: z.enum(["PLAIN", "MARKDOWN", "HTML"]).default("MARKDOWN"),
        slug: z.string().optional().describe("A unique, readable id for the document (letters, digits, - and _)"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ title, text: body, format, slug }, extra) =>
      guarded(async () =>
        added(await tools.add(principalOf(extra, session), { title, slug, texts: { text: { body, format } } } as never)),
      ),
  );
  server.registerTool(
    "add_url",
    {
      title: "Add a web page",
      description: `Add a web page to ${name} by URL: the daemon fetches and indexes it.`,
      inputSchema: { url: z.string().url().describe("http(s) URL of the page"), title: z.string().optional() },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async ({ url, title }, extra) =>
      guarded(async () =>
        added(
          await tools.add(principalOf(extra, session), {
            title: title ?? url,
            origin: { url },
            links: { link: { uri: url } },
          } as never),
        ),
      ),
  );
}
