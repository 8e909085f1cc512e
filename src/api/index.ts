/** The wire contract: every route of the daemon, grouped by area. */
export * as accounts from "./accounts.js";
export * as common from "./common.js";
export * as daemon from "./daemon.js";
export * as doctor from "./doctor.js";
export * as errors from "./errors.js";
export * as fields from "./fields.js";
export * as filters from "./filters.js";
export * as find from "./find.js";
export * as kbs from "./kbs.js";
export * as labelsets from "./labelsets.js";
export * as models from "./models.js";
export * as processing from "./processing.js";
export * as resources from "./resources.js";
export { buildPath, buildQuery, type RouteDef, route } from "./route.js";
export * as search from "./search.js";
export * as searchConfigs from "./search-configs.js";
export * as strategies from "./strategies.js";
export * as uploads from "./uploads.js";
