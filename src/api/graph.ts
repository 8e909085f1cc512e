import { z } from "zod";
import { type Expr, expr, FieldProp } from "./filters.js";
import { route } from "./route.js";

// Graph search over the relations of a knowledge box's resources (the upstream nucliadb_models.graph
// requests and responses): paths, nodes and relations matching a boolean query.

export const NodeType = z.enum(["entity", "label", "resource", "user"]);
export const RelationType = z.enum(["CHILD", "ABOUT", "ENTITY", "COLAB", "SYNONYM", "OTHER"]);

const nodeMembers = {
  value: z.string().nullable().optional(),
  match: z.enum(["exact", "fuzzy"]).default("exact"),
  /** Omitted: an entity (the upstream default); null: any type. */
  type: NodeType.nullable().default("entity"),
  group: z.string().nullable().optional(),
};
const fuzzyNeedsValue = (n: { match: string; value?: string | null }, ctx: z.RefinementCtx) => {
  if (n.match === "fuzzy" && (n.value ?? "").length < 3)
    ctx.addIssue({ code: "custom", message: "Fuzzy match must be used with a node value of at least 3 characters" });
};
/** A node pattern (GraphNode of the requests). */
export const GraphNodeQuery = z.strictObject(nodeMembers).superRefine(fuzzyNeedsValue);
export type GraphNodeQuery = z.infer<typeof GraphNodeQuery>;
const nodeProp = <P extends string>(prop: P) =>
  z.strictObject({ prop: z.literal(prop), ...nodeMembers }).superRefine(fuzzyNeedsValue);
/** A relation pattern (GraphRelation of the requests). */
const relationMembers = { label: z.string().nullable().optional(), type: RelationType.nullable().optional() };
export const GraphRelationQuery = z.strictObject(relationMembers);

const AnyNode = nodeProp("node");
const SourceNode = nodeProp("source_node");
const DestinationNode = nodeProp("destination_node");
const RelationProp = z.strictObject({ prop: z.literal("relation"), ...relationMembers });
const Generated = z
  .strictObject({
    prop: z.literal("generated"),
    by: z.enum(["data-augmentation", "processor", "user"]),
    da_task: z.string().nullable().optional(),
  })
  .refine((g) => g.by === "data-augmentation" || g.da_task == null, "da_task can only be specified if by=data-augmentation");
const GraphPath = z.strictObject({
  prop: z.literal("path").default("path"),
  source: GraphNodeQuery.nullable().optional(),
  relation: GraphRelationQuery.nullable().optional(),
  destination: GraphNodeQuery.nullable().optional(),
  undirected: z.boolean().default(false),
});

export const PathLeaf = z.union([GraphPath, SourceNode, DestinationNode, AnyNode, RelationProp, Generated]);
export type PathLeaf = z.infer<typeof PathLeaf>;
export const NodeLeaf = z.union([AnyNode, Generated]);
export type NodeLeaf = z.infer<typeof NodeLeaf>;
export const RelationLeaf = z.union([RelationProp, Generated]);
export type RelationLeaf = z.infer<typeof RelationLeaf>;
export type { Expr };

const common = {
  top_k: z.number().int().min(0).default(50),
  /** Only relations of resources matching this expression over their properties. */
  filter_expression: z
    .strictObject({ field: expr(FieldProp) })
    .nullable()
    .optional(),
  security: z
    .object({ groups: z.array(z.string()).default([]) })
    .nullable()
    .optional(),
  show_hidden: z.boolean().default(false),
};
export const GraphSearchRequest = z.object({ query: expr(PathLeaf), ...common });
export type GraphSearchRequest = z.infer<typeof GraphSearchRequest>;
export const GraphNodesSearchRequest = z.object({ query: expr(NodeLeaf), ...common });
export type GraphNodesSearchRequest = z.infer<typeof GraphNodesSearchRequest>;
export const GraphRelationsSearchRequest = z.object({ query: expr(RelationLeaf), ...common });
export type GraphRelationsSearchRequest = z.infer<typeof GraphRelationsSearchRequest>;

/** A node as answered (GraphNode of the responses). */
export const GraphNode = z.object({ value: z.string(), type: NodeType, group: z.string() });
export type GraphNode = z.infer<typeof GraphNode>;
export const GraphRelation = z.object({ label: z.string(), type: RelationType });
export type GraphRelation = z.infer<typeof GraphRelation>;
export const GraphPathResult = z.object({ source: GraphNode, relation: GraphRelation, destination: GraphNode });
export type GraphPathResult = z.infer<typeof GraphPathResult>;

const params = z.object({ kbid: z.string() });

export const graphSearch = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/graph",
  params,
  body: GraphSearchRequest,
  response: z.object({ paths: z.array(GraphPathResult) }),
  role: "READER",
  summary: "Graph search: the paths (source, relation, destination) of the box's relations that match a query",
});
export const graphNodes = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/graph/nodes",
  params,
  body: GraphNodesSearchRequest,
  response: z.object({ nodes: z.array(GraphNode) }),
  role: "READER",
  summary: "Graph search: the nodes (entities, resources...) of the box's relations that match a query",
});
export const graphRelations = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/graph/relations",
  params,
  body: GraphRelationsSearchRequest,
  response: z.object({ relations: z.array(GraphRelation) }),
  role: "READER",
  summary: "Graph search: the relation kinds (label, type) of the box's relations that match a query",
});
