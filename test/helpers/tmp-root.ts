import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Vitest's global setup: every temporary folder of a test run goes under one, removed when the run
 * ends. Tests (and the daemons and CLIs they start, which inherit TMPDIR) make theirs with
 * `os.tmpdir()`, and many leave them behind: about 300 folders under /tmp a run before.
 */
export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "kbox-test-"));
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
