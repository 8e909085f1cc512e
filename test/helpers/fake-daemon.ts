/**
 * A fake transport for testing a verb's flags and output without a daemon: the CLI runs in-process
 * (buffer IO, TTY or piped) with `ContextDeps.transport` replaced, every request is recorded, and
 * each answer is canned. Canned answers and the CLI's JSON bodies are checked against the src/api
 * route they belong to, so the fake cannot drift from the wire: a body the daemon would refuse is
 * answered 422 as the daemon would, and a canned response the schema rejects fails the test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import * as daemonApi from "../../src/api/daemon.js";
import { toValidationIssues } from "../../src/api/errors.js";
import type { RouteDef } from "../../src/api/route.js";
import { PROTOCOL_VERSION, VERSION } from "../../src/api/version.js";
import { bufferIO, type IO } from "../../src/cli/io.js";
import { type RawRequest, type RawResponse, readAll, type Target, type Transport } from "../../src/client/transport.js";
import { main } from "../../src/main.js";

/** A request the CLI sent, as the daemon would see it. */
export interface Recorded {
  target: Target;
  method: string;
  /** The path without its query. */
  path: string;
  /** The route's `:name` parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The body parsed as JSON (JSON requests). */
  json?: unknown;
  /** The body's bytes. */
  raw: Buffer;
  /** The route it matched, when one was canned for it. */
  route?: RouteDef;
}

/** A canned answer: JSON, NDJSON items, or raw bytes, with a status and headers. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  ndjson?: unknown[];
  body?: string | Buffer;
}

type Answer = Reply | ((req: Recorded) => Reply | Promise<Reply>);

interface Canned {
  def: RouteDef;
  re: RegExp;
  names: string[];
  answer: Answer;
}

/** The hello a current daemon says, so the local profile connects without starting one. */
export const HELLO = {
  name: "kboxd" as const,
  version: VERSION,
  protocol: PROTOCOL_VERSION,
  pid: 4242,
  started: "2025-01-01T00:00:00Z",
  data_dir: "/fake/data",
  listen: ["/fake/run/kboxd.sock"],
};

function template(path: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const body = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:([A-Za-z_]+)/g, (_, n: string) => {
    names.push(n);
    return "([^/]+)";
  });
  return { re: new RegExp(`^${body}$`), names };
}

function respond(r: Reply): RawResponse {
  const headers: Record<string, string> = { ...r.headers };
  let chunks: Buffer[];
  if (r.ndjson) {
    headers["content-type"] ??= "application/x-ndjson";
    // One item a chunk, as a stream arrives.
    chunks = r.ndjson.map((i) => Buffer.from(`${JSON.stringify(i)}\n`));
  } else if (r.json !== undefined) {
    headers["content-type"] ??= "application/json";
    chunks = [Buffer.from(JSON.stringify(r.json))];
  } else chunks = [Buffer.from(r.body ?? "")];
  return { status: r.status ?? 200, headers, body: Readable.from(chunks) };
}

/** A daemon stand-in for in-process CLI tests: canned answers by route, every request recorded. */
export class FakeDaemon {
  readonly requests: Recorded[] = [];
  private readonly canned: Canned[] = [];
  readonly home = mkdtempSync(join(tmpdir(), "kbox-fake-"));

  constructor() {
    this.on(daemonApi.hello, { json: HELLO });
  }

  /** Answer a route (the src/api definition) with a reply, or a function of the request; the latest wins. */
  on(def: RouteDef, answer: Answer): this {
    this.canned.unshift({ def, ...template(def.path), answer });
    return this;
  }

  /** The requests besides the hello handshake, as `METHOD path`. */
  calls(): string[] {
    return this.requests.filter((r) => r.route !== daemonApi.hello).map((r) => `${r.method} ${r.path}`);
  }

  /** The last recorded request to a route. */
  last(def: RouteDef): Recorded | undefined {
    return this.requests.filter((r) => r.route === def).at(-1);
  }

  readonly transport =
    (target: Target): Transport =>
    (req) =>
      this.handle(target, req);

  private async handle(target: Target, req: RawRequest): Promise<RawResponse> {
    const url = new URL(req.path, "http://kboxd");
    const raw =
      req.body === undefined
        ? Buffer.alloc(0)
        : typeof req.body === "string" || Buffer.isBuffer(req.body)
          ? Buffer.from(req.body)
          : await readAll(req.body as Readable);
    const headers = Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const rec: Recorded = { target, method: req.method, path: url.pathname, params: {}, query: url.searchParams, headers, raw };
    if (headers["content-type"] === "application/json" && raw.length) rec.json = JSON.parse(raw.toString("utf8"));
    this.requests.push(rec);
    const hit = this.canned.find((c) => c.def.method === req.method && c.re.test(url.pathname));
    if (!hit) return respond({ status: 404, json: { detail: `no canned answer for ${req.method} ${url.pathname}` } });
    rec.route = hit.def;
    const m = hit.re.exec(url.pathname) as RegExpExecArray;
    hit.names.forEach((n, i) => {
      rec.params[n] = decodeURIComponent(m[i + 1]);
    });
    if (hit.def.bodyKind === "json") {
      const parsed = hit.def.body.safeParse(rec.json);
      if (!parsed.success) return respond({ status: 422, json: { detail: toValidationIssues(parsed.error, "body", rec.json) } });
    }
    const reply = typeof hit.answer === "function" ? await hit.answer(rec) : hit.answer;
    if ((reply.status ?? 200) < 400 && reply.json !== undefined && !hit.def.stream) hit.def.response.parse(reply.json);
    return respond(reply);
  }

  /** Run `kbox <args>` in-process against this fake (in its temp home), with buffers for stdout and stderr. */
  async run(args: string[], o: { tty?: boolean; stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
    const env = { KBOX_HOME: this.home, NO_COLOR: "1", ...o.env };
    const b = bufferIO({ env, tty: o.tty, stdin: o.stdin, cwd: o.cwd ?? this.home });
    const code = await main(args, b.io as IO, { transport: this.transport });
    return { code, stdout: b.stdout(), stderr: b.stderr() };
  }

  /** Remove the temp KBOX_HOME (config files the commands wrote). */
  close(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}
