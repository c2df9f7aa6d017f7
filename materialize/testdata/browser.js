// Loads every page of a materialized tree from file:// in headless
// Chromium (Debian's chromium, driven by playwright-core) with the network
// cut: every request that is not file: is recorded and aborted. Prints one
// JSON object: {"pages": N, "failed": [...], "web": [...], "errors": [...]}.
// Usage: node browser.js PAGES.json   (a JSON array of absolute file paths)
'use strict';
const fs = require('fs');
const { pathToFileURL } = require('url');
const { chromium } = require('playwright-core');

(async () => {
  const pages = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const profile = fs.mkdtempSync(require('os').tmpdir() + '/relurl-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.RELURL_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    javaScriptEnabled: process.env.RELURL_BROWSER_JS !== '0',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const out = { pages: 0, failed: [], web: [], errors: [] };
  const owner = new Map(); // tab → the page it loads
  await context.route('**/*', (route) => {
    const req = route.request();
    const url = req.url();
    if (url.startsWith('file:')) return route.continue();
    let from = '';
    try { from = owner.get(req.frame().page()) || ''; } catch (e) { /* a worker's request */ }
    out.web.push({ page: from, url });
    return route.abort('blockedbyclient');
  });
  // One tab per page, so that a redirect stub's refresh cannot interrupt
  // the next page's load; its failures are counted until it is closed.
  // RELURL_BROWSER_TABS tabs load pages at once (default 4).
  const load = async (p) => {
    const page = await context.newPage();
    owner.set(page, p);
    const onFailed = (req) => {
      if (req.url().startsWith('file:')) {
        out.failed.push({ page: p, url: req.url(), error: req.failure() && req.failure().errorText });
      }
    };
    page.on('requestfailed', onFailed);
    try {
      await page.goto(pathToFileURL(p).href, { waitUntil: 'load', timeout: 30000 });
      // Let redirect stubs (meta refresh 0) and late resources happen.
      await page.waitForTimeout(200);
      await page.waitForLoadState('load');
      await page.waitForLoadState('networkidle', { timeout: 10000 }).catch(() => {});
      out.pages++;
    } catch (e) {
      out.errors.push({ page: p, error: String(e.message || e).split('\n')[0] });
    }
    page.off('requestfailed', onFailed);
    await page.close();
  };
  let next = 0;
  const tabs = Math.max(1, parseInt(process.env.RELURL_BROWSER_TABS || '4', 10));
  await Promise.all(Array.from({ length: tabs }, async () => {
    while (next < pages.length) await load(pages[next++]);
  }));
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(out) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
