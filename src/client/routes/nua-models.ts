// Generated from src/api/nua-models.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/nua-models.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/nua-models.js";
import type { Routed } from "../client.js";

export type * from "../../api/nua-models.js";

export const accountModel: Routed<typeof api.accountModel> = {
  method: "GET",
  path: "/api/v1/account/:account/model/:model_id",
  stream: false,
};
export const accountModels: Routed<typeof api.accountModels> = {
  method: "GET",
  path: "/api/v1/account/:account/models",
  stream: false,
};
export const accountSchema: Routed<typeof api.accountSchema> = {
  method: "GET",
  path: "/api/v1/account/:account/schema",
  stream: false,
};
export const addAccountModelToKb: Routed<typeof api.addAccountModelToKb> = {
  method: "POST",
  path: "/api/v1/account/:account/models/:kbid",
  stream: false,
};
export const addKbModel: Routed<typeof api.addKbModel> = { method: "POST", path: "/api/v1/models/:kbid", stream: false };
export const bedrockDelete: Routed<typeof api.bedrockDelete> = {
  method: "DELETE",
  path: "/api/v1/account/:account/assume_role/bedrock",
  stream: false,
};
export const bedrockFinish: Routed<typeof api.bedrockFinish> = {
  method: "POST",
  path: "/api/v1/account/:account/assume_role/bedrock",
  stream: false,
};
export const bedrockStart: Routed<typeof api.bedrockStart> = {
  method: "GET",
  path: "/api/v1/account/:account/assume_role/bedrock",
  stream: false,
};
export const bedrockValidate: Routed<typeof api.bedrockValidate> = {
  method: "GET",
  path: "/api/v1/account/:account/assume_role/bedrock/validate",
  stream: false,
};
export const createModelConfig: Routed<typeof api.createModelConfig> = {
  method: "POST",
  path: "/api/v1/account/:account/default_models",
  stream: false,
};
export const creationSchema: Routed<typeof api.creationSchema> = {
  method: "GET",
  path: "/api/v1/learning/configuration/schema",
  stream: false,
};
export const creationSchemaShort: Routed<typeof api.creationSchemaShort> = {
  method: "GET",
  path: "/api/v1/schema",
  stream: false,
};
export const deleteAccountModel: Routed<typeof api.deleteAccountModel> = {
  method: "DELETE",
  path: "/api/v1/account/:account/model/:model_id",
  stream: false,
};
export const deleteConfig: Routed<typeof api.deleteConfig> = { method: "DELETE", path: "/api/v1/config/:kbid", stream: false };
export const deleteModelConfig: Routed<typeof api.deleteModelConfig> = {
  method: "DELETE",
  path: "/api/v1/account/:account/default_model/:model_id",
  stream: false,
};
export const downloadModelFileNua: Routed<typeof api.downloadModelFileNua> = {
  method: "GET",
  path: "/api/v1/download/:kbid/model/:model_id/:filename",
  stream: false,
};
export const getConfig: Routed<typeof api.getConfig> = { method: "GET", path: "/api/v1/config/:kbid", stream: false };
export const getModelConfig: Routed<typeof api.getModelConfig> = {
  method: "GET",
  path: "/api/v1/account/:account/default_model/:model_id",
  stream: false,
};
export const kbModel: Routed<typeof api.kbModel> = { method: "GET", path: "/api/v1/models/:kbid/model/:model_id", stream: false };
export const kbModels: Routed<typeof api.kbModels> = { method: "GET", path: "/api/v1/models/:kbid", stream: false };
export const listModelConfigs: Routed<typeof api.listModelConfigs> = {
  method: "GET",
  path: "/api/v1/account/:account/default_models",
  stream: false,
};
export const patchConfig: Routed<typeof api.patchConfig> = { method: "PATCH", path: "/api/v1/config/:kbid", stream: false };
export const removeAccountModelFromKb: Routed<typeof api.removeAccountModelFromKb> = {
  method: "DELETE",
  path: "/api/v1/account/:account/models/:kbid/:model_id",
  stream: false,
};
export const setConfig: Routed<typeof api.setConfig> = { method: "POST", path: "/api/v1/config/:kbid", stream: false };
export const updateModelConfig: Routed<typeof api.updateModelConfig> = {
  method: "PATCH",
  path: "/api/v1/account/:account/default_model/:model_id",
  stream: false,
};
export const updateSchema: Routed<typeof api.updateSchema> = { method: "GET", path: "/api/v1/schema/:kbid", stream: false };
