import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { agentAskCommand } from "./ask.js";
import { agentCreateCommand } from "./create.js";
import { agentDeleteCommand } from "./delete.js";
import { agentDriverCommand } from "./driver.js";
import { agentExportCommand } from "./export.js";
import { agentImportCommand } from "./import.js";
import { agentListCommand } from "./list.js";
import { agentPromptCommand } from "./prompt.js";
import { agentRuleCommand } from "./rule.js";
import { agentSessionCommand } from "./session.js";
import { agentShowCommand } from "./show.js";
import { agentWorkflowCommand } from "./workflow.js";

export function agentCommand(ctx: Context): Command {
  return new Command("agent")
    .description("Retrieval agents: plan, retrieve from several knowledge boxes and answer, in sessions")
    .addCommand(agentCreateCommand(ctx))
    .addCommand(agentListCommand(ctx))
    .addCommand(agentShowCommand(ctx))
    .addCommand(agentDeleteCommand(ctx))
    .addCommand(agentAskCommand(ctx))
    .addCommand(agentSessionCommand(ctx))
    .addCommand(agentDriverCommand(ctx))
    .addCommand(agentWorkflowCommand(ctx))
    .addCommand(agentRuleCommand(ctx))
    .addCommand(agentPromptCommand(ctx))
    .addCommand(agentExportCommand(ctx))
    .addCommand(agentImportCommand(ctx));
}
