// Helpers shared by the browser tests: the server, chromium, checks, and the page's state.
'use strict';
const { chromium } = require('playwright-core');
const { spawn } = require('child_process');

const RENVERSI = process.env.RENVERSI;
const CHROMIUM = process.env.RV_CHROMIUM || '/usr/bin/chromium';

/* Window sizes the tests use: a desktop, a phone held upright (390×844) and on its side. */
const DESKTOP = { viewport: { width: 1000, height: 760 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const PHONE_LANDSCAPE = { viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const result = { passed: 0, failed: 0 };
function check(cond, what) {
  if (cond) result.passed++;
  else { result.failed++; console.error('FAIL: ' + what); }
  return !!cond;
}

function startServer(db, port) {
  return new Promise((resolve, reject) => {
    const srv = spawn(RENVERSI, ['serve', '--host', '127.0.0.1', '--port', String(port || 0), '--db', db],
      { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    srv.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ srv, url: 'http://127.0.0.1:' + m[1] + '/' });
    });
    srv.on('exit', (code) => reject(new Error('server exited ' + code + ': ' + err)));
    setTimeout(() => reject(new Error('server did not start: ' + err)), 10000);
  });
}

function launch() {
  return chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/* A page in its own context (its own storage: its own seat) with a language and a size;
   script errors are collected in page.errors. */
async function openPage(browser, url, lang, size) {
  const ctx = await browser.newContext(Object.assign({ locale: lang === 'zh' ? 'zh-CN' : 'en-US' }, size));
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.touch = !!size.hasTouch;
  await page.goto(url);
  return page;
}

const state = (page) => page.evaluate(() => window.renversi.state);
const seat = (page) => page.evaluate(() => window.renversi.seat);

/* Clicks (or on a phone taps) point (x, y) of the board. */
async function clickPoint(page, x, y) {
  const p = await page.evaluate(([x, y]) => {
    document.getElementById('board').scrollIntoView({ block: 'nearest' });
    return window.renversi.pixel(x, y);
  }, [x, y]);
  if (page.touch) await page.touchscreen.tap(p[0], p[1]);
  else await page.mouse.click(p[0], p[1]);
}

/* Waits until the page's drawn state satisfies pred (evaluated in Node on a copy). */
async function waitState(page, pred, what, ms = 30000) {
  const t0 = Date.now();
  for (;;) {
    const s = await state(page);
    if (s && pred(s)) return s;
    if (Date.now() - t0 > ms) {
      const msg = await page.textContent('#message');
      throw new Error('timeout waiting for ' + what + ' (moves ' + (s && s.moves.join(' ')) + '; to_move ' +
        (s && s.to_move) + '; thinking ' + (s && s.thinking) + '; opening step ' +
        (s && s.opening && s.opening.step) + '; turn ' + (s && s.turn) + '; message: ' + msg + ')');
    }
    await page.waitForTimeout(30);
  }
}

/* Starts a game from the page's menu: variant, mode, colour, and where given the board
   size, the computer's level, the opening rule and (online) whether hints are allowed. */
async function newGame(page, opts) {
  await page.selectOption('#variant', opts.variant);
  if (opts.size) await page.fill('#size', String(opts.size));
  await page.selectOption('#mode', opts.mode);
  await page.selectOption('#color', opts.color || 'black');
  if (opts.level) await page.fill('#level', String(opts.level));
  if (opts.opening) await page.selectOption('#opening', opts.opening);
  if (opts.mode === 'online' && opts.hints !== undefined) await page.setChecked('#allow-hints', !!opts.hints);
  const before = await state(page);
  await page.click('#start');
  return waitState(page, (s) => !before || s.room !== before.room, 'a new room');
}

/* Plays a move by clicking and waits until this page has drawn it. */
async function play(page, x, y) {
  const me = await seat(page);
  await waitState(page, (s) => s.to_move === me && !s.thinking, 'my turn');
  await page.waitForFunction(() => window.renversi.pending === 0);
  const n = (await state(page)).moves.length;
  await page.waitForTimeout(60); /* stay well under the server's rate limit */
  await clickPoint(page, x, y);
  return waitState(page, (s) => s.moves.length > n, 'move ' + (n + 1) + ' drawn');
}

/* The dialog's title and text once it is open. */
async function dialog(page, kind) {
  await page.waitForSelector('#dialog[open]' + (kind ? '[data-kind="' + kind + '"]' : ''), { timeout: 10000 });
  return { title: await page.textContent('#dialog-title'), text: await page.textContent('#dialog-text') };
}

/* The colour of one canvas pixel at CSS point (x, y) of the board. */
function pixel(page, x, y) {
  return page.evaluate(([x, y]) => {
    const cv = document.getElementById('board'), d = window.devicePixelRatio || 1;
    const v = cv.getContext('2d').getImageData(Math.round(x * d), Math.round(y * d), 1, 1).data;
    return [v[0], v[1], v[2]];
  }, [x, y]);
}

/* Latin words in a text that should be all Chinese (moves like h8 and numbers allowed). */
function englishIn(text) {
  return (text.match(/[A-Za-z]{3,}/g) || []).filter((w) => !/^(renversi|PSQ|GGF|Caro|English)$/.test(w));
}

module.exports = { DESKTOP, PHONE, PHONE_LANDSCAPE, result, check, startServer, launch, openPage, state, seat,
  clickPoint, waitState, newGame, play, dialog, pixel, englishIn, RENVERSI };
