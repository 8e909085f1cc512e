import { describe, expect, it } from "vitest";
import { exhausted, systemCode } from "../../daemon/errors.js";

describe("errors of a machine that ran out of something", () => {
  it("finds the system code in a cause chain, or in a native library's message", () => {
    const node = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    expect(systemCode(new Error("commit failed", { cause: node }))).toBe("ENOSPC");
    // LanceDB's errors carry Rust's io::Error text, with the OS number.
    const lance = new Error("lance error: IO error: No space left on device (os error 28), src/io.rs:42");
    expect(systemCode(lance)).toBe("ENOSPC");
    expect(systemCode(new Error("Too many open files (os error 24)"))).toBe("EMFILE");
    expect(systemCode(new Error("Permission denied (os error 13)"))).toBeUndefined();
    expect(systemCode(new Error("plain failure"))).toBeUndefined();
  });

  it("answers 507 for a full disk and 503 for file descriptors, nothing for other failures", () => {
    expect(exhausted(new Error("No space left on device (os error 28)"))?.status).toBe(507);
    expect(exhausted(Object.assign(new Error("quota"), { code: "EDQUOT" }))?.status).toBe(507);
    expect(exhausted(Object.assign(new Error("fds"), { code: "ENFILE" }))?.status).toBe(503);
    expect(exhausted(Object.assign(new Error("gone"), { code: "ENOENT" }))).toBeUndefined();
  });
});
