// Loads every page of a materialized tree from file:// in headless
// Chromium (Debian's chromium, driven by playwright-core) with the network
// cut: every request that is not file: is recorded and aborted. Prints one
// JSON object: {"pages": N, "failed": [...], "web": [...], "errors": [...],
// "marks": {PAGE: {NAME: VALUE}}, "console": [...]}; marks are the data-*
// attributes of each page's <html> once loaded (the fixture's scripts set
// them), console the page errors and console errors.
// Usage: node browser.js PAGES.json   (a JSON array of absolute file paths)
// With RELURL_BROWSER_ORIGIN=http://127.0.0.1:PORT and RELURL_BROWSER_ROOT=DIR
// the pages are loaded from that (loopback) server, which serves DIR, instead
// of file://; its requests are the local ones, every other is cut.
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
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...(process.env.RELURL_BROWSER_ARGS || '').split(' ').filter(Boolean)],
  });
  const out = { pages: 0, failed: [], web: [], errors: [], marks: {}, console: [] };
  const origin = process.env.RELURL_BROWSER_ORIGIN || '';
  const root = process.env.RELURL_BROWSER_ROOT || '';
  const local = (url) => origin ? url.startsWith(origin + '/') : url.startsWith('file:');
  const address = (p) => {
    if (!origin) return pathToFileURL(p).href;
    const rel = require('path').relative(root, p).split(require('path').sep);
    return origin + '/' + rel.map(encodeURIComponent).join('/');
  };
  const owner = new Map(); // tab → the page it loads
  await context.route('**/*', (route) => {
    const req = route.request();
    const url = req.url();
    if (local(url)) return route.continue();
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
      if (local(req.url())) {
        out.failed.push({ page: p, url: req.url(), error: req.failure() && req.failure().errorText });
      }
    };
    // From a server a missing file is a response, not a failed request.
    const onResponse = (res) => {
      if (origin && local(res.url()) && res.status() >= 400) {
        out.failed.push({ page: p, url: res.url(), error: 'HTTP ' + res.status() });
      }
    };
    const onError = (e) => out.console.push({ page: p, error: String(e.message || e).split('\n')[0] });
    const onConsole = (m) => { if (m.type() === 'error') out.console.push({ page: p, error: m.text().split('\n')[0] }); };
    page.on('requestfailed', onFailed);
    page.on('response', onResponse);
    page.on('pageerror', onError);
    page.on('console', onConsole);
    try {
      await page.goto(address(p), { waitUntil: 'load', timeout: 30000 });
      // Let redirect stubs (meta refresh 0) and late resources happen.
      await page.waitForTimeout(200);
      await page.waitForLoadState('load');
      await page.waitForLoadState('networkidle', { timeout: 10000 }).catch(() => {});
      out.pages++;
      const marks = await page.evaluate(() => Object.assign({}, document.documentElement.dataset)).catch(() => ({}));
      if (Object.keys(marks).length) out.marks[p] = marks;
    } catch (e) {
      out.errors.push({ page: p, error: String(e.message || e).split('\n')[0] });
    }
    page.off('requestfailed', onFailed);
    page.off('response', onResponse);
    page.off('pageerror', onError);
    page.off('console', onConsole);
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
