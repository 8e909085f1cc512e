import { join } from "node:path";
import { PredictService } from "./ask/predict.js";
import { AskService } from "./ask/service.js";
import { AuthService } from "./auth/service.js";
import { BackupScheduler } from "./backup/scheduler.js";
import { BackupService } from "./backup/service.js";
import { ProcessingQueue } from "./ingest/queue.js";
import { ingestSettings } from "./ingest/retry.js";
import { LearningService } from "./kbs/learning.js";
import { KbService } from "./kbs/service.js";
import { StrategyService } from "./kbs/strategies.js";
import { ModelService } from "./models/service.js";
import { ResourceService } from "./resources/service.js";
import { CatalogService } from "./search/catalog.js";
import { LabelsetService, SearchConfigService } from "./search/configs.js";
import { SearchService } from "./search/service.js";
import { Store } from "./store/index.js";
import { SyncService } from "./sync/service.js";
import { UploadService } from "./uploads/service.js";
import { TusService } from "./uploads/tus.js";

/** Facts about the running daemon that routes report. */
export interface DaemonInfo {
  version: string;
  started: string;
  dataDir: string;
  listen: string[];
  /** Ask the daemon to drain and stop. */
  requestStop: () => void;
  /** The daemon log (file, and stderr in the foreground). */
  log: (msg: string) => void;
  /** The daemon's environment (settings such as KBOX_INGEST_RETRY_DEADLINE); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Whether a TCP listener is configured (some defaults are stricter then). */
  tcp?: boolean;
}

/** Every service of the daemon, built once at start; routes receive this. */
export interface Services {
  store: Store;
  kbs: KbService;
  resources: ResourceService;
  auth: AuthService;
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
  models: ModelService;
  /** A knowledge box's model (learning) configuration: read, validated updates, available models. */
  learning: LearningService;
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
  info: DaemonInfo;
  /** Work to finish before the daemon stops (queues, watchers), in registration order. */
  onClose: (fn: () => Promise<void>) => void;
  close: () => Promise<void>;
}

/** Open the data dir and wire the services together. */
export async function createServices(info: DaemonInfo): Promise<Services> {
  const store = await Store.open(info.dataDir);
  const kbs = new KbService(store);
  const resources = new ResourceService(kbs);
  const auth = new AuthService(store);
  const models = new ModelService(join(info.dataDir, "models"), kbs);
  const backups = await BackupService.open(store, kbs, info.version);
  const backupSchedules = await BackupScheduler.open(store, kbs, backups);
  const search = new SearchService(kbs, new SearchConfigService(kbs), () => models);
  const processing = new ProcessingQueue(kbs, models, {
    log: info.log,
    settings: ingestSettings(info.env ?? process.env, info.tcp ?? false),
  });
  const uploads = new UploadService(kbs, resources);
  resources.processing = processing;
  const sync = new SyncService(kbs, resources, info.log);
  const strategies = new StrategyService(kbs);
  strategies.addUser(async (kbid, kind, id) => {
    const c = kind === "extract" ? (await sync.configs(kbid)).find((x) => x.extract_strategy === id) : undefined;
    return c ? `sync configuration ${c.name} (${c.id})` : undefined;
  });
  // Stop in order: what produces work (sync, schedules) before the queue that processes it, and the
  // queue before the readers and stores it writes to.
  const closers: (() => Promise<void>)[] = [
    () => sync.runner.close(),
    () => backupSchedules.close(),
    () => processing.stop(),
    () => backups.close(),
    () => search.close(),
  ];
  const self: Services = {
    store,
    kbs,
    resources,
    auth,
    backups,
    backupSchedules,
    search,
    catalog: new CatalogService(kbs, search),
    labelsets: new LabelsetService(kbs),
    strategies,
    models,
    learning: new LearningService(kbs, models),
    ask: new AskService(kbs, resources, () => search),
    predict: new PredictService(kbs, () => models),
    sync,
    processing,
    uploads,
    tus: new TusService(kbs, uploads),
    info,
    onClose: (fn) => closers.push(fn),
    close: async () => {
      for (const fn of closers) await fn().catch(() => undefined);
      // Models close after the queues that embed with them have drained.
      await models.close().catch(() => undefined);
      await store.close();
    },
  };
  // Resume PENDING work left by the last run (kill -9 included) without delaying start-up.
  void processing.start().catch((e) => info.log(`ingest start failed: ${(e as Error).message}`));
  // Reconcile folders and sitemaps and start watchers in the background, after everything is wired.
  void sync.runner.start().catch((e) => info.log(`sync start failed: ${(e as Error).message}`));
  return self;
}
