/**
 * Graph search over the relations a knowledge box's resources carry (the user's and those ingestion
 * found, daemon/entities): paths, nodes and relation kinds matching a boolean query, as the upstream
 * `/graph`, `/graph/nodes` and `/graph/relations` answer them.
 */
import { FIELD_LETTER } from "../../src/api/common.js";
import type { FieldProp } from "../../src/api/filters.js";
import type {
  Expr,
  GraphNode,
  GraphNodeQuery,
  GraphNodesSearchRequest,
  GraphPathResult,
  GraphRelation,
  GraphRelationsSearchRequest,
  GraphSearchRequest,
  NodeLeaf,
  PathLeaf,
  RelationLeaf,
} from "../../src/api/graph.js";
import { invalid } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { ResourceDoc } from "../store/index.js";
import { fold } from "../text/analyzer.js";
import { resourceMatches } from "./resource-props.js";

type Generator = "user" | "processor" | "data-augmentation";
/** One edge of the graph: a stored relation, normalised. */
interface Edge extends GraphPathResult {
  by: Generator;
  da_task?: string;
}

type RawNode = { value?: string; type?: string; group?: string | null } | null | undefined;
type RawRelation = {
  relation?: string;
  label?: string | null;
  from?: RawNode;
  to?: RawNode;
  metadata?: { data_augmentation_task_id?: string | null } | null;
};

const TYPES = new Set(["entity", "label", "resource", "user"]);
const RELS = new Set(["CHILD", "ABOUT", "ENTITY", "COLAB", "SYNONYM", "OTHER"]);

function node(n: RawNode, r: ResourceDoc): GraphNode | undefined {
  if (!n?.value) return n ? undefined : { value: r.id, type: "resource", group: "" };
  return { value: n.value, type: (TYPES.has(n.type ?? "") ? n.type : "entity") as GraphNode["type"], group: n.group ?? "" };
}

/** The edges of one resource: its user relations (usermetadata) and those processing found (by field). */
function edgesOf(r: ResourceDoc): Edge[] {
  const out: Edge[] = [];
  const add = (rel: RawRelation, by: Generator) => {
    const source = node(rel.from, r);
    const destination = node(rel.to, r);
    if (!source || !destination || !rel.to) return;
    const type = (RELS.has(rel.relation ?? "") ? rel.relation : "OTHER") as GraphRelation["type"];
    const task = rel.metadata?.data_augmentation_task_id ?? undefined;
    out.push({
      source,
      relation: { label: rel.label ?? "", type },
      destination,
      by: task ? "data-augmentation" : by,
      da_task: task,
    });
  };
  const user = [...(r.usermetadata?.relations ?? []), ...(r.relations ?? [])] as RawRelation[];
  const seen = new Set<string>();
  for (const rel of user) {
    const k = JSON.stringify(rel);
    if (!seen.has(k)) add(rel, "user");
    seen.add(k);
  }
  for (const rels of Object.values(r.field_relations ?? {})) for (const rel of rels as RawRelation[]) add(rel, "processor");
  return out;
}

/** Edit distance of two short strings, stopping once it exceeds `max`. */
function within(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...cur) > max) return false;
    prev = cur;
  }
  return prev[b.length] <= max;
}

/** Does a node match a pattern? Exact: the same value (case and accents aside); fuzzy: a word or the whole within 1–2 edits. */
export function nodeMatches(n: GraphNode, q: Partial<GraphNodeQuery> | null | undefined): boolean {
  if (!q) return true;
  if (q.type != null && n.type !== q.type) return false;
  if (q.group != null && n.group !== q.group) return false;
  if (q.value == null) return true;
  const want = fold(q.value).trim();
  const have = fold(n.value).trim();
  if (q.match !== "fuzzy") return have === want;
  const max = want.length > 5 ? 2 : 1;
  if (within(have, want, max)) return true;
  return have.split(/\s+/).some((w) => within(w, want, max) || w.startsWith(want));
}

const relationMatches = (r: GraphRelation, q: { label?: string | null; type?: string | null } | null | undefined) =>
  !q || ((q.label == null || r.label === q.label) && (q.type == null || r.type === q.type));

const generatedMatches = (e: Edge, g: { by: Generator; da_task?: string | null }) =>
  e.by === g.by && (g.da_task == null || (e.da_task ?? "").startsWith(g.da_task));

/** Evaluate a boolean query whose leaves a function tests. */
function evaluate<T>(e: Expr<T>, leaf: (x: T) => boolean): boolean {
  const o = e as { and?: Expr<T>[]; or?: Expr<T>[]; not?: Expr<T> };
  if (Array.isArray(o.and)) return o.and.every((x) => evaluate(x, leaf));
  if (Array.isArray(o.or)) return o.or.some((x) => evaluate(x, leaf));
  if (o.not !== undefined && !("prop" in (e as object))) return !evaluate(o.not, leaf);
  return leaf(e as T);
}

function pathLeaf(e: Edge, q: PathLeaf): boolean {
  switch (q.prop) {
    case "path": {
      const rel = relationMatches(e.relation, q.relation);
      const forward = nodeMatches(e.source, q.source) && nodeMatches(e.destination, q.destination);
      const back = q.undirected && nodeMatches(e.destination, q.source) && nodeMatches(e.source, q.destination);
      return rel && (forward || back);
    }
    case "source_node":
      return nodeMatches(e.source, q);
    case "destination_node":
      return nodeMatches(e.destination, q);
    case "node":
      return nodeMatches(e.source, q) || nodeMatches(e.destination, q);
    case "relation":
      return relationMatches(e.relation, q);
    case "generated":
      return generatedMatches(e, q);
  }
}

/** A field expression judged on a resource (graph filters select resources, not paragraphs). */
function resourceFilter(r: ResourceDoc, e: Expr<FieldProp>): boolean {
  return evaluate(e, (p) => {
    const hit = resourceMatches(r, p);
    if (hit !== undefined) return hit;
    if (p.prop === "field") {
      const letter = FIELD_LETTER[p.type];
      return Object.keys(r.fields).some((k) => (p.name ? k === `${letter}/${p.name}` : k.startsWith(`${letter}/`)));
    }
    throw invalid([
      {
        type: "value_error",
        loc: ["body", "filter_expression", "field"],
        msg: `Graph search filters resources: the ${p.prop} property is not supported here`,
        input: p,
      },
    ]);
  });
}

type Common = Pick<GraphSearchRequest, "filter_expression" | "security" | "show_hidden" | "top_k">;

const keyOf = (n: GraphNode) => `${n.type}\u0000${n.group}\u0000${n.value}`;

export class GraphService {
  constructor(private readonly kbs: KbService) {}

  /** Every edge of the resources the request may see. */
  private async edges(kbid: string, req: Common): Promise<Edge[]> {
    const { kb, store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const groups = new Set(req.security?.groups ?? []);
    const out: Edge[] = [];
    for (const r of store.resources.values()) {
      if (r.hidden && !req.show_hidden) continue;
      const access = r.security?.access_groups ?? [];
      if (access.length && (groups.size || kb.enforce_security) && !access.some((g) => groups.has(g))) continue;
      if (req.filter_expression && !resourceFilter(r, req.filter_expression.field)) continue;
      out.push(...edgesOf(r));
    }
    return out;
  }

  async paths(kbid: string, req: GraphSearchRequest): Promise<{ paths: GraphPathResult[] }> {
    const seen = new Set<string>();
    const paths: GraphPathResult[] = [];
    for (const e of await this.edges(kbid, req)) {
      if (paths.length >= req.top_k) break;
      if (!evaluate(req.query, (q) => pathLeaf(e, q))) continue;
      const k = `${keyOf(e.source)}\u0001${e.relation.type}/${e.relation.label}\u0001${keyOf(e.destination)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      paths.push({ source: e.source, relation: e.relation, destination: e.destination });
    }
    return { paths };
  }

  async nodes(kbid: string, req: GraphNodesSearchRequest): Promise<{ nodes: GraphNode[] }> {
    const found = new Map<string, GraphNode>();
    for (const e of await this.edges(kbid, req)) {
      for (const n of [e.source, e.destination]) {
        if (found.size >= req.top_k) break;
        const leaf = (q: NodeLeaf) => (q.prop === "node" ? nodeMatches(n, q) : generatedMatches(e, q));
        if (!found.has(keyOf(n)) && evaluate(req.query, leaf)) found.set(keyOf(n), n);
      }
    }
    return { nodes: [...found.values()] };
  }

  async relations(kbid: string, req: GraphRelationsSearchRequest): Promise<{ relations: GraphRelation[] }> {
    const found = new Map<string, GraphRelation>();
    for (const e of await this.edges(kbid, req)) {
      if (found.size >= req.top_k) break;
      const leaf = (q: RelationLeaf) => (q.prop === "relation" ? relationMatches(e.relation, q) : generatedMatches(e, q));
      const k = `${e.relation.type}/${e.relation.label}`;
      if (!found.has(k) && evaluate(req.query, leaf)) found.set(k, e.relation);
    }
    return { relations: [...found.values()] };
  }
}
