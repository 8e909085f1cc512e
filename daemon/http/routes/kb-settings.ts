import type { Hono } from "hono";
import * as en from "../../../src/api/entities.js";
import * as kv from "../../../src/api/kv-schemas.js";
import * as syn from "../../../src/api/synonyms.js";
import * as vs from "../../../src/api/vectorsets.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Custom synonyms, key-value schemas, entities groups and vectorsets: settings of a knowledge box the upstream clients manage. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, syn.getSynonyms, async ({ params }) => s.synonyms.get(params.kbid));
  mount(app, syn.setSynonyms, async ({ params, body }) => s.synonyms.set(params.kbid, body));
  mount(app, syn.deleteSynonyms, async ({ params }) => s.synonyms.clear(params.kbid));

  mount(app, kv.listKvSchemas, async ({ params }) => s.kvSchemas.list(params.kbid));
  mount(app, kv.createKvSchema, async ({ params, body }) => s.kvSchemas.create(params.kbid, body));
  mount(app, kv.getKvSchema, async ({ params }) => s.kvSchemas.get(params.kbid, params.schema_id));
  mount(app, kv.updateKvSchema, async ({ params, body }) => s.kvSchemas.update(params.kbid, params.schema_id, body));
  mount(app, kv.deleteKvSchema, async ({ params }) => s.kvSchemas.delete(params.kbid, params.schema_id));

  mount(app, en.listEntitiesGroups, async ({ params }) => s.entities.list(params.kbid));
  mount(app, en.createEntitiesGroup, async ({ params, body }) => s.entities.create(params.kbid, body));
  mount(app, en.getEntitiesGroup, async ({ params }) => s.entities.get(params.kbid, params.group));
  mount(app, en.updateEntitiesGroup, async ({ params, body }) => s.entities.update(params.kbid, params.group, body));
  mount(app, en.deleteEntitiesGroup, async ({ params }) => s.entities.delete(params.kbid, params.group));

  mount(app, vs.listVectorsets, async ({ params }) => s.vectorsets.list(params.kbid));
  mount(app, vs.addVectorset, async ({ params }) => s.vectorsets.add(params.kbid, params.vectorset_id));
  mount(app, vs.deleteVectorset, async ({ params }) => s.vectorsets.delete(params.kbid, params.vectorset_id));
}
