import { describe, expect, it } from "vitest";
import { Robots } from "../../../daemon/sync/http.js";

describe("Robots", () => {
  it("no robots.txt allows everything, without delay", () => {
    const r = Robots.parse("");
    expect(r.allowed("http://h/anything?q=1")).toBe(true);
    expect(r.crawlDelayMs).toBe(0);
  });

  it("uses the * group when none names kbox; comments and blank Disallow are ignored", () => {
    const r = Robots.parse(
      "# site rules\nUser-agent: googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /private # no\nDisallow:\n",
    );
    expect(r.allowed("http://h/private/x")).toBe(false);
    expect(r.allowed("http://h/privateer")).toBe(false);
    expect(r.allowed("http://h/public")).toBe(true);
  });

  it("prefers a group naming kbox (case-insensitive) and merges groups for the same agent", () => {
    const r = Robots.parse(
      "User-agent: *\nDisallow: /\n\nUser-Agent: KBOX-SYNC\nDisallow: /a\n\nuser-agent: kbox\nDisallow: /b\nCrawl-delay: 2\n",
    );
    expect(r.allowed("http://h/a/1")).toBe(false);
    expect(r.allowed("http://h/b/1")).toBe(false);
    expect(r.allowed("http://h/c")).toBe(true);
    expect(r.crawlDelayMs).toBe(2000);
  });

  it("a group with several user-agent lines applies to each of them", () => {
    const r = Robots.parse("User-agent: other\nUser-agent: kbox\nDisallow: /x\n");
    expect(r.allowed("http://h/x")).toBe(false);
  });

  it("the longest match wins; Allow wins a tie", () => {
    const r = Robots.parse("User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nAllow: /same\nDisallow: /same\n");
    expect(r.allowed("http://h/docs/secret")).toBe(false);
    expect(r.allowed("http://h/docs/public/page")).toBe(true);
    expect(r.allowed("http://h/same")).toBe(true);
  });

  it("supports * wildcards and $ end anchors, and matches the query string", () => {
    const r = Robots.parse("User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?session=\nDisallow: /a.b\n");
    expect(r.allowed("http://h/files/x.pdf")).toBe(false);
    expect(r.allowed("http://h/files/x.pdf?v=1")).toBe(true);
    expect(r.allowed("http://h/page?session=3")).toBe(false);
    expect(r.allowed("http://h/page?other=3")).toBe(true);
    // Regex characters in paths are literal.
    expect(r.allowed("http://h/axb")).toBe(true);
    expect(r.allowed("http://h/a.b")).toBe(false);
  });

  it("caps crawl-delay at 10 s and ignores junk", () => {
    expect(Robots.parse("User-agent: *\nCrawl-delay: 3600\n").crawlDelayMs).toBe(10_000);
    expect(Robots.parse("User-agent: *\nCrawl-delay: soon\n").crawlDelayMs).toBe(0);
    expect(Robots.parse("Disallow: /before-any-agent\n").allowed("http://h/before-any-agent")).toBe(true);
  });
});
