/**
 * The import rules `scripts/import-graph.ts` checks (docs/development.md explains them).
 *
 * A daemon area is a folder of daemon/ (daemon/kbs/...) or a top-level file (daemon/services.ts is
 * "services"). Each area may import itself and the areas listed for it, and nothing else of daemon/:
 * the lists form the layers, lowest first, so an arrow back up is an import not listed here.
 */
const DOMAIN: Record<string, readonly string[]> = {
  errors: [],
  lifecycle: [],
  /** Text analysis (tokens, stems, languages): the store computes keyword terms with it on write. */
  text: [],
  store: ["text"],
  /** Named entities and their relations (compromise + the user's entities groups): pure, no storage. */
  entities: ["text"],
  /** The outbound-fetch policy: every fetch the daemon makes for a request goes through it. */
  net: ["errors"],
  models: ["errors", "net"],
  auth: ["errors", "store"],
  /** The zone: accounts, users, invitations, NUA clients, and who a presented credential is. */
  zone: ["errors", "store", "auth"],
  kbs: ["errors", "store", "models", "net"],
  resources: ["errors", "store", "kbs"],
  search: ["errors", "text", "store", "models", "kbs", "resources", "auth", "entities"],
  ingest: ["errors", "lifecycle", "text", "store", "models", "kbs", "resources", "net", "entities"],
  uploads: ["errors", "store", "kbs", "resources"],
  sync: ["errors", "lifecycle", "store", "kbs", "resources", "net"],
  /** `kbox add <folder>` on the local daemon: reads the files under the rules of sync roots. */
  add: ["errors", "store", "kbs", "resources", "sync"],
  backup: ["errors", "lifecycle", "store", "kbs"],
  /** Account guardrail policies and their evaluation (a model, or offline trigger terms). */
  guardrails: ["errors", "store", "models"],
  ask: ["errors", "store", "models", "kbs", "resources", "auth", "search", "net", "entities", "guardrails"],
  /** The understanding API's processing and usage: each client's internal box, through the ingestion queue. */
  nua: ["errors", "lifecycle", "text", "store", "kbs", "resources", "ingest", "net", "auth", "zone", "entities"],
  /** Every knowledge box as an MCP server: tools over search, ask and resources. */
  mcp: ["errors", "store", "kbs", "resources", "auth", "search", "ask"],
  /** The activity log: records of every area's requests, their queries and answer-quality scores. */
  activity: ["errors", "lifecycle", "text", "store", "models", "kbs", "auth"],
  /** Retrieval agents: drivers over search, generation as ask does it. */
  agents: ["errors", "store", "models", "kbs", "auth", "search", "ask", "net"],
  /** Datasets: records, partitions, and partitions generated from a knowledge box. */
  datasets: ["errors", "store", "kbs", "search"],
  /** Tasks on knowledge boxes: the durable runner and the tasks it runs. */
  tasks: ["errors", "lifecycle", "text", "store", "models", "kbs", "resources", "search", "ask", "guardrails", "entities"],
  /** The typed settings: builds each area's settings type from the environment. */
  settings: ["errors", "lifecycle", "store", "models", "search", "ingest", "ask", "mcp", "net", "activity", "sync"],
};

export const DAEMON_AREAS: Record<string, readonly string[]> = {
  ...DOMAIN,
  /** The composition root: builds every service, in dependency order. */
  services: Object.keys(DOMAIN),
  http: [...Object.keys(DOMAIN), "services"],
  server: ["errors", "lifecycle", "settings", "services", "http"],
  main: ["lifecycle", "settings", "server"],
};

/** Packages only `daemon/store` may import: it is the only code that knows LanceDB (tables, columns, SQL, Arrow). */
/** (parquet-wasm writes and reads the Parquet partitions of datasets beside the Arrow ones.) */
export const STORE_PACKAGES: readonly string[] = ["@lancedb/lancedb", "apache-arrow", "parquet-wasm"];

/** Packages `src/api` (the wire contract, shared by daemon and client) may import. */
export const API_PACKAGES: readonly string[] = ["zod"];
