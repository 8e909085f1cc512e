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

/** A model configuration record's body: a model kbox can run, its keys and prompts, and the boxes it applies to. */
export const ModelConfigBody = z.object({
  default_model_id: z.string().min(1).max(512).optional(),
  description: z.string().max(2000).nullable().optional(),
  assume_role: z.number().int().min(0).max(1).nullable().optional(),
  kbids: z.array(z.string()).max(1000).nullable().optional(),
  user_keys: z.record(z.string(), z.record(z.string(), z.unknown())).nullable().optional(),
  user_prompts: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ModelConfigBody = z.infer<typeof ModelConfigBody>;
export const ModelConfigRecord = z.object({
  id: z.string(),
  default_model_id: z.string(),
  description: z.string().nullable(),
  assume_role: z.number().int(),
  kbids: z.array(z.string()),
});
const ConfigParams = Account.extend({ model_id: z.string() });
const accountOwner = { scope: "account", role: "OWNER" } as const;

export const listModelConfigs = route({
  method: "GET",
  path: "/api/v1/account/:account/default_models",
  params: Account,
  response: z.array(ModelConfigRecord),
  scope: "account",
  role: "READER",
  summary: "The account's model configuration records",
});
export const createModelConfig = route({
  method: "POST",
  path: "/api/v1/account/:account/default_models",
  params: Account,
  body: ModelConfigBody,
  response: ModelConfigRecord,
  status: 201,
  ...accountOwner,
  summary: "Create a model configuration record (a model kbox runs, its keys and prompts), applied to its kbids",
});
export const getModelConfig = route({
  method: "GET",
  path: "/api/v1/account/:account/default_model/:model_id",
  params: ConfigParams,
  response: ModelConfigRecord.extend({
    user_keys: z.record(z.string(), z.unknown()).nullable(),
    user_prompts: z.record(z.string(), z.unknown()).nullable(),
  }),
  scope: "account",
  role: "READER",
  summary: "One model configuration record, keys masked",
});
export const updateModelConfig = route({
  method: "PATCH",
  path: "/api/v1/account/:account/default_model/:model_id",
  params: ConfigParams,
  body: ModelConfigBody,
  response: ModelConfigRecord,
  ...accountOwner,
  summary: "Update a model configuration record (applied again to its kbids)",
});
export const deleteModelConfig = route({
  method: "DELETE",
  path: "/api/v1/account/:account/default_model/:model_id",
  params: ConfigParams,
  status: 204,
  ...accountOwner,
  summary: "Delete a model configuration record (the boxes keep their configuration)",
});

const BEDROCK = "/api/v1/account/:account/assume_role/bedrock";
const bedrock = { params: Account, response: z.object({}), ...accountOwner } as const;
export const bedrockStart = route({ method: "GET", path: BEDROCK, ...bedrock, summary: "Bedrock role start (400: not served)" });
export const bedrockFinish = route({
  method: "POST",
  path: BEDROCK,
  body: z.unknown(),
  ...bedrock,
  summary: "Bedrock role finish (400: not served)",
});
export const bedrockDelete = route({
  method: "DELETE",
  path: BEDROCK,
  ...bedrock,
  summary: "Bedrock role delete (400: not served)",
});
export const bedrockValidate = route({
  method: "GET",
  path: `${BEDROCK}/validate`,
  ...bedrock,
  summary: "Bedrock role validation (400: not served)",
});

export const deleteAccountModel = route({
  method: "DELETE",
  path: "/api/v1/account/:account/model/:model_id",
  params: ConfigParams,
  status: 204,
  scope: "account",
  role: "MANAGER",
  summary: "Remove a model from the daemon (refused with 409 while a knowledge box uses it)",
});
const KbModelParams = Account.extend({ kbid: z.string(), model_id: z.string() });
export const addAccountModelToKb = route({
  method: "POST",
  path: "/api/v1/account/:account/models/:kbid",
  params: Account.extend({ kbid: z.string() }),
  body: z.object({ id: z.string().min(1).max(512) }),
  response: ModelConfiguration,
  role: "OWNER",
  summary: "Add a model to a knowledge box (as POST /models/{kbid})",
});
export const removeAccountModelFromKb = route({
  method: "DELETE",
  path: "/api/v1/account/:account/models/:kbid/:model_id",
  params: KbModelParams,
  status: 204,
  role: "OWNER",
  summary:
    "Remove a model from a knowledge box: a semantic model leaves its semantic models (its vectorset is dropped), its generative model goes back to the default",
});
export const downloadModelFileNua = route({
  method: "GET",
  path: "/api/v1/download/:kbid/model/:model_id/:filename",
  params: z.object({ kbid: z.string(), model_id: z.string().min(1), filename: z.string().min(1) }),
  query: z.object({ account_id: z.string().optional() }),
  role: "READER",
  summary: "Download a file of one of the knowledge box's models (as /kb/{kbid}/models/{model_id}/{filename})",
});
