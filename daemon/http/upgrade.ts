/**
 * WebSocket routes. An HTTP upgrade request goes through the app like any GET (authentication,
 * role and scope, parsing: the same errors as plain HTTP, written on the socket before it closes);
 * the route's handler takes the upgrade with `takeUpgrade(req)` and gets the open WebSocket.
 */
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { KboxError } from "../errors.js";

type Accept = () => Promise<WebSocket>;
const pending = new WeakMap<Request, Accept>();

/** Messages larger than this close the socket (1009): questions are small. */
const MAX_MESSAGE = 1 << 20;

/**
 * The upgrade of a WebSocket request, to call once the route has checked what it needs; undefined
 * for a request without `Upgrade: websocket` (answer it `notUpgraded()`, after the route's own 404s).
 */
export function takeUpgrade(req: Request): Accept | undefined {
  const accept = pending.get(req);
  pending.delete(req);
  return accept;
}

/** 426: a plain request to a WebSocket route. */
export const notUpgraded = () =>
  new KboxError(426, "This route is a WebSocket: open it with Upgrade: websocket (or use the POST form)", {
    upgrade: "websocket",
  });

export interface Upgrades {
  /** The server's `upgrade` listener. */
  listener: (incoming: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Close every open WebSocket (1001, going away): the daemon stops. */
  close: () => void;
}

/** Upgrades served by `fetch` (the app), with `env` for each request (the connection's transport). */
export function createUpgrades(
  fetch: (req: Request, env: Record<string, unknown>) => Response | Promise<Response>,
  env: (incoming: IncomingMessage) => Record<string, unknown>,
): Upgrades {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  const open = new Set<WebSocket>();

  const refuse = async (socket: Duplex, res: Response) => {
    const body = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get("content-type") ?? "application/json";
    socket.end(
      `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ""}\r\ncontent-type: ${type}\r\n` +
        `content-length: ${body.length}\r\nconnection: close\r\n\r\n${body.toString("utf8")}`,
    );
  };

  const listener = (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    if ((incoming.headers.upgrade ?? "").toLowerCase() !== "websocket" || !incoming.headers["sec-websocket-key"]) {
      void refuse(socket, Response.json({ detail: "Only WebSocket upgrades are served" }, { status: 400 }));
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined) for (const x of [v].flat()) headers.append(k, x);
    const req = new Request(`http://${incoming.headers.host ?? "localhost"}${incoming.url ?? "/"}`, { headers });
    let taken = false;
    pending.set(req, () => {
      taken = true;
      return new Promise<WebSocket>((resolve, reject) => {
        socket.once("close", () => reject(new Error("the client left during the WebSocket handshake")));
        wss.handleUpgrade(incoming, socket, head, (ws) => {
          open.add(ws);
          ws.once("close", () => open.delete(ws));
          resolve(ws);
        });
      });
    });
    void (async () => {
      let res: Response;
      try {
        res = await fetch(req, env(incoming));
      } catch {
        res = Response.json({ detail: "Internal server error" }, { status: 500 });
      }
      pending.delete(req);
      if (!taken) await refuse(socket, res).catch(() => socket.destroy());
    })();
  };

  return {
    listener,
    close: () => {
      for (const ws of open) {
        ws.close(1001, "kboxd is stopping");
        setTimeout(() => ws.terminate(), 1000).unref();
      }
    },
  };
}
