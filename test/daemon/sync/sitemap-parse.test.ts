import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { sitemapText } from "../../../daemon/sync/http.js";
import { decodeXmlText, parseSitemap } from "../../../daemon/sync/sitemap.js";

describe("parseSitemap", () => {
  it("reads a urlset with lastmod", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://e.com/a</loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq></url>
  <url>
    <image:image><image:loc>https://e.com/pic.png</image:loc></image:image>
    <loc>
      https://e.com/b
    </loc>
  </url>
  <!-- <url><loc>https://e.com/commented-out</loc></url> -->
  <url><lastmod>2024-01-01</lastmod></url>
</urlset>`;
    expect(parseSitemap(xml)).toEqual({
      urls: [{ url: "https://e.com/a", lastmod: "2024-05-01" }, { url: "https://e.com/b" }],
      sitemaps: [],
    });
  });

  it("reads a sitemap index as child sitemaps, not pages", () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://e.com/s1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
  <sitemap><loc>https://e.com/s2.xml.gz</loc></sitemap>
</sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ urls: [], sitemaps: ["https://e.com/s1.xml", "https://e.com/s2.xml.gz"] });
  });

  it("decodes entities once and keeps CDATA verbatim", () => {
    const xml = `<urlset>
  <url><loc>https://e.com/?a=1&amp;b=2</loc></url>
  <url><loc> <![CDATA[https://e.com/?c=3&d=4]]> </loc></url>
  <url><loc>https://e.com/x?q=&amp;lt;tag&amp;gt;</loc></url>
  <url><loc>https://e.com/&#233;t&#xE9;</loc></url>
</urlset>`;
    expect(parseSitemap(xml).urls.map((u) => u.url)).toEqual([
      "https://e.com/?a=1&b=2",
      "https://e.com/?c=3&d=4",
      "https://e.com/x?q=&lt;tag&gt;",
      "https://e.com/été",
    ]);
  });

  it("is not confused by urlset/sitemapindex element names or attributes", () => {
    const xml = `<urlset a="1"><url id="u"><loc>https://e.com/1</loc></url></urlset>`;
    expect(parseSitemap(xml).urls).toEqual([{ url: "https://e.com/1" }]);
    expect(parseSitemap("not xml at all")).toEqual({ urls: [], sitemaps: [] });
  });

  it("decodeXmlText leaves unknown entities alone", () => {
    expect(decodeXmlText("a &nbsp; b &#0; &amp;amp;")).toBe("a &nbsp; b &#0; &amp;");
  });
});

describe("sitemapText", () => {
  it("gunzips by magic bytes, whatever the name", () => {
    const xml = "<urlset><url><loc>https://e.com/z</loc></url></urlset>";
    expect(sitemapText(gzipSync(xml))).toBe(xml);
    expect(sitemapText(Buffer.from(xml))).toBe(xml);
  });
});
