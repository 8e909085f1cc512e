import { z } from "zod";
import { AvailableModel, AvailableModels, LearningConfigUpdate, ModelConfiguration } from "./learning.js";
import { route } from "./route.js";

/**
 * The understanding API's learning-configuration and model routes (zone-api.md §2d), on the hosted
 * paths, mapped onto kbox's real models: the ones installed or configured on this daemon (kbox trains
 * none), and each knowledge box's model configuration.
 */

const Kb = z.object({ kbid: z.string() });
const Account = z.object({ account: z.string() });
const Schema = z.record(z.string(), z.unknown());

export const creationSchema = route({
  method: "GET",
  path: "/api/v1/learning/configuration/schema",
  response: Schema,
  scope: "authenticated",
  role: "READER",
  summary: "Learning configuration schema for creating a knowledge box (the daemon's models as examples)",
});
export const creationSchemaShort = route({ ...creationSchema, path: "/api/v1/schema" });
export const accountSchema = route({
  ...creationSchema,
  path: "/api/v1/account/:account/schema",
  params: Account,
  scope: "account",
  summary: "Learning configuration schema for creating a knowledge box in the account",
});
export const updateSchema = route({
  method: "GET",
  path: "/api/v1/schema/:kbid",
  params: Kb,
  response: Schema,
  role: "READER",
  summary: "Learning configuration schema of an update of this knowledge box (its available models as examples)",
});

const config = "/api/v1/config/:kbid";
export const getConfig = route({
  method: "GET",
  path: config,
  params: Kb,
  response: ModelConfiguration,
  role: "READER",
  summary: "A knowledge box's model configuration (NUA path)",
});
export const setConfig = route({
  method: "POST",
  path: config,
  params: Kb,
  body: LearningConfigUpdate,
  response: ModelConfiguration,
  role: "OWNER",
  summary: "Set a knowledge box's model configuration (NUA path)",
});
export const patchConfig = route({
  ...setConfig,
  method: "PATCH",
  summary: "Update a knowledge box's model configuration (NUA path)",
});
export const deleteConfig = route({
  method: "DELETE",
  path: config,
  params: Kb,
  status: 204,
  role: "OWNER",
  summary: "Reset a knowledge box's model configuration to the defaults (semantic models kept)",
});

export const kbModels = route({
  method: "GET",
  path: "/api/v1/models/:kbid",
  params: Kb,
  response: AvailableModels,
  role: "READER",
  summary: "Models available to a knowledge box, by provider",
});
export const kbModel = route({
  method: "GET",
  path: "/api/v1/models/:kbid/model/:model_id",
  params: Kb.extend({ model_id: z.string() }),
  response: AvailableModel.extend({ provider: z.string() }),
  role: "READER",
  summary: "One model available to a knowledge box",
});
export const addKbModel = route({
  method: "POST",
  path: "/api/v1/models/:kbid",
  params: Kb,
  body: z.object({ id: z.string().min(1).max(512) }),
  response: ModelConfiguration,
  role: "OWNER",
  summary:
    "Add a model to a knowledge box: a semantic model joins its semantic models, a generative one becomes its generative model",
});

/** A model of the daemon as the account's model record (kbox trains no model: these are installed or configured). */
export const AccountModel = z.object({
  model_id: z.string(),
  account: z.string(),
  title: z.string(),
  model_types: z.array(z.string()),
  trained_date: z.string().nullable(),
  location: z.string().nullable(),
  trained_kbid: z.string().nullable(),
});
export const accountModels = route({
  method: "GET",
  path: "/api/v1/account/:account/models",
  params: Account,
  response: z.array(AccountModel),
  scope: "account",
  role: "READER",
  summary: "The daemon's models (installed and configured) as the account's model records",
});
export const accountModel = route({
  method: "GET",
  path: "/api/v1/account/:account/model/:model_id",
  params: Account.extend({ model_id: z.string() }),
  response: AccountModel.extend({ log: z.string().nullable(), kbids: z.array(z.string()), openai_compat: z.boolean() }),
  scope: "account",
  role: "READER",
  summary: "One model record, with the knowledge boxes using it",
});
