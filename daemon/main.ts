import { parseArgs } from "node:util";
import { VERSION } from "../src/api/version.js";
import { tuneHeap } from "./lifecycle/heap.js";
import { startDaemon } from "./server.js";

const HELP = `kboxd — the kbox daemon

Usage: kboxd [--listen [host:]port] [--data s3://bucket/prefix] [--trust-roles-header] [--foreground]

Serves the knowledge-box API (/api/v1) on a private Unix socket under the runtime dir
(KBOX_HOME/run, else $XDG_RUNTIME_DIR/kbox). Usually started by the kbox CLI.

Options:
  --listen [host:]port    also listen on TCP (loopback unless a host is given); every TCP
                          request needs a service-account key
  --data URI              keep every table and blob at this object-store URI (KBOX_DATA_URI;
                          endpoint and credentials from AWS_*; see docs/object-storage.md)
  --trust-roles-header    accept X-NUCLIADB-ROLES from loopback TCP clients (standalone SDK mode)
  --foreground            log to stderr as well as the log file
  --version, --help
Environment: KBOX_HOME puts config, data, socket, pid and logs under one folder; every
setting the daemon reads is in docs/settings.md.`;

/** Run the daemon until SIGTERM/SIGINT; resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args: argv,
      options: {
        listen: { type: "string" },
        data: { type: "string" },
        "trust-roles-header": { type: "boolean", default: false },
        foreground: { type: "boolean", default: false },
        version: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    });
  }
  try {
    args = parse();
  } catch (e) {
    process.stderr.write(`kboxd: ${(e as Error).message}\n${HELP}\n`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (args.values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  tuneHeap();
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  try {
    daemon = await startDaemon({
      listen: args.values.listen,
      data: args.values.data,
      trustRolesHeader: args.values["trust-roles-header"],
      foreground: args.values.foreground,
    });
  } catch (e) {
    process.stderr.write(`kboxd: ${(e as Error).message}\n`);
    return 1;
  }
  const onSignal = () => void daemon.stop();
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("SIGHUP", () => undefined);
  await daemon.stopped;
  return 0;
}
