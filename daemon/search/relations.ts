/**
 * The relations of a find or ask (`features: relations`): the entities a query names, and what the
 * knowledge box relates them to, from the relations resources carry (user relations and stored ones).
 */
import { type ResourceDoc, resourceRelations } from "../store/index.js";
import { fold } from "../text/analyzer.js";

type NodeType = "entity" | "label" | "resource" | "user";

interface Node {
  value: string;
  type: NodeType;
  group?: string | null;
}

interface StoredRelation {
  relation?: string;
  label?: string | null;
  metadata?: Record<string, unknown> | null;
  from?: Node | null;
  to?: Node;
}

/** One relation seen from an entity (the upstream DirectionalRelation). */
export interface DirectionalRelation {
  entity: string;
  entity_type: NodeType;
  entity_subtype: string;
  relation: string;
  relation_label: string;
  direction: "in" | "out";
  metadata: Record<string, unknown> | null;
  resource_id: string;
}

/** The upstream Relations: each entity the query names, with what it is related to. */
export interface Relations {
  entities: Record<string, { related_to: DirectionalRelation[] }>;
}

/** Every relation a resource carries; one without `from` starts at the resource itself. */
export function relationsOf(r: ResourceDoc): { from: Node; to: Node; rel: StoredRelation }[] {
  const all = resourceRelations(r) as StoredRelation[];
  const out: { from: Node; to: Node; rel: StoredRelation }[] = [];
  for (const rel of all) {
    if (!rel?.to?.value) continue;
    out.push({ from: rel.from?.value ? rel.from : { value: r.id, type: "resource" }, to: rel.to, rel });
  }
  return out;
}

/** Does the folded query name this value (as whole words)? */
function names(query: string, value: string): boolean {
  const v = fold(value).trim();
  if (!v) return false;
  const escaped = v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "u").test(query);
}

/** The relations of the entities a query names, over a knowledge box's resources. */
export function queryRelations(resources: Iterable<ResourceDoc>, query: string): Relations {
  const q = fold(query);
  const entities: Relations["entities"] = {};
  const add = (key: string, d: DirectionalRelation) => {
    entities[key] ??= { related_to: [] };
    entities[key].related_to.push(d);
  };
  for (const r of resources) {
    for (const { from, to, rel } of relationsOf(r)) {
      const base = {
        relation: rel.relation ?? "OTHER",
        relation_label: rel.label ?? "",
        metadata: rel.metadata ?? null,
        resource_id: r.id,
      };
      if (to.type !== "resource" && names(q, to.value))
        add(to.value, { entity: from.value, entity_type: from.type, entity_subtype: from.group ?? "", direction: "in", ...base });
      if (from.type === "entity" && names(q, from.value))
        add(from.value, { entity: to.value, entity_type: to.type, entity_subtype: to.group ?? "", direction: "out", ...base });
    }
  }
  return { entities };
}
