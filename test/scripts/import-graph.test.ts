import { describe, expect, it } from "vitest";
import { areaOf, cycles, ruleViolation } from "../../scripts/import-graph.js";

describe("import graph check", () => {
  it("finds every cycle, and only cycles", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
      ["f", ["d"]],
    ]);
    expect(cycles(g)).toEqual([["a", "b", "c"], ["e"]]);
  });

  it("names daemon areas by folder or top-level file", () => {
    expect(areaOf("daemon/kbs/models.ts")).toBe("kbs");
    expect(areaOf("daemon/services.ts")).toBe("services");
    expect(areaOf("daemon/models/generate/registry.ts")).toBe("models");
    expect(areaOf("src/api/kbs.ts")).toBeUndefined();
  });

  it("reports arrows against the layers and the src/daemon rules", () => {
    const at = (file: string, to: string) => ruleViolation(file, { to, spec: to });
    expect(at("daemon/models/service.ts", "daemon/kbs/service.ts")).toBe(
      "daemon/models/service.ts imports daemon/kbs/service.ts: models may import only errors, net of daemon/",
    );
    expect(at("daemon/store/paragraphs.ts", "daemon/search/keyword.ts")).toMatch(/store may import only text/);
    expect(at("daemon/store/paragraphs.ts", "daemon/text/analyzer.ts")).toBeUndefined();
    expect(at("daemon/kbs/models.ts", "daemon/models/service.ts")).toBeUndefined();
    expect(at("daemon/ask/service.ts", "src/cli/io.ts")).toMatch(/daemon\/ imports only src\/api of src\//);
    expect(at("src/commands/find.ts", "daemon/search/service.ts")).toMatch(/src\/ never imports daemon\//);
    expect(at("src/api/kbs.ts", "src/client/client.ts")).toMatch(/src\/api imports only src\/api/);
    expect(ruleViolation("src/api/paths.ts", { pkg: "node:os", spec: "node:os" })).toMatch(/src\/api imports only zod/);
    expect(ruleViolation("src/api/kbs.ts", { pkg: "zod", spec: "zod" })).toBeUndefined();
  });

  it("keeps LanceDB and Arrow inside daemon/store", () => {
    const pkg = (file: string, name: string) => ruleViolation(file, { pkg: name, spec: name });
    expect(pkg("daemon/search/keyword.ts", "@lancedb/lancedb")).toBe(
      "daemon/search/keyword.ts imports @lancedb/lancedb: only daemon/store imports @lancedb/lancedb, apache-arrow, parquet-wasm",
    );
    expect(pkg("daemon/kbs/learning.ts", "apache-arrow")).toMatch(/only daemon\/store imports/);
    expect(pkg("src/cli/output.ts", "@lancedb/lancedb")).toMatch(/only daemon\/store imports/);
    expect(pkg("daemon/store/paragraphs.ts", "@lancedb/lancedb")).toBeUndefined();
    expect(pkg("daemon/store/arrow.ts", "apache-arrow")).toBeUndefined();
  });
});
