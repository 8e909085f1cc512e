import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the trap saw. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

/**
 * A loopback HTTP listener standing in for an internal service an attacker would like the daemon to
 * reach: it counts every TCP connection (even ones that never send a request) and records requests.
 * By default it answers a page with a secret in it, which must never come back to a caller.
 */
export class Trap {
  connections = 0;
  readonly seen: Seen[] = [];
  static readonly SECRET = "TRAP-SECRET-internal-page-7f3a";
  private readonly server = createServer((req, res) => this.answer(req, res));
  url = "";

  constructor(
    private readonly handler?: (req: IncomingMessage, res: ServerResponse) => void,
    private readonly host = "127.0.0.1",
  ) {
    this.server.on("connection", () => this.connections++);
  }

  static async start(handler?: (req: IncomingMessage, res: ServerResponse) => void, host = "127.0.0.1"): Promise<Trap> {
    const t = new Trap(handler, host);
    await new Promise<void>((r) => t.server.listen(0, host, () => r()));
    t.url = `http://${host}:${(t.server.address() as AddressInfo).port}`;
    return t;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    this.seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    if (this.handler) {
      this.handler(req, res);
      return;
    }
    res.writeHead(500, { "content-type": "text/html" });
    res.end(`<html><body>${Trap.SECRET}</body></html>`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
