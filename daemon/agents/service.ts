/** Retrieval agents (daemon/agents): configuration, sessions, interaction, audit, export and import. */
import type { FindService } from "../ask/retrieve.js";
import type { KbService } from "../kbs/service.js";
import type { GeneratorSettings } from "../models/generate/registry.js";
import type { FetchPolicy } from "../net/outbound.js";
import { AuditService } from "./audit.js";
import { AgentConfigService } from "./config.js";
import { DriverRetriever } from "./drivers.js";
import { InteractionService } from "./interact.js";
import { AgentMcp } from "./mcp.js";
import { SecretBox } from "./secrets.js";
import { SessionService } from "./sessions.js";
import { AgentSockets } from "./socket.js";
import { AgentTables } from "./tables.js";
import { TransferService } from "./transfer.js";

export interface AgentSettings {
  /** Where the key that seals driver configurations lives (the data dir's secrets folder). */
  secretsDir: string;
  generation: GeneratorSettings;
  /** What remote drivers may reach (the daemon's outbound-fetch policy). */
  fetch: FetchPolicy;
  /** The daemon's version (the MCP server's). */
  version: string;
}

export class AgentService {
  readonly config: AgentConfigService;
  readonly sessions: SessionService;
  readonly interactions: InteractionService;
  readonly audit: AuditService;
  readonly transfer: TransferService;
  /** Agent sessions as MCP servers. */
  readonly mcp: AgentMcp;
  /** The WebSocket interaction. */
  readonly sockets: AgentSockets;

  constructor(kbs: KbService, search: FindService, settings: AgentSettings) {
    const tables = new AgentTables(kbs);
    this.config = new AgentConfigService(tables, new SecretBox(settings.secretsDir));
    this.sessions = new SessionService(tables);
    this.interactions = new InteractionService(
      this.config,
      new DriverRetriever(kbs, search, settings.fetch),
      settings.generation,
    );
    this.audit = new AuditService(tables);
    this.transfer = new TransferService(this.config);
    this.sockets = new AgentSockets(this.config, this.interactions);
    this.mcp = new AgentMcp(this.interactions, this.sessions, settings.version);
  }
}
