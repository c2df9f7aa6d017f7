// Opens pages from file: in headless Chromium (Debian's, driven by
// playwright-core) with the network cut twice over: every request that is
// not file: or data: is recorded and aborted by routing, and the browser's
// own proxy and resolver send anything that slips through nowhere.
// Usage: node offline.js SPEC.json, SPEC {"pages": [ABSOLUTE PATHS], "args":
// [MORE CHROMIUM ARGS]}. Prints one JSON object: {"pages": [{page, error,
// requests: [{url, type, ok, error}], left: [URLS], site, base, marks,
// images: [{src, ok}], uses: [{href, width}], anchors: [URLS]}]}.
'use strict';
const fs = require('fs');
const os = require('os');
const { pathToFileURL } = require('url');
const { chromium } = require('playwright-core');

(async () => {
  const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const profile = fs.mkdtempSync(os.tmpdir() + '/relurl-journey-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.RELURL_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=<-loopback>',
      '--host-resolver-rules=MAP * ~NOTFOUND', ...(spec.args || [])],
  });
  const local = (u) => u.startsWith('file:') || u.startsWith('data:') || u.startsWith('blob:');
  let current = null;
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (local(u)) return route.continue();
    if (current) current.left.push(u);
    return route.abort('blockedbyclient');
  });
  const out = { pages: [] };
  for (const p of spec.pages) {
    const res = { page: p, error: '', requests: [], left: [], anchors: [], images: [], uses: [], marks: {}, site: '', base: '' };
    current = res;
    const page = await context.newPage();
    const byReq = new Map();
    page.on('request', (req) => {
      const r = { url: req.url(), type: req.resourceType(), ok: false, error: '' };
      byReq.set(req, r);
      res.requests.push(r);
    });
    page.on('requestfinished', (req) => { const r = byReq.get(req); if (r) r.ok = true; });
    page.on('requestfailed', (req) => { const r = byReq.get(req); if (r) r.error = (req.failure() && req.failure().errorText) || 'failed'; });
    try {
      await page.goto(pathToFileURL(p).href, { waitUntil: 'load', timeout: 30000 });
      await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
      await page.waitForTimeout(300); // modules run after load
      Object.assign(res, await page.evaluate(() => {
        const h1 = document.querySelector('h1');
        const width = (u) => { try { return u.getBBox().width; } catch (e) { return -1; } };
        return {
          site: getComputedStyle(document.body).getPropertyValue('--site').trim(),
          base: h1 ? getComputedStyle(h1).getPropertyValue('--base').trim() : '',
          marks: Object.assign({}, document.documentElement.dataset),
          images: [...document.images].map((i) => ({ src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0 })),
          uses: [...document.querySelectorAll('use')].map((u) => ({ href: u.getAttribute('href') || '', width: width(u) })),
          anchors: [...document.querySelectorAll('a[href]')].map((a) => a.href),
        };
      }));
    } catch (e) {
      res.error = String(e.message || e).split('\n')[0];
    }
    await page.close();
    out.pages.push(res);
  }
  current = null;
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(out) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
