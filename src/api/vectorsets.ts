import { z } from "zod";
import { route } from "./route.js";

const KbParams = z.object({ kbid: z.string() });
const VectorsetParams = z.object({ kbid: z.string(), vectorset_id: z.string().min(1).max(500) });

/** One vectorset (the upstream VectorSetListItem, with kbox's model, dimension and default flag). */
export const VectorsetItem = z.object({ id: z.string(), model: z.string(), dim: z.number().int(), default: z.boolean() });

export const listVectorsets = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/vectorsets",
  params: KbParams,
  response: z.object({ vectorsets: z.array(VectorsetItem) }),
  role: "READER",
  summary: "The knowledge box's vectorsets: one per semantic model",
});

export const addVectorset = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/vectorsets/:vectorset_id",
  params: VectorsetParams,
  response: z.object({ id: z.string() }),
  status: 201,
  role: "MANAGER",
  summary:
    "Add a vectorset: the id names a semantic model (installed, pullable or configured); resources processed afterwards fill it",
});

export const deleteVectorset = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/vectorsets/:vectorset_id",
  params: VectorsetParams,
  status: 204,
  role: "MANAGER",
  summary: "Remove a vectorset; refused (409) while it holds vectors or is the only one",
});
