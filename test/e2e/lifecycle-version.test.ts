import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main as daemonMain } from "../../daemon/main.js";
import * as daemonApi from "../../src/api/daemon.js";
import { VERSION } from "../../src/api/version.js";
import { runCli, startTestDaemon } from "../helpers/daemon.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

describe("versions", () => {
  it("src/api/version.ts VERSION equals package.json's version", () => {
    expect(VERSION).toBe(pkg.version);
  });

  it("kbox --version prints it on stdout", async () => {
    const r = await runCli(["--version"], { NO_COLOR: "1" });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect(r.stderr).toBe("");
  });

  it("kboxd --version prints it, and a bad flag is a usage error", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const w = process.stdout.write.bind(process.stdout);
    const e = process.stderr.write.bind(process.stderr);
    process.stdout.write = ((s: string) => out.push(s) > 0) as typeof process.stdout.write;
    process.stderr.write = ((s: string) => err.push(s) > 0) as typeof process.stderr.write;
    let code: number;
    let bad: number;
    try {
      code = await daemonMain(["--version"]);
      bad = await daemonMain(["--no-such-flag"]);
    } finally {
      process.stdout.write = w;
      process.stderr.write = e;
    }
    expect(code).toBe(0);
    expect(out.join("")).toBe(`${pkg.version}\n`);
    expect(bad).toBe(2);
    expect(err.join("")).toMatch(/Unknown option/);
  });

  it("the daemon's hello reports it with the protocol", async () => {
    const d = await startTestDaemon();
    try {
      const h = await d.client.call(daemonApi.hello);
      expect(h).toMatchObject({ name: "kboxd", version: pkg.version, protocol: 1, pid: process.pid });
    } finally {
      await d.stop();
    }
  });
});
