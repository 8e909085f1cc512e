import { userInfo } from "node:os";
import { join } from "node:path";
import { ActivityDownloads } from "./activity/downloads.js";
import { Scorer } from "./activity/scorer.js";
import { ActivityService } from "./activity/service.js";
import { FolderAddService } from "./add/service.js";
import { AgentService } from "./agents/service.js";
import { AgenticConfigService } from "./ask/agentic.js";
import { PredictService } from "./ask/predict.js";
import { PredictProxy } from "./ask/predict-proxy.js";
import { RetrievalService } from "./ask/retrieval.js";
import { AskService } from "./ask/service.js";
import { SourceService } from "./ask/sources.js";
import { SummarizeService } from "./ask/summarize.js";
import { loadSigningKey } from "./auth/jwt.js";
import { AuthService } from "./auth/service.js";
import { TokenService } from "./auth/tokens.js";
import { BackupScheduler } from "./backup/scheduler.js";
import { BackupService } from "./backup/service.js";
import { DatasetService } from "./datasets/service.js";
import { GuardrailService, type GuardrailViolation } from "./guardrails/service.js";
import { type ProcessedEvent, ProcessingQueue } from "./ingest/queue.js";
import { EntitiesGroupService } from "./kbs/entities.js";
import { FeedbackService } from "./kbs/feedback.js";
import { KvSchemaService } from "./kbs/kv-schemas.js";
import { LearningService } from "./kbs/learning.js";
import { ModelConfigs } from "./kbs/model-configs.js";
import { KbModelService } from "./kbs/models.js";
import { KbService } from "./kbs/service.js";
import { StrategyService } from "./kbs/strategies.js";
import { SynonymService } from "./kbs/synonyms.js";
import { VectorsetService } from "./kbs/vectorsets.js";
import type { Log } from "./lifecycle/logger.js";
import { McpService } from "./mcp/service.js";
import { ModelService } from "./models/service.js";
import { NuaProcessing } from "./nua/processing.js";
import { NuaTus } from "./nua/tus.js";
import { NuaUsage } from "./nua/usage.js";
import { ResourceService } from "./resources/service.js";
import { CatalogService } from "./search/catalog.js";
import { LabelsetService, SearchConfigService } from "./search/configs.js";
import { GraphService } from "./search/graph.js";
import { SearchService } from "./search/service.js";
import type { DaemonSettings } from "./settings/index.js";
import { Store } from "./store/index.js";
import { SyncService } from "./sync/service.js";
import { type AssetDoc, AssetService } from "./tasks/assets.js";
import { taskImpls } from "./tasks/registry.js";
import { TaskService } from "./tasks/service.js";
import { TrainingService } from "./tasks/training.js";
import { UploadService } from "./uploads/service.js";
import { TusService } from "./uploads/tus.js";
import { AccountService } from "./zone/accounts.js";
import { Credentials } from "./zone/credentials.js";
import { InviteService } from "./zone/invites.js";
import { NuaService } from "./zone/nua.js";
import { UserService } from "./zone/users.js";

/** Facts about the running daemon that routes report. */
export interface DaemonInfo {
  version: string;
  started: string;
  dataDir: string;
  listen: string[];
  /** Ask the daemon to drain and stop. */
  requestStop: () => void;
  /** The daemon log (JSON lines in kboxd.log, and stderr in the foreground). */
  log: Log;
}

/** Every service of the daemon, built once at start; routes receive this. */
export interface Services {
  store: Store;
  kbs: KbService;
  resources: ResourceService;
  auth: AuthService;
  /** The zone: accounts, users and memberships, invitations, personal and short-lived tokens, NUA clients. */
  accounts: AccountService;
  users: UserService;
  invites: InviteService;
  tokens: TokenService;
  nua: NuaService;
  /** The understanding API's processing (each client's internal box, SSE, webhooks) and token usage (daemon/nua). */
  nuaProcessing: NuaProcessing;
  nuaTus: NuaTus;
  nuaUsage: NuaUsage;
  /** Who a presented secret is (daemon/auth/credentials.ts). */
  credentials: Credentials;
  backups: BackupService;
  backupSchedules: BackupScheduler;
  /** Find (keyword, semantic, hybrid), stored search configurations and labelsets. */
  search: SearchService;
  /** Search (resources, fulltext), catalog listings and facets, suggest: over `search`. */
  catalog: CatalogService;
  labelsets: LabelsetService;
  /** Extract and split strategies of knowledge boxes (applied by ingestion). */
  strategies: StrategyService;
  /** Embedders and rerankers per knowledge box; model cache and `kbox models`. */
  models: KbModelService;
  /** A knowledge box's model (learning) configuration: read, validated updates, available models. */
  learning: LearningService;
  /** The accounts' model configuration records (`/default_models`), applied to their boxes. */
  modelConfigs: ModelConfigs;
  /** Custom synonyms, key-value schemas and vectorsets of a knowledge box (daemon/kbs). */
  synonyms: SynonymService;
  kvSchemas: KvSchemaService;
  /** Feedback on answers, by learning id (daemon/kbs). */
  feedback: FeedbackService;
  /** Entities groups the user defines (daemon/kbs). */
  entities: EntitiesGroupService;
  /** Graph search over the relations of resources (daemon/search/graph.ts). */
  graph: GraphService;
  /** The knowledge-box-scoped predict proxy (daemon/ask/predict-proxy.ts). */
  predictProxy: PredictProxy;
  vectorsets: VectorsetService;
  /** Resource summaries, extractive or generated (daemon/ask). */
  summarize: SummarizeService;
  /** Retrieve and augment: the two halves of ask as separate calls (daemon/ask). */
  retrieval: RetrievalService;
  /** Ask: retrieval, context, generation and citations (daemon/ask). */
  ask: AskService;
  /** The understanding API served locally: chat, chat completions, sentences, query analysis, models. */
  predict: PredictService;
  /** Folder and sitemap sync: configurations, jobs, logs, watchers. */
  sync: SyncService;
  /** The durable ingestion queue: extract, split, embed and index PENDING fields (daemon/ingest). */
  processing: ProcessingQueue;
  /** Direct uploads and resumable (TUS) uploads into file fields (daemon/uploads). */
  uploads: UploadService;
  tus: TusService;
  /** `kbox add <folder>` on the local daemon: the daemon reads the named files itself (daemon/add). */
  folderAdd: FolderAddService;
  /** Every knowledge box as an MCP server (streamable HTTP sessions; daemon/mcp). */
  mcp: McpService;
  /** The activity log of every knowledge box: recording, queries, metrics, quality scores (daemon/activity). */
  activity: ActivityService;
  activityDownloads: ActivityDownloads;
  /** Retrieval agents: configuration, sessions, interaction over drivers, audit, export and import (daemon/agents). */
  agents: AgentService;
  /** Account guardrail policies: CRUD, evaluation, screening of ask and predict queries (daemon/guardrails). */
  guardrails: GuardrailService;
  /** Datasets of an account: records, partitions, generation from a knowledge box (daemon/datasets). */
  datasets: DatasetService;
  /** Tasks on knowledge boxes: the durable runner, labeler, migrator, guard... (daemon/tasks). */
  tasks: TaskService;
  /** Local trainings (the SDK's Training calls). */
  training: TrainingService;
  /** Files tasks produced, with signed download URLs. */
  taskAssets: AssetService;
  /** The daemon's settings, as read at start (daemon/settings). */
  settings: DaemonSettings;
  info: DaemonInfo;
  close: () => Promise<void>;
}

/**
 * Open the data dir and build the services, each after the ones it is given: no service is wired
 * up after it is built. Services that hook knowledge box drops and arrivals (backup schedules,
 * search, the queue, sync) are built in the order those hooks must run.
 */
export async function createServices(settings: DaemonSettings, info: DaemonInfo): Promise<Services> {
  const store = await Store.open(settings.paths.data, settings.store, settings.dataLocation);
  const kbs = new KbService(store);
  const accounts = await AccountService.open(store, settings.zone.name);
  const auth = new AuthService(store, () => accounts.default.id);
  const users = await UserService.open(store, { name: safeUserName() });
  const invites = new InviteService(store);
  const nua = new NuaService(store);
  const issuer = () => settings.zone.publicUrl ?? info.listen.find((l) => l.startsWith("http")) ?? "http://kboxd";
  const tokens = new TokenService(store, loadSigningKey(settings.zone.secretsDir), issuer);
  const credentials = new Credentials({ auth, tokens, users, nua, accounts });
  kbs.onDrop(async (kbid) => {
    await auth.dropKb(kbid);
    await users.dropKb(kbid);
    await invites.dropKb(kbid);
  });
  const models = new KbModelService(kbs, new ModelService(join(settings.paths.data, "models"), settings.models, info.log));
  const backups = await BackupService.open(store, kbs, info.version, info.log);
  const backupSchedules = await BackupScheduler.open(store, kbs, backups, info.log);
  const synonyms = new SynonymService(kbs);
  const search = new SearchService(kbs, new SearchConfigService(kbs), models, settings.search, synonyms);
  const learning = new LearningService(kbs, models, settings.generation);
  const processing = new ProcessingQueue(kbs, models, settings.ingest, { log: info.log });
  const resources = new ResourceService(kbs, processing);
  const nuaUsage = new NuaUsage(store);
  const nuaProcessing = new NuaProcessing(store, kbs, resources, processing, nuaUsage, {
    fetch: settings.fetch,
    log: info.log,
  });
  const uploads = new UploadService(kbs, resources, settings.uploads.maxBytes);
  const syncSettings = { ...settings.sync, dataDir: settings.paths.data, fetch: settings.fetch };
  const sync = new SyncService(kbs, resources, syncSettings, info.log);
  const folderAdd = new FolderAddService(kbs, resources, { sync: syncSettings, maxBytes: settings.uploads.maxBytes });
  const catalog = new CatalogService(kbs, search);
  const activity = new ActivityService(kbs, settings.activity, new Scorer(() => models.reranker()), info.log);
  // Violations go to the daemon log, and on a knowledge box to its activity log (`guardrail` events).
  const guardrails = await GuardrailService.open(
    store,
    settings.generation,
    (ref) => (ref ? accounts.require(ref).id : accounts.default.id),
    async (v) => {
      info.log.warn(`guardrail ${v.blocking ? "blocked" : "flagged"} a query`, { guardrail: v });
      if (v.kbid) await activity.record(v.kbid, "guardrail", guardrailMembers(v));
    },
  );
  const ask = new AskService(
    kbs,
    resources,
    search,
    settings.ask,
    settings.generation,
    new AgenticConfigService(kbs, settings.generation, new SourceService(kbs)),
    guardrails,
  );
  processing.onProcessed((e) => recordProcessed(activity, e));
  const datasets = await DatasetService.open(store, join(settings.paths.data, "datasets"), kbs, (ref) =>
    ref ? accounts.require(ref).id : accounts.default.id,
  );
  const taskAssets = new AssetService(await store.metaTable<AssetDoc>("task_assets"));
  const tasks = await TaskService.open({
    store,
    kbs,
    account: (kb) => accounts.accountOf(kb),
    impls: taskImpls({
      put: async (kbid, rid, id, text) =>
        void (await resources.putField(kbid, { rid }, "text", id, { body: text, format: "PLAIN" })),
      del: (kbid, rid, id) => resources.deleteField(kbid, { rid }, "text", id),
    }),
    deps: { models, learning, guardrails },
    assets: taskAssets,
    generation: settings.generation,
    log: info.log,
    pauseMs: settings.tasks.pauseMs,
  });
  // NEW-data tasks see each resource once processing has written it; with none enabled this is a no-op.
  processing.onProcessed((e) => tasks.processed(e.kbid, e.rid, Object.keys(e.fields)));
  const training = await TrainingService.open(store, kbs);
  kbs.onDrop(async (kbid) => {
    await tasks.dropKb(kbid);
    await training.dropKb(kbid);
    await taskAssets.dropKb(kbid);
  });
  const mcp = new McpService({ kbs, resources, search, catalog, ask }, settings.mcp, info.version);
  const agents = new AgentService(kbs, search, {
    secretsDir: settings.zone.secretsDir,
    generation: settings.generation,
    fetch: settings.fetch,
    version: info.version,
  });
  // Stop in order: what produces work (sync, schedules) before the queue that processes it, and the
  // queue before the readers and stores it writes to.
  const closers: readonly (() => Promise<void>)[] = [
    () => mcp.close(),
    () => agents.mcp.close(),
    () => sync.runner.close(),
    () => tasks.close(),
    () => backupSchedules.close(),
    () => processing.stop(),
    () => backups.close(),
    () => search.close(),
    async () => activity.close(),
  ];
  const predict = new PredictService(kbs, models, settings.generation);
  const self: Services = {
    store,
    kbs,
    resources,
    auth,
    accounts,
    users,
    invites,
    tokens,
    nua,
    nuaProcessing,
    nuaTus: new NuaTus(kbs, nuaProcessing),
    nuaUsage,
    credentials,
    backups,
    backupSchedules,
    search,
    catalog,
    labelsets: new LabelsetService(kbs),
    strategies: new StrategyService(kbs, [sync]),
    models,
    learning,
    synonyms,
    kvSchemas: new KvSchemaService(kbs),
    feedback: new FeedbackService(kbs),
    entities: new EntitiesGroupService(kbs),
    graph: new GraphService(kbs),
    predictProxy: new PredictProxy(kbs, () => models.reranker()),
    vectorsets: new VectorsetService(kbs, models, learning),
    ask,
    summarize: new SummarizeService(kbs, resources, settings.generation),
    retrieval: new RetrievalService(kbs, resources, search),
    predict,
    modelConfigs: new ModelConfigs(
      store,
      kbs,
      learning,
      (m, untrusted) => void predict.generator(m, undefined, untrusted, ["body", "default_model_id"]),
      accounts.default.id,
    ),
    sync,
    processing,
    guardrails,
    tasks,
    taskAssets,
    training,
    datasets,
    uploads,
    folderAdd,
    tus: new TusService(kbs, uploads, settings.uploads.maxBytes),
    mcp,
    activity,
    activityDownloads: new ActivityDownloads(kbs, activity, info.log),
    agents,
    settings,
    info,
    close: async () => {
      for (const fn of closers) await fn().catch(() => undefined);
      // Models close after the queues that embed with them have drained.
      await models.close().catch(() => undefined);
      await store.close();
    },
  };
  // Resume PENDING work left by the last run (kill -9 included) without delaying start-up.
  void processing.start().catch((e) => info.log.error(`ingest start failed: ${(e as Error).message}`));
  // Batches a stop or a kill interrupted go on where they were.
  tasks.resume();
  void nuaProcessing.resume().catch((e) => info.log.error(`nua resume failed: ${(e as Error).message}`));
  // Reconcile folders and sitemaps and start watchers in the background, after everything is wired.
  void sync.runner.start().catch((e) => info.log.error(`sync start failed: ${(e as Error).message}`));
  return self;
}

/** A guardrail violation as an activity row: the query as `question`, the verdict in `audit_metadata`. */
function guardrailMembers(v: GuardrailViolation) {
  return {
    question: v.content,
    status: v.blocking ? "blocked" : "flagged",
    user_type: "DAEMON",
    audit_metadata: {
      policy_id: v.policy_id,
      policy: v.name,
      blocking: String(v.blocking),
      score: String(v.score),
      method: v.method,
      source: v.source,
      reason: v.error ? `${v.reason}: ${v.error}` : v.reason,
    },
  };
}

/** A resource run of the processing queue: a `processed` event, and `indexed` when it left paragraphs in the index. */
async function recordProcessed(activity: ActivityService, e: ProcessedEvent): Promise<void> {
  const members = {
    resource_id: e.rid,
    fields: e.fields,
    paragraphs: e.paragraphs,
    total_duration: e.ms / 1000,
    user_type: "DAEMON",
  };
  await activity.record(e.kbid, "processed", members);
  if (e.paragraphs > 0) await activity.record(e.kbid, "indexed", members);
}

/** The login name of the daemon's user (the ROOT user's name); a host without one gets "owner". */
function safeUserName(): string {
  try {
    return userInfo().username || "owner";
  } catch {
    return "owner";
  }
}
