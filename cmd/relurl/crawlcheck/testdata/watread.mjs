// Reads a WAT file with warcio.js (webrecorder's WARC reader, not
// relurl's) and prints one JSON line per record: its WARC type, target,
// Refers-To, and for a metadata record whether its JSON parsed and the
// links a port of cc-pyspark's wat_extract_links.py (ExtractLinksJob.
// get_links) extracts from it.
import { createRequire } from 'module';
import fs from 'fs';
const require = createRequire(process.env.NODE_PATH.split(':')[0] + '/');
const { WARCParser } = await import(require.resolve('warcio'));

// urljoin stands in for Python's urllib.parse.urljoin: WHATWG URL
// resolution, as node has it; a link that does not resolve is skipped, as
// cc-pyspark skips a ValueError.
function urljoin(base, link) {
  try { return new URL(link, base).href; } catch { return null; }
}
const absPattern = /^(?:https?:)?\/\//i;
const metaProperty = new Set(['og:url', 'og:image', 'og:image:secure_url', 'og:video', 'og:video:url', 'og:video:secure_url', 'twitter:url', 'twitter:image:src']);
const metaName = new Set(['twitter:image', 'thumbnail', 'application-url', 'msapplication-starturl', 'msapplication-TileImage', 'vb_meta_bburl']);

function ccLinks(url, env) {
  const out = [];
  const rm = env.Envelope['Payload-Metadata']['HTTP-Response-Metadata'];
  if (!rm) return out;
  const h = rm.Headers || {};
  if (h['Content-Location']) out.push({ from: 'header', url: urljoin(url, h['Content-Location']) });
  if (h['Link']) for (const m of h['Link'].matchAll(/<([^>]+)>/g)) out.push({ from: 'header', url: urljoin(url, m[1]) });
  const hm = rm['HTML-Metadata'];
  if (!hm) return out;
  let base = null;
  const head = hm.Head || {};
  if (head.Base) base = urljoin(url, head.Base);
  const add = (from, links, attr, opt) => {
    for (const l of links || []) {
      let link = l[attr];
      if (link === undefined && opt && l[opt] !== undefined && absPattern.test(l[opt])) link = l[opt];
      if (link === undefined) continue;
      const u = urljoin(base || url, link);
      if (u !== null) out.push({ from, path: l.path, url: u, raw: link });
    }
  };
  add('head-link', head.Link, 'url');
  for (const m of head.Metas || []) {
    if ((m.property && metaProperty.has(m.property)) || (m.name && metaName.has(m.name)) || (m.content && absPattern.test(m.content))) add('meta', [m], 'content');
  }
  add('script', head.Scripts, 'url');
  add('link', hm.Links, 'url', 'href');
  return out;
}

const parser = new WARCParser(fs.createReadStream(process.argv[2]));
for await (const rec of parser) {
  const h = { get: (n) => rec.warcHeader(n) ?? undefined };
  const o = { type: rec.warcType, target: h.get('WARC-Target-URI'), refersTo: h.get('WARC-Refers-To'), contentType: h.get('Content-Type') };
  if (rec.warcType === 'metadata') {
    const text = await rec.contentText();
    try {
      const env = JSON.parse(text);
      o.json = true;
      o.links = ccLinks(o.target, env);
      const hm = env.Envelope['Payload-Metadata']['HTTP-Response-Metadata']?.['HTML-Metadata'];
      o.title = hm?.Head?.Title;
      o.base = hm?.['Relurl-Base'];
    } catch (e) {
      o.json = false;
      o.error = String(e);
    }
  } else {
    await rec.readFully();
  }
  console.log(JSON.stringify(o));
}
