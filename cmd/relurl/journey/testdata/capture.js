// Captures pages of a loopback site in headless Chromium (Debian's, driven
// by playwright-core) as a browser user would save them. Usage:
// node capture.js SPEC.json, SPEC {"origin": "http://127.0.0.1:PORT",
// "pages": [{"path": "/", "name": "index"}], "mhtml": DIR, "out": DIR}. For
// each page it writes MHTML/NAME.mhtml (Page.captureSnapshot, as "Save as
// MHTML" does) and OUT/NAME.html with OUT/NAME_files/ ("Webpage, complete", which the
// DevTools protocol cannot do: written here as Chromium's page serializer
// writes it: the mark of the web after the doctype, a Content-Type <meta>,
// <base> commented out, every resource the page loaded in NAME_files/
// under its own name and linked as ./NAME_files/NAME, every other link
// absolute; its stylesheets' url()s pointed at their neighbours in
// NAME_files/, as Firefox writes them; scripts and import maps as they
// were). Requests outside the origin are aborted. Prints {"pages": N}.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

(async () => {
  const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const profile = fs.mkdtempSync(os.tmpdir() + '/relurl-journey-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.RELURL_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  await context.route('**/*', (route) => route.request().url().startsWith(spec.origin + '/') ? route.continue() : route.abort('blockedbyclient'));
  fs.mkdirSync(spec.out, { recursive: true });
  fs.mkdirSync(spec.mhtml, { recursive: true });
  for (const { path: p, name } of spec.pages) {
    const page = await context.newPage();
    const loaded = [];
    page.on('response', (r) => { if (r.ok() && r.request().resourceType() !== 'document') loaded.push(r); });
    const url = spec.origin + p;
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);

    const cdp = await context.newCDPSession(page);
    const { data } = await cdp.send('Page.captureSnapshot', { format: 'mhtml' });
    fs.writeFileSync(path.join(spec.mhtml, name + '.mhtml'), data);

    // "Webpage, complete": the resources, each once, by its own name.
    const folder = name + '_files';
    fs.mkdirSync(path.join(spec.out, folder), { recursive: true });
    const local = new Map(); // absolute URL → file name in the folder
    const taken = new Set();
    for (const r of loaded) {
      const u = r.url().split('#')[0];
      if (local.has(u)) continue;
      let base = decodeURIComponent(new URL(u).pathname.split('/').pop()) || 'index';
      for (let i = 1; taken.has(base); i++) base = base.replace(/(\.[^.]*)?$/, `(${i})$1`);
      taken.add(base);
      local.set(u, base);
    }
    for (const r of loaded) {
      const u = r.url().split('#')[0];
      let body = await r.body();
      if ((r.headers()['content-type'] || '').startsWith('text/css')) {
        body = Buffer.from(body.toString('utf8').replace(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g, (m, q, ref) => {
          const abs = new URL(ref, u).href;
          const file = local.get(abs.split('#')[0]);
          return `url(${q}${file || abs}${q})`;
        }));
      }
      fs.writeFileSync(path.join(spec.out, folder, local.get(u)), body);
    }
    const html = await page.evaluate(({ local, folder }) => {
      const map = new Map(local);
      const doc = document.documentElement.cloneNode(true);
      // What the page's scripts set is the page's state, not the saved
      // file's: the offline check wants to see the modules run again.
      delete doc.dataset.app;
      delete doc.dataset.lib;
      const abs = (v) => { try { return new URL(v, document.baseURI).href; } catch (e) { return v; } };
      const to = (v) => { const a = abs(v); const [u, f] = a.split('#'); return map.has(u) ? './' + folder + '/' + map.get(u) + (f !== undefined ? '#' + f : '') : a; };
      for (const el of doc.querySelectorAll('[href]:not(base), [src]')) {
        for (const at of ['href', 'src']) if (el.hasAttribute(at)) el.setAttribute(at, to(el.getAttribute(at)));
      }
      for (const el of doc.querySelectorAll('[srcset]')) {
        el.setAttribute('srcset', el.getAttribute('srcset').split(',').map((c) => {
          const [u, ...d] = c.trim().split(/\s+/);
          return [to(u), ...d].join(' ');
        }).join(', '));
      }
      let s = doc.outerHTML;
      s = s.replace(/<base\b[^>]*>/gi, (m) => '<!--' + m + '-->');
      s = s.replace(/<head>/i, '<head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">');
      return s;
    }, { local: [...local], folder });
    const mark = `<!-- saved from url=(${String(url.length).padStart(4, '0')})${url} -->`;
    fs.writeFileSync(path.join(spec.out, name + '.html'), '<!DOCTYPE html>\n' + mark + '\n' + html);
    await page.close();
  }
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ pages: spec.pages.length }) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
