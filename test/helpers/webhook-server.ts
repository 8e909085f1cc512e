import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebhookCall {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A webhook receiver on 127.0.0.1: answers `statuses` in turn (then 200) and records every call. */
export async function startWebhookServer(statuses: number[] = []): Promise<{
  url: string;
  calls: WebhookCall[];
  waitFor: (n: number, ms?: number) => Promise<WebhookCall[]>;
  close: () => Promise<void>;
}> {
  const calls: WebhookCall[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const status = statuses.shift() ?? 200;
      calls.push({ headers: req.headers, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const waitFor = async (n: number, ms = 15_000) => {
    const until = Date.now() + ms;
    while (calls.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    return calls;
  };
  return { url, calls, waitFor, close: () => new Promise((r) => server.close(() => r())) };
}
