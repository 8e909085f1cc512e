/** The wire contract: every route of the daemon, grouped by area. */
export * as accounts from "./accounts.js";
export * as common from "./common.js";
export * as daemon from "./daemon.js";
export * as doctor from "./doctor.js";
export * as errors from "./errors.js";
export * as fields from "./fields.js";
export * as kbs from "./kbs.js";
export * as models from "./models.js";
export * as resources from "./resources.js";
export { buildPath, buildQuery, route, type RouteDef } from "./route.js";
