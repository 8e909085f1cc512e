import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The install path of the README, run with the real npm on this machine.
const root = join(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** npm as a user runs it: without CI's ONNXRUNTIME_NODE_INSTALL (the repo's own settings must do). */
function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const clean = { ...process.env, ...env };
  delete clean.ONNXRUNTIME_NODE_INSTALL;
  for (const k of Object.keys(clean)) if (k.startsWith("npm_config_") && !(k in env)) delete clean[k];
  return spawnSync("npm", args, { cwd, env: clean, encoding: "utf8", timeout: 120_000 });
}

describe("installing kbox", () => {
  it("npm in the repo prints no warning about the repo's own configuration", () => {
    const r = npm(["config", "get", "fund"], root);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe("false");
    expect(r.stderr).not.toMatch(/npm warn/i);
  });

  it("npm install skips onnxruntime-node's CUDA download (package.json allowScripts)", (ctx) => {
    expect(pkg.allowScripts["onnxruntime-node"]).toBe(false);
    const dir = temp("kbox-ort-");
    const version = JSON.parse(readFileSync(join(root, "node_modules/onnxruntime-node/package.json"), "utf8")).version;
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "ort-check",
        version: "1.0.0",
        private: true,
        dependencies: { "onnxruntime-node": version },
        allowScripts: pkg.allowScripts,
      }),
    );
    const r = npm(["install", "--offline", "--foreground-scripts", "--no-audit", "--no-fund"], dir);
    if (/ENOTCACHED/.test(r.stderr)) ctx.skip(); // no npm cache to install from offline
    expect(r.status, r.stderr).toBe(0);
    const bin = join(dir, "node_modules/onnxruntime-node/bin/napi-v6/linux/x64");
    if (process.platform === "linux" && process.arch === "x64") {
      expect(existsSync(join(bin, "onnxruntime_binding.node"))).toBe(true); // the CPU build ships in the package
      expect(existsSync(join(bin, "libonnxruntime_providers_cuda.so"))).toBe(false);
    }
    expect(r.stdout + r.stderr).not.toMatch(/nvcc|Downloading/i);
  });

  it.skipIf(!existsSync(join(root, "dist/bin/kbox.js")))("npm link --ignore-scripts puts kbox on the PATH", () => {
    const prefix = temp("kbox-prefix-");
    const r = npm(["link", "--ignore-scripts", "--no-audit", "--no-fund"], root, { npm_config_prefix: prefix });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/npm warn/i);
    const v = spawnSync("kbox", ["--version"], {
      env: { ...process.env, PATH: `${join(prefix, "bin")}:${process.env.PATH}` },
      encoding: "utf8",
    });
    expect(v.stdout.trim()).toBe(pkg.version);
  });
});
