// Browser tests of what a player sees around the moves (docs/play.md), in English and
// Chinese, on a desktop and on a phone (390×844, touch): the end-of-game dialog for a five
// (the row highlighted, kept in replay), a resignation, a full board and a Reversi score;
// a Reversi pass announced to both players and a spectator; your own move and its flips
// drawn before the computer's answer; errors and the game list in the page's language;
// move numbers, sound, arrow keys in replay, the grid before Start, labels clear of the
// stones, no tap highlight, and a phone on its side. Prints "N passed, M failed".
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const L = require('./lib.js');
const { check, state, seat, waitState, newGame, play, dialog, clickPoint } = L;

const SHOTS = process.env.RV_SCREENSHOT_DIR || '';
/* The screenshots docs/play.md shows (one of each screen). */
const WANTED = ['play-five-en.png', 'play-pass-zh.png', 'play-score-en.png', 'play-numbers-en.png', 'play-landscape-en.png'];
async function shot(page, name) {
  if (!SHOTS || !WANTED.includes(name)) return;
  await page.waitForTimeout(450);
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/* The words the tests expect, written out here (not taken from the page's tables). */
const WORDS = {
  en: { win: 'You win!', lose: 'You lose', black: 'Black wins', draw: 'Draw', five: 'Five in a row, h8–l8.',
    full: 'The board is full.', whiteResigned: 'White resigned.', blackResigned: 'Black resigned.',
    whitePasses: 'White has no move and passes.', pass: 'pass', over: 'Game over', occupied: 'The point h8 is taken.',
    noFlips: 'it turns over no disc' },
  zh: { win: '你赢了！', lose: '你输了', black: '黑胜', draw: '和棋', five: '五连：h8–l8。',
    full: '棋盘已满。', whiteResigned: '白认输。', blackResigned: '黑认输。',
    whitePasses: '白无棋可下，弃权。', pass: '弃权', over: '对局结束', occupied: '该点 h8已有棋子。',
    noFlips: '不能翻转任何棋子' },
};

const xyOf = (mv) => ['abcdefgh'.indexOf(mv[0]), parseInt(mv.slice(1), 10) - 1]; /* Reversi: rows from the top */

/* Two players (and a spectator) in an online room made by `a`. */
async function room(browser, base, variant, cfg, size) {
  const a = await L.openPage(browser, base, cfg.a.lang, cfg.a.size);
  a.lang = cfg.a.lang;
  const s0 = await newGame(a, { variant: variant, mode: 'online', color: 'black', size: size });
  const link = await a.inputValue('#room-link');
  const b = await L.openPage(browser, link, cfg.b.lang, cfg.b.size);
  b.lang = cfg.b.lang;
  await waitState(b, (s) => s.room === s0.room, 'the second player in the room');
  const c = await L.openPage(browser, link, cfg.c.lang, cfg.c.size);
  c.lang = cfg.c.lang;
  await waitState(c, (s) => s.room === s0.room, 'the spectator in the room');
  check((await seat(b)) === 'white' && (await seat(c)) === 'spectator', 'seats: black, white, spectator');
  return { a, b, c, room: s0.room };
}

async function closeAll(pages) {
  for (const p of pages) {
    check(p.errors.length === 0, 'no script errors: ' + p.errors.join('; '));
    await p.context().close();
  }
}

/* ---------------------------------------------------------------- a five, then a resignation */
async function fiveAndResign(browser, base, cfg, tag) {
  const { a, b, c } = await room(browser, base, 'freestyle', cfg, 15);
  const W = (p) => WORDS[p.lang];
  // Black h8 i8 j8 k8 l8 (row 8 is y = 7 from the top), white on row 9.
  for (let i = 0; i < 5; i++) {
    await play(a, 7 + i, 7);
    if (i === 0) {
      // White clicks the taken point: the server's code and point, worded in white's language.
      await waitState(b, (s) => s.moves.length === 1, 'white sees h8');
      await clickPoint(b, 7, 7);
      await b.waitForFunction(() => document.getElementById('message').textContent !== '');
      const msg = await b.textContent('#message');
      check(msg === W(b).occupied, tag + ': an occupied point in the page\'s language: ' + msg);
      check(b.lang === 'en' || L.englishIn(msg).length === 0, tag + ': no English in the Chinese message: ' + msg);
      const other = b.lang === 'en' ? 'zh' : 'en';
      await b.click('#lang-' + other);
      check((await b.textContent('#message')) === WORDS[other].occupied, tag + ': the message switches language at once');
      await b.click('#lang-' + b.lang);
    }
    if (i < 4) await play(b, 7 + i, 6);
  }
  for (const p of [a, b, c]) {
    const s = await waitState(p, (t) => t.over, 'the end of the game');
    const d = await dialog(p, 'end');
    const want = p === a ? W(p).win : p === b ? W(p).lose : W(p).black;
    check(d.title === want, tag + ': the dialog title for ' + (await seat(p)) + ': ' + d.title);
    check(d.text === W(p).five, tag + ': the dialog names the five: ' + d.text);
    check(s.end && s.end.reason === 'five' && s.end.winner === 'black', tag + ': the server sends why it ended');
    const line = await p.evaluate(() => window.renversi.view.line);
    check(JSON.stringify(line) === JSON.stringify([[7, 7], [8, 7], [9, 7], [10, 7], [11, 7]]),
      tag + ': the five is highlighted: ' + JSON.stringify(line));
    const status = await p.textContent('#status');
    check(status.startsWith(W(p).over), tag + ': the status says the game is over: ' + status);
  }
  // The highlight is drawn: between two stones of the row the band's amber, not the board.
  const mid = await a.evaluate(() => { const b = window.renversi.board; const p = b.centre(7, 7), q = b.centre(8, 7); return [(p[0] + q[0]) / 2, p[1]]; });
  const px = await L.pixel(a, mid[0], mid[1]);
  check(px[0] > 200 && px[1] > 90 && px[1] < 200 && px[2] < 90, tag + ': the band over the five is drawn: ' + px);
  await shot(a, 'play-five-' + a.lang + '.png');
  for (const p of [a, b, c]) await p.click('#dialog-ok');
  // The status line follows a language switch at once.
  const other = c.lang === 'en' ? 'zh' : 'en';
  await c.click('#lang-' + other);
  check((await c.textContent('#status')).includes(WORDS[other].five), tag + ': the status switches language: ' + await c.textContent('#status'));
  await c.click('#lang-' + c.lang);

  // Replay from the list: the five is still highlighted at the end; arrow keys step.
  const fin = await state(a);
  await a.click('#refresh');
  const item = a.locator('#game-list li[data-id="' + fin.game_id + '"]');
  await item.waitFor({ timeout: 5000 });
  const itemText = await item.textContent();
  check(a.lang === 'en' ? itemText.includes('Black wins') : L.englishIn(itemText).length === 0,
    tag + ': the game list in the page\'s language: ' + itemText);
  await item.click();
  await a.waitForSelector('#replay-bar:not([hidden])');
  const view = () => a.evaluate(() => window.renversi.view);
  check((await view()).line && (await view()).line.length === 5, tag + ': the replay ends with the five highlighted');
  await a.keyboard.press('ArrowLeft');
  check((await a.textContent('#rp-pos')).includes(a.lang === 'en' ? 'move 8 of 9' : '第 8 / 9 手'), tag + ': ← steps back: ' + await a.textContent('#rp-pos'));
  check(!(await view()).line, tag + ': no highlight before the last move');
  await a.keyboard.press('Home');
  check((await a.textContent('#rp-pos')).includes(a.lang === 'en' ? 'move 0 of 9' : '第 0 / 9 手'), tag + ': Home goes to the start');
  await a.keyboard.press('ArrowRight');
  await a.keyboard.press('ArrowRight');
  check((await view()).points.length === 2, tag + ': → steps forward');
  await a.keyboard.press('End');
  check((await view()).line.length === 5, tag + ': End goes back to the end');
  await a.click('#rp-close');

  // A new game in the room, and a resignation: both players get the dialog.
  await a.click('#again');
  const s1 = await waitState(a, (s) => s.game_id !== fin.game_id, 'the next game');
  await waitState(b, (s) => s.game_id === s1.game_id, 'the other player in the next game');
  const blackPage = (await seat(a)) === 'black' ? a : b, whitePage = blackPage === a ? b : a;
  await play(blackPage, 7, 7);
  await waitState(whitePage, (s) => s.moves.length === 1, 'white to move');
  await whitePage.click('#resign');
  for (const p of [a, b, c]) {
    await waitState(p, (s) => s.over && s.game_id === s1.game_id, 'the resignation');
    const d = await dialog(p, 'end');
    const want = p === blackPage ? W(p).win : p === whitePage ? W(p).lose : W(p).black;
    check(d.title === want && d.text === W(p).whiteResigned, tag + ': the resignation dialog: ' + d.title + ' / ' + d.text);
  }
  await closeAll([a, b, c]);
}

/* ---------------------------------------------------------------- a full board */
async function boardFull(browser, base, cfg, tag) {
  const { a, b, c } = await room(browser, base, 'freestyle', cfg, 5);
  // 13 black and 12 white stones on 5×5 with no row, column or diagonal of one colour:
  //   X X O O X / O O X X O / X X O O X / O O X X O / X O X O X
  const rows = ['XXOOX', 'OOXXO', 'XXOOX', 'OOXXO', 'XOXOX'];
  const black = [], white = [];
  rows.forEach((r, y) => [...r].forEach((ch, x) => (ch === 'X' ? black : white).push([x, y])));
  for (let i = 0; i < 25; i++) {
    const p = i % 2 === 0 ? a : b, pt = i % 2 === 0 ? black[i >> 1] : white[i >> 1];
    await waitState(p, (s) => s.moves.length === i, 'move ' + i + ' seen');
    await play(p, pt[0], pt[1]);
  }
  for (const p of [a, b, c]) {
    const s = await waitState(p, (t) => t.over, 'the full board');
    const d = await dialog(p, 'end');
    check(d.title === WORDS[p.lang].draw && d.text === WORDS[p.lang].full, tag + ': a full board is a draw: ' + d.title + ' / ' + d.text);
    check(s.end.reason === 'board_full' && s.winner === 'draw', tag + ': the server says board_full');
  }
  await closeAll([a, b, c]);
}

/* ---------------------------------------------------------------- Reversi: a pass and a score */
async function reversiPass(browser, base, cfg, tag) {
  const { a, b, c } = await room(browser, base, 'reversi', cfg);
  // After g7 white has no move (checked with `renversi judge`); e1 then leaves white no
  // disc: black wins 64-0 with 18 discs on the board.
  const moves = 'c4 c3 f5 b4 b2 d2 a4 a5 a6 f4 g4 f6 g7'.split(' ');
  for (let i = 0; i < moves.length; i++) {
    const p = i % 2 === 0 ? a : b;
    await waitState(p, (s) => s.moves.length === i, 'move ' + i + ' seen');
    const xy = xyOf(moves[i]);
    await play(p, xy[0], xy[1]);
  }
  for (const p of [a, b, c]) {
    const s = await waitState(p, (t) => t.moves.length === 14, 'the pass');
    check(s.moves[13] === 'pass' && s.to_move === 'black', tag + ': white\'s pass is in the record');
    await p.waitForSelector('#notice:not([hidden])');
    const n = await p.textContent('#notice');
    check(n === WORDS[p.lang].whitePasses, tag + ': the pass is announced to ' + (await seat(p)) + ': ' + n);
    const li = await p.locator('#move-list li').nth(13).textContent();
    check(li === WORDS[p.lang].pass, tag + ': the move list says pass: ' + li);
  }
  await shot(b, 'play-pass-' + b.lang + '.png');
  // An illegal square, in black's language with the server's reason.
  await clickPoint(a, 7, 7);
  await a.waitForFunction(() => document.getElementById('message').textContent !== '');
  const msg = await a.textContent('#message');
  check(msg.includes(WORDS[a.lang].noFlips) && msg.includes('h8'), tag + ': an illegal move with its reason: ' + msg);
  check(a.lang === 'en' || L.englishIn(msg).length === 0, tag + ': no English in it: ' + msg);
  await play(a, ...xyOf('e1'));
  for (const p of [a, b, c]) {
    const s = await waitState(p, (t) => t.over, 'the end');
    const d = await dialog(p, 'end');
    const want = p === a ? WORDS[p.lang].win : p === b ? WORDS[p.lang].lose : WORDS[p.lang].black;
    check(d.title === want, tag + ': the score dialog title: ' + d.title);
    check(s.end.reason === 'score' && s.end.score[0] === 64 && s.end.score[1] === 0 && s.end.discs[0] === 18,
      tag + ': the score with the empty squares to the winner: ' + JSON.stringify(s.end));
    check(d.text.includes('64–0') && d.text.includes('18–0'), tag + ': the dialog gives the score and the discs: ' + d.text);
  }
  await shot(c, 'play-score-' + c.lang + '.png');
  await closeAll([a, b, c]);
}

/* ---------------------------------------------------------------- Reversi against the computer */
async function flipsBeforeReply(browser, base, lang, size, tag) {
  const p = await L.openPage(browser, base, lang, size);
  check(!(await p.isChecked('#opt-sound')) && (await p.evaluate(() => !window.RvSound.on)), tag + ': sound is off by default');
  await newGame(p, { variant: 'reversi', mode: 'ai', color: 'black', level: 1 });
  for (let k = 0; k < 3; k++) {
    if (k === 1) await p.check('#opt-sound');
    const s = await waitState(p, (t) => t.to_move === 'black' && !t.thinking, 'my turn');
    const ply = s.moves.length, sounds = await p.evaluate(() => window.renversi.sounds);
    const mv = s.legal[0];
    await clickPoint(p, mv[0], mv[1]);
    await waitState(p, (t) => t.moves.length >= ply + 2 || t.over, 'the computer\'s answer');
    const frames = await p.evaluate(() => window.renversi.frames);
    const i = frames.findIndex((f) => f.n === ply + 1);
    const mine = frames[i], reply = frames[i + 1];
    check(mine && mine.flips >= 1 && mine.board[mv[1] * 8 + mv[0]] === 'X', tag + ': my move and its flips drawn (' + (mine && mine.flips) + ' flipped)');
    check(mine && reply && reply.t - mine.t >= 600, tag + ': the answer waits until my move was seen (' + (reply && mine && Math.round(reply.t - mine.t)) + ' ms)');
    const heard = (await p.evaluate(() => window.renversi.sounds)) - sounds;
    check(k === 0 ? heard === 0 : heard >= 2, tag + ': sound ' + (k === 0 ? 'off' : 'on') + ': ' + heard + ' clicks');
  }
  // Move numbers on the discs, remembered across a reload.
  await p.check('#opt-numbers');
  check(await p.evaluate(() => window.renversi.view.numbers), tag + ': move numbers on');
  await shot(p, 'play-numbers-' + lang + '.png');
  await p.reload();
  await waitState(p, (t) => t.moves.length >= 6, 'after the reload');
  check(await p.isChecked('#opt-numbers') && await p.isChecked('#opt-sound'), tag + ': the toggles are remembered');
  await closeAll([p]);
}

/* ---------------------------------------------------------------- small things */
async function smallThings(browser, base, lang, size, tag) {
  const p = await L.openPage(browser, base, lang, size);
  // Before Start: the empty grid of the chosen game.
  await p.waitForFunction(() => window.renversi.view && window.renversi.view.preview);
  const g = await p.evaluate(() => { const b = window.renversi.board; return b.centre(7, 7).concat([b.geometry().c]); });
  const bg = await L.pixel(p, g[0] + g[2] / 2, g[1] + g[2] / 2);
  let line = [255, 255, 255];
  for (let dx = -2; dx <= 2; dx++) {
    const v = await L.pixel(p, g[0] + dx, g[1] + 6);
    if (v[0] + v[1] + v[2] < line[0] + line[1] + line[2]) line = v;
  }
  check(line[0] + line[1] + line[2] < bg[0] + bg[1] + bg[2] - 60, tag + ': a grid line before Start: ' + line + ' on ' + bg);
  // No tap highlight, and the labels are clear of the edge stones.
  const tap = await p.evaluate(() => getComputedStyle(document.getElementById('board')).webkitTapHighlightColor);
  check(tap === 'rgba(0, 0, 0, 0)', tag + ': no tap highlight: ' + tap);
  await newGame(p, { variant: 'renju', mode: 'ai', color: 'black', level: 1 });
  const clear = await p.evaluate(() => {
    const b = window.renversi.board, g = b.geometry();
    const font = Math.max(9, Math.floor(g.c * 0.36));
    const stoneEdge = b.centre(0, 0)[0] - g.c * 0.45;     /* the edge stone's outer side */
    return { labelEnd: g.m * 0.3 + font * 0.6, stoneEdge: stoneEdge };
  });
  check(clear.labelEnd < clear.stoneEdge, tag + ': labels end before the stones begin: ' + JSON.stringify(clear));
  await play(p, 0, 0);
  // Results the server's rooms cannot produce (a player's forbidden move is refused, and
  // rooms have no clock) but a stored record or another referee can: the page is given the
  // protocol's messages for them directly (docs/protocol-web.md).
  const cols = 'abcdefghijklmno'.split(''), rows = Array.from({ length: 15 }, (_, i) => String(15 - i));
  const empty = '.'.repeat(225);
  await p.evaluate((m) => window.renversi.receive(m), { type: 'replay', id: 99, variant: 'renju', size: 15, cols, rows,
    moves: ['h8', 'a1', 'j8'], points: [[7, 7], [0, 14], [9, 7]], start: empty, steps: ['Xhh', 'Oao', 'Xjh'],
    result: "white wins: black's forbidden move j8 (double-three)",
    end: { reason: 'forbidden', winner: 'white', point: 'j8', xy: [9, 7], kind: 'double-three' } });
  await p.waitForSelector('#replay-bar:not([hidden])');
  const v = await p.evaluate(() => window.renversi.view);
  check(JSON.stringify(v.lossPoint) === '[9,7]', tag + ': the losing forbidden point is marked in replay');
  const st = await p.textContent('#status');
  check(st.includes(lang === 'en' ? 'Black played the forbidden point j8 (double-three).' : '黑棋走了禁手 j8（三三禁手）。'), tag + ': a forbidden loss worded: ' + st);
  await p.keyboard.press('ArrowLeft');
  check(!(await p.evaluate(() => window.renversi.view.lossPoint)), tag + ': not marked before the move');
  await p.click('#rp-close');
  const live = await state(p);
  const over = Object.assign({}, live, { over: true, to_move: null, winner: 'black', result: 'black wins: white lost on time',
    end: { reason: 'time', winner: 'black', loser: 'white' } });
  await p.evaluate((m) => window.renversi.receive(m), over);
  const d = await dialog(p, 'end');
  check(d.title === (lang === 'en' ? 'You win!' : '你赢了！') && d.text === (lang === 'en' ? 'White ran out of time.' : '白超时。'),
    tag + ': a loss on time worded: ' + d.title + ' / ' + d.text);
  await closeAll([p]);
}

async function landscape(browser, base, lang) {
  const p = await L.openPage(browser, base, lang, L.PHONE_LANDSCAPE);
  await newGame(p, { variant: 'renju', mode: 'ai', color: 'black', level: 1 });
  const fit = await p.evaluate(() => {
    const r = (id) => document.getElementById(id).getBoundingClientRect();
    return { board: r('board'), undo: r('undo'), w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth };
  });
  check(fit.board.bottom <= fit.h + 1 && fit.board.right <= fit.w && fit.board.width > 250,
    'landscape ' + lang + ': the board fits on screen: ' + JSON.stringify(fit.board));
  check(fit.undo.bottom <= fit.h && fit.undo.right <= fit.w, 'landscape ' + lang + ': the buttons are on screen beside it');
  check(fit.sw <= fit.w, 'landscape ' + lang + ': no sideways scrolling');
  await shot(p, 'play-landscape-' + lang + '.png');
  await closeAll([p]);
}

(async () => {
  if (!L.RENVERSI) { console.error('RENVERSI must name the binary'); process.exit(2); }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'renversi-e2e-'));
  const { srv, url } = await L.startServer(path.join(dir, 'game.db'));
  const browser = await L.launch();
  const EN_DESK = { lang: 'en', size: L.DESKTOP }, ZH_PHONE = { lang: 'zh', size: L.PHONE };
  const ZH_DESK = { lang: 'zh', size: L.DESKTOP }, EN_PHONE = { lang: 'en', size: L.PHONE };
  const steps = [
    () => fiveAndResign(browser, url, { a: EN_DESK, b: ZH_PHONE, c: ZH_DESK }, 'five en/zh'),
    () => fiveAndResign(browser, url, { a: ZH_PHONE, b: EN_DESK, c: EN_PHONE }, 'five zh/en'),
    () => boardFull(browser, url, { a: ZH_DESK, b: EN_PHONE, c: EN_DESK }, 'full'),
    () => reversiPass(browser, url, { a: EN_DESK, b: ZH_PHONE, c: EN_PHONE }, 'pass en/zh'),
    () => reversiPass(browser, url, { a: ZH_PHONE, b: EN_DESK, c: ZH_DESK }, 'pass zh/en'),
    () => flipsBeforeReply(browser, url, 'en', L.DESKTOP, 'flips en desktop'),
    () => flipsBeforeReply(browser, url, 'zh', L.PHONE, 'flips zh phone'),
    () => smallThings(browser, url, 'en', L.PHONE, 'small en phone'),
    () => smallThings(browser, url, 'zh', L.DESKTOP, 'small zh desktop'),
    () => landscape(browser, url, 'en'),
    () => landscape(browser, url, 'zh'),
  ];
  for (const step of steps) {
    try { await step(); } catch (e) { L.result.failed++; console.error('FAIL: ' + (e && e.stack || e)); }
  }
  await browser.close();
  srv.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(L.result.passed + ' passed, ' + L.result.failed + ' failed');
  process.exit(L.result.failed ? 1 : 0);
})();
