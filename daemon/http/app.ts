import { Hono } from "hono";
import { ANONYMOUS } from "../auth/principal.js";
import type { Log } from "../lifecycle/logger.js";
import type { Services } from "../services.js";
import { type AuthOptions, authenticate, type HttpEnv, type MountContext } from "./auth.js";
import { cors } from "./cors.js";
import { errorResponse } from "./mount.js";
import { JSON_BODY_LIMIT } from "./parse.js";
import { isPublic, unrouted } from "./registry.js";
import * as accounts from "./routes/accounts.js";
import * as activity from "./routes/activity.js";
import * as addFolder from "./routes/add-folder.js";
import * as agentConfig from "./routes/agent-config.js";
import * as agenticConfigs from "./routes/agentic-configs.js";
import * as agents from "./routes/agents.js";
import * as ask from "./routes/ask.js";
import * as backups from "./routes/backups.js";
import * as catalog from "./routes/catalog.js";
import * as daemon from "./routes/daemon.js";
import * as datasets from "./routes/datasets.js";
import * as doctor from "./routes/doctor.js";
import * as find from "./routes/find.js";
import * as graph from "./routes/graph.js";
import * as guardrails from "./routes/guardrails.js";
import * as kbPredict from "./routes/kb-predict.js";
import * as kbSettings from "./routes/kb-settings.js";
import * as kbs from "./routes/kbs.js";
import * as labelsets from "./routes/labelsets.js";
import * as learning from "./routes/learning.js";
import * as mcp from "./routes/mcp.js";
import * as members from "./routes/members.js";
import * as models from "./routes/models.js";
import * as nuaClients from "./routes/nua-clients.js";
import * as nuaModels from "./routes/nua-models.js";
import * as nuaPredict from "./routes/nua-predict.js";
import * as nuaProcessing from "./routes/nua-processing.js";
import * as predict from "./routes/predict.js";
import * as processing from "./routes/processing.js";
import * as resources from "./routes/resources.js";
import * as sdkExtras from "./routes/sdk-extras.js";
import * as search from "./routes/search.js";
import * as searchConfigs from "./routes/search-configs.js";
import * as sources from "./routes/sources.js";
import * as standalone from "./routes/standalone.js";
import * as strategies from "./routes/strategies.js";
import * as sync from "./routes/sync.js";
import * as tasks from "./routes/tasks.js";
import * as tokens from "./routes/tokens.js";
import * as train from "./routes/train.js";
import * as uploads from "./routes/uploads.js";
import * as zone from "./routes/zone.js";

/** Mounts one area's routes (from src/api) on the app. */
export type Area = (app: Hono<HttpEnv>, s: Services) => void;

/** One registration function per area. */
const AREAS: Area[] = [
  daemon.register,
  doctor.register,
  kbs.register,
  learning.register,
  resources.register,
  accounts.register,
  zone.register,
  members.register,
  tokens.register,
  nuaClients.register,
  nuaProcessing.register,
  nuaModels.register,
  nuaPredict.register,
  backups.register,
  find.register,
  activity.register,
  searchConfigs.register,
  strategies.register,
  labelsets.register,
  search.register,
  catalog.register,
  models.register,
  ask.register,
  agenticConfigs.register,
  sources.register,
  guardrails.register,
  predict.register,
  sync.register,
  tasks.register,
  datasets.register,
  train.register,
  processing.register,
  uploads.register,
  addFolder.register,
  mcp.register,
  agents.register,
  agentConfig.register,
  standalone.register,
  kbSettings.register,
  sdkExtras.register,
  graph.register,
  kbPredict.register,
];

export interface AppOptions {
  trustRolesHeader: boolean;
  log: Log;
  /** JSON bodies above this many bytes are refused with 413 (default 64 MiB). */
  jsonBodyLimit?: number;
  /** The areas to mount (default: every area of the daemon); tests mount routes of their own. */
  areas?: Area[];
}

/**
 * The daemon's HTTP app: authentication, every area's routes, and the wire's error bodies. It serves
 * without a socket too: `createApp(services, opts).request(path, init, { conn })` (see test/daemon/http).
 */
export function createApp(s: Services, opts: AppOptions): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  const authOpts: AuthOptions = { credentials: s.credentials, trustRolesHeader: opts.trustRolesHeader };
  const context: MountContext = {
    resolvers: {
      slug: (slug) => s.kbs.bySlug(slug).uuid,
      backup: (id) => s.backups.get(id, "backup").kb_id,
      account: (ref) => s.accounts.require(ref).id,
      kb: (kbid) => {
        const kb = s.store.kbs.get(kbid.toLowerCase());
        return kb && { ...kb, account: s.accounts.accountOf(kb) };
      },
    },
    bodyLimit: opts.jsonBodyLimit ?? JSON_BODY_LIMIT,
    kbExists: (kbid) => s.store.kbs.has(kbid.toLowerCase()),
  };
  app.use(
    "*",
    cors((kbid) => s.store.kbs.get(kbid)),
  );
  // Every request is authenticated before routing (unknown paths included), except a public route's.
  app.use("*", async (c, next) => {
    c.set("principal", isPublic(app, c.req.method, c.req.path) ? ANONYMOUS : authenticate(c, authOpts));
    c.set("mount", context);
    const t0 = performance.now();
    await next();
    // One debug event per request (KBOX_LOG_LEVEL=debug): a stream's is logged when its answer starts.
    opts.log.debug(`${c.req.method} ${c.req.path} ${c.res.status}`, { ms: Math.round(performance.now() - t0) });
  });
  for (const register of opts.areas ?? AREAS) register(app, s);
  app.notFound((c) => unrouted(app, c.req.method, c.req.path));
  app.onError((err) => errorResponse(err, opts.log));
  return app;
}
