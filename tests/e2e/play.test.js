// Browser end-to-end test of `renversi serve` with Debian's chromium and playwright-core:
// a Renju game against the computer in which a forbidden move is refused with its reason,
// and an online Reversi game between two browser contexts through a shared room link,
// watched by a spectator, with a reload that resumes a seat and the finished game replayed
// from the list. Prints "N passed, M failed" like the other tests.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const L = require('./lib.js');
const { check, state, seat, clickPoint, waitState, newGame } = L;

/* ---------------------------------------------------------------- Renju vs the computer */
async function renjuVsAi(browser, base, shotPath) {
  const page = await L.openPage(browser, base, 'en', L.DESKTOP);
  // Every text exists in both languages.
  const missing = await page.evaluate(() => {
    const T = window.RV_TEXT, en = Object.keys(T.en), zh = Object.keys(T.zh);
    return en.filter((k) => !zh.includes(k)).concat(zh.filter((k) => !en.includes(k)));
  });
  check(missing.length === 0, 'texts in one language only: ' + missing.join(', '));
  let s = await newGame(page, { variant: 'renju', mode: 'ai', color: 'black', level: 1 });
  check(s.variant === 'renju' && s.seats.white === 'ai', 'renju room against the computer');
  check((await seat(page)) === 'black', 'I play black');

  // Play on until black has a forbidden point: black follows the computer's hints (so it
  // defends), except for a few opening moves from a list, and a game that ends without one
  // is started again with the next opening. The server lists black's forbidden points in
  // every state: no rule is computed here.
  const openings = [[[7, 7], [8, 7], [9, 6]], [[7, 7], [7, 8], [9, 8]], [[7, 7], [6, 6], [8, 6]],
    [[7, 7], [9, 7], [8, 9]], [[7, 7], [8, 8], [6, 8]], [[7, 7], [5, 7], [6, 9]]];
  let forbidden = null, probes = 0, game = 0;
  while (!forbidden && probes < 200 && game < openings.length) {
    s = await state(page);
    if (s.to_move === 'black' && s.forbidden.length) { forbidden = s.forbidden[0]; break; }
    if (s.over) {
      game++;
      await page.click('#dialog-ok'); /* the end-of-game dialog */
      await page.click('#again');
      await waitState(page, (t) => t.moves.length === 0, 'a new game');
      continue;
    }
    const ply = s.moves.length, k = ply / 2;
    let mv = k < openings[game].length ? openings[game][k] : null;
    if (mv && s.board[mv[1] * s.size + mv[0]] !== '.') mv = null;
    if (!mv) {
      await page.click('#hint');
      await page.waitForFunction((p) => window.renversi.hint && window.renversi.hint.ply === p, ply);
      const h = await page.evaluate(() => window.renversi.hint);
      mv = [h.x, h.y];
    }
    probes++;
    await page.waitForTimeout(40); /* stay under the server's rate limit (20 messages/s) */
    await clickPoint(page, mv[0], mv[1]);
    await waitState(page, (t) => (t.moves.length >= ply + 2 && !t.thinking) || t.over, 'the computer\'s answer');
  }
  check(forbidden !== null, 'a forbidden point for black appeared (after ' + probes + ' tries)');
  if (forbidden) {
    const before = (await state(page)).moves.length;
    if (shotPath) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(100);
      await page.screenshot({ path: shotPath });
    }
    await clickPoint(page, forbidden[0], forbidden[1]);
    await page.waitForSelector('#dialog[open]', { timeout: 5000 });
    const text = await page.textContent('#dialog-text');
    check(/Forbidden move for black at [a-o]\d+: (double-three|double-four|overline)\./.test(text),
      'the dialog says which kind: ' + text);
    check(text.includes(forbidden[2]), 'the dialog names the kind the state listed');
    await page.click('#dialog-ok');
    const msg = await page.textContent('#message');
    check(msg.includes(forbidden[2]), 'the message stays: ' + msg);
    s = await state(page);
    check(s.moves.length === before && s.to_move === 'black', 'the refused move was not played');
    // The game goes on: an ordinary move is accepted.
    await page.click('#hint');
    await page.waitForFunction((p) => window.renversi.hint && window.renversi.hint.ply === p, before);
    const h = await page.evaluate(() => window.renversi.hint);
    check(!s.forbidden.some((f) => f[0] === h.x && f[1] === h.y), 'the hint is not a forbidden point');
    await clickPoint(page, h.x, h.y);
    await waitState(page, (t) => t.moves.length >= before + 1, 'a move after the refusal');
    // Undo against the computer: my move and its answer go back at once. The refused point
    // may have been black's only block of a four, and then the computer wins at once: the
    // first move of a new game and its answer go back instead.
    let m1 = await waitState(page, (t) => (t.to_move === 'black' && !t.thinking) || t.over, 'black to move');
    if (m1.over) {
      await page.click('#dialog-ok');
      await page.click('#again');
      await waitState(page, (t) => t.moves.length === 0, 'a new game');
      await page.waitForTimeout(40);
      await clickPoint(page, 7, 7);
      m1 = await waitState(page, (t) => t.moves.length === 2 && t.to_move === 'black' && !t.thinking, 'black to move');
    }
    await page.click('#undo');
    await waitState(page, (t) => t.moves.length === m1.moves.length - 2 && t.to_move === 'black', 'undo');
    // Switch to Chinese: the texts change, the board stays.
    await page.click('#lang-zh');
    check((await page.textContent('#undo')) === '悔棋', 'Chinese labels');
    await page.click('#lang-en');
  }
  check(page.errors.length === 0, 'no script errors: ' + page.errors.join('; '));
  await page.context().close();
}

/* ---------------------------------------------------------------- online Reversi */
async function onlineReversi(browser, base, server) {
  const ctxA = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: 'en-US' });
  const ctxB = await browser.newContext({ viewport: { width: 420, height: 800 }, locale: 'zh-CN', isMobile: true, hasTouch: true });
  const ctxC = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const a = await ctxA.newPage(), b = await ctxB.newPage(), c = await ctxC.newPage();
  await a.goto(base);
  const s0 = await newGame(a, { variant: 'reversi', mode: 'online', color: 'black' });
  check(s0.legal.length === 4, 'four legal moves at the start');
  const link = await a.inputValue('#room-link');
  check(link.includes('#room=' + s0.room), 'the share link names the room: ' + link);
  await b.goto(link);
  await waitState(b, (s) => s.room === s0.room, 'B in the room');
  check((await seat(b)) === 'white', 'the second visitor takes white');
  check((await b.textContent('#undo')) === '悔棋', 'B sees Chinese (browser language)');
  await c.goto(link);
  await waitState(c, (s) => s.room === s0.room, 'C in the room');
  check((await seat(c)) === 'spectator', 'the third visitor watches');
  const cs = await state(c);
  await clickPoint(c, cs.legal[0][0], cs.legal[0][1]);
  await c.waitForTimeout(200);
  check((await state(c)).moves.length === 0, 'a spectator cannot move');

  let reloaded = false, restarted = false;
  for (let ply = 0; ply < 130; ply++) {
    const s = await state(a);
    if (s.over) break;
    const page = s.to_move === 'black' ? a : b;
    const ps = await state(page);
    const count = ps.moves.length;
    const mv = ps.legal[0];
    await clickPoint(page, mv[0], mv[1]);
    await waitState(page, (t) => t.moves.length > count, 'move ' + (count + 1));
    await waitState(a, (t) => t.moves.length > count, 'A sees move ' + (count + 1));
    await waitState(b, (t) => t.moves.length > count, 'B sees move ' + (count + 1));
    if (!reloaded && count >= 10) {
      reloaded = true;
      await b.reload();
      await waitState(b, (t) => t.moves.length > count, 'B after reload');
      check((await seat(b)) === 'white', 'a reload resumes the seat');
    }
    if (!restarted && count >= 20) {
      restarted = true;
      // The server is killed (-9) and restarted on the same database: the pages reconnect
      // by themselves, keep their seats, and the game goes on from the same position.
      const n = (await state(a)).moves.length;
      const ja = await a.evaluate(() => window.renversi.joins), jb = await b.evaluate(() => window.renversi.joins);
      await server.restart();
      await a.waitForFunction((j) => window.renversi.joins > j, ja, { timeout: 20000 });
      await b.waitForFunction((j) => window.renversi.joins > j, jb, { timeout: 20000 });
      await waitState(a, (t) => t.moves.length === n && t.present.white && t.present.black, 'A after the restart', 20000);
      await waitState(b, (t) => t.moves.length === n, 'B after the restart', 20000);
      check((await seat(a)) === 'black' && (await seat(b)) === 'white', 'seats kept across a restart');
    }
  }
  const fin = await waitState(a, (s) => s.over, 'the end of the game');
  check(/^(black|white) wins \d+-\d+|^draw \d+-\d+/.test(fin.result), 'a result: ' + fin.result);
  const cEnd = await waitState(c, (s) => s.over, 'the spectator sees the end');
  check(cEnd.moves.length === fin.moves.length, 'the spectator saw every move');
  check((await a.textContent('#status')).startsWith('Game over'), 'status says game over');

  // Replay from the stored games list (after the end-of-game dialog).
  await a.click('#dialog-ok');
  await a.click('#refresh');
  const item = a.locator('#game-list li[data-id="' + fin.game_id + '"]');
  await item.waitFor({ timeout: 5000 });
  await item.click();
  await a.waitForSelector('#replay-bar:not([hidden])');
  const total = fin.moves.length;
  check((await a.textContent('#rp-pos')).includes(total + ' of ' + total) ||
        (await a.textContent('#rp-pos')).includes('of ' + total), 'the replay starts at the end');
  await a.click('#rp-first');
  check((await a.textContent('#rp-pos')).includes('move 0 of'), 'first position');
  await a.click('#rp-next');
  await a.click('#rp-next');
  check((await a.textContent('#rp-pos')).includes('move 2 of'), 'two steps forward');
  await a.click('#rp-export button[data-format="transcript"]');
  await a.waitForFunction(() => window.renversiLastExport);
  const tr = await a.evaluate(() => window.renversiLastExport);
  const want = fin.moves.filter((m) => m !== 'pass').join('') + '\n';
  check(tr === want, 'the transcript export matches the moves');
  await a.click('#rp-close');
  await ctxA.close(); await ctxB.close(); await ctxC.close();
}

(async () => {
  if (!L.RENVERSI) { console.error('RENVERSI must name the binary'); process.exit(2); }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'renversi-e2e-'));
  const db = path.join(dir, 'e2e.db');
  let { srv, url } = await L.startServer(db);
  const port = url.match(/:(\d+)\//)[1];
  const server = {
    restart: async () => {
      srv.removeAllListeners('exit');
      const gone = new Promise((r) => srv.once('exit', r));
      srv.kill('SIGKILL');
      await gone;
      ({ srv } = await L.startServer(db, port));
    },
  };
  const browser = await L.launch();
  try {
    await renjuVsAi(browser, url, process.env.RV_SCREENSHOT);
    await onlineReversi(browser, url, server);
  } catch (e) {
    L.result.failed++;
    console.error('FAIL: ' + (e && e.stack || e));
  }
  await browser.close();
  srv.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(L.result.passed + ' passed, ' + L.result.failed + ' failed');
  process.exit(L.result.failed ? 1 : 0);
})();
