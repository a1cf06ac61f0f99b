// Browser test of the rooms (Debian's chromium, playwright-core): chat between two players
// and a spectator (escaped, in both languages, kept in the replay), hints off between
// players, a declined undo announced, colours swapping on the next game, the question
// before leaving a game, Caro in the menu; and the opening rules: swap2 and Soosõrv-8
// against the computer and between two players, in English and Chinese, at desktop and
// phone sizes. Prints "N passed, M failed" like the other tests. RV_SCREENSHOT_DIR=dir saves the
// screenshots docs/play.md shows.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const L = require('./lib.js');
const { check, state, seat, clickPoint, waitState } = L;

const SHOTS = process.env.RV_SCREENSHOT_DIR || '';
/* The sizes of the screenshots docs/play.md shows from this test. */
const DESKTOP = { viewport: { width: 1100, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/* Every room here states its opening rule (free unless given) and, online, its hints. */
const newGame = (page, o) => L.newGame(page, Object.assign({ opening: 'free', hints: false }, o));

async function join(page, link, room) {
  await page.goto(link);
  return waitState(page, (s) => s.room === room, 'joining ' + room);
}

async function chatLines(page) { return page.$$eval('#chat-log li', (ls) => ls.map((l) => l.textContent)); }

async function shot(page, name) {
  if (!SHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

/* ---------------------------------------------------------------- chat and room rules */
async function chatAndRoomRules(browser, base) {
  const a = await L.openPage(browser, base, 'en', DESKTOP);
  const b = await L.openPage(browser, base, 'zh', PHONE);
  const c = await L.openPage(browser, base, 'en', DESKTOP);
  const opts = await a.$$eval('#variant option', (os) => os.map((o) => o.value));
  check(opts.includes('caro') && opts.includes('standard-caro'), 'Caro variants in the menu: ' + opts.join(' '));
  const s0 = await newGame(a, { variant: 'freestyle', mode: 'online' });
  const link = await a.inputValue('#room-link');
  await join(b, link, s0.room);
  await join(c, link, s0.room);
  check((await seat(c)) === 'spectator', 'the third visitor watches');
  check((await b.textContent('#chat h2')) === '聊天', 'the chat is in Chinese for B');

  // Markup is shown as text: nobody's page gets an element from a message.
  await a.fill('#chat-text', 'hello <b>there</b> & "you"');
  await a.click('#chat-send');
  await b.waitForFunction(() => document.querySelectorAll('#chat-log li').length >= 1);
  await c.waitForFunction(() => document.querySelectorAll('#chat-log li').length >= 1);
  check((await chatLines(b))[0] === '黑方: hello <b>there</b> & "you"', 'B reads: ' + (await chatLines(b))[0]);
  check((await chatLines(c))[0] === 'Black: hello <b>there</b> & "you"', 'the spectator reads it');
  check((await b.$$('#chat-log b')).length === 0, 'no markup from a message');
  await c.fill('#chat-text', 'nice opening');
  await c.press('#chat-text', 'Enter');
  await a.waitForFunction(() => document.querySelectorAll('#chat-log li').length >= 2);
  check((await chatLines(a))[1] === 'Spectator: nice opening', 'the spectator talks: ' + (await chatLines(a))[1]);
  check(await c.$eval('#chat-text', (e) => e.maxLength === 200), 'the input stops at 200 characters');

  // Hints are off between players (the creator did not allow them).
  check(await a.isDisabled('#hint'), 'no hint button between players by default');

  // Moves, then an undo request that is declined: the asker is told.
  await clickPoint(a, 7, 7);
  await waitState(b, (s) => s.moves.length === 1, 'B sees h8');
  await clickPoint(b, 8, 6);
  await waitState(a, (s) => s.moves.length === 2, 'A sees i9');
  await a.click('#undo');
  await b.waitForSelector('#undo-ask:not([hidden])');
  await b.click('#undo-no');
  await a.waitForFunction(() => /declined/.test(document.getElementById('message').textContent));
  check(/White declined the undo request/.test(await a.textContent('#message')), 'A hears the undo was declined');
  await shot(a, 'rooms-chat.png');

  // B resigns; the next game swaps the colours.
  await b.click('#resign');
  const fin = await waitState(a, (s) => s.over, 'the end');
  for (const p of [a, b]) { /* the end of the game's dialog */
    await p.waitForSelector('#dialog[open]', { timeout: 5000 });
    await p.click('#dialog-ok');
  }
  await a.click('#again');
  await waitState(a, (s) => s.game_id !== fin.game_id, 'a new game');
  await a.waitForFunction(() => window.renversi.seat === 'white');
  await b.waitForFunction(() => window.renversi.seat === 'black');
  check((await a.textContent('#seat')) === 'You play White.', 'A plays white now: ' + await a.textContent('#seat'));
  check((await chatLines(a)).length === 0, 'the new game starts a new chat');

  // Leaving a game in progress asks first; "No" keeps it.
  await clickPoint(b, 7, 7);
  await waitState(a, (s) => s.moves.length === 1, 'the new game has a move');
  await a.click('#start');
  await a.waitForSelector('#confirm[open]');
  check(/game is in progress/.test(await a.textContent('#confirm-text')), 'the question is asked');
  await a.click('#confirm-no');
  await a.waitForTimeout(300);
  check((await state(a)).room === s0.room, 'No keeps the game');

  // The finished game's replay shows its chat.
  await a.click('#refresh');
  const item = a.locator('#game-list li[data-id="' + fin.game_id + '"]');
  await item.waitFor({ timeout: 5000 });
  await item.click();
  await a.waitForSelector('#replay-bar:not([hidden])');
  const lines = await chatLines(a);
  check(lines.length === 2 && lines[1] === 'Spectator: nice opening', 'the replay has the chat: ' + lines.join(' | '));
  await a.click('#rp-first');
  check((await chatLines(a)).length === 2, 'lines said before the first move stay at move 0');
  await a.click('#rp-close');
  for (const p of [a, b, c]) check(p.errors.length === 0, 'no script errors: ' + p.errors.join('; '));
  for (const p of [a, b, c]) await p.context().close();
}

/* ---------------------------------------------------------------- the opening, by step */

/* Plays my part of an opening until it is over: stones from `stones` in turn, the choices
   `choose` gives, a declaration of 2, offers far from the stones, the first offer. */
async function playOpening(page, plan) {
  let placed = 0;
  const t0 = Date.now();
  while (Date.now() - t0 < 90000) {
    const st = await state(page);
    if (st.opening.step === 'play' || st.over) return st;
    const me = await seat(page);
    /* A partial state shows earlier moves of a later one: act on the last state only. */
    if (st.turn !== me || st.thinking || st.partial) { await page.waitForTimeout(80); continue; }
    const step = st.opening.step;
    if (step === 'place') {
      const p = plan.stones[placed++];
      await clickPoint(page, p[0], p[1]);
    } else if (step === 'choose') {
      await page.click('#op-choice-' + plan.choose(st));
    } else if (step === 'declare') {
      await page.selectOption('#op-declare-n', '2');
      await page.click('#op-declare');
    } else if (step === 'offer') {
      const far = [[1, 13], [13, 12], [2, 1], [12, 2], [1, 6], [13, 7], [5, 13], [9, 1]];
      for (let i = 0; i < st.opening.declared; i++) await clickPoint(page, far[i][0], far[i][1]);
      await page.click('#op-offer');
    } else if (step === 'select') {
      const o = st.opening.offers[0];
      await clickPoint(page, o[0], o[1]);
    }
    await waitState(page, (t) => t.moves.length !== st.moves.length || t.opening.step !== st.opening.step ||
      t.turn !== st.turn || t.over, 'the opening moves on after ' + step);
  }
  throw new Error('the opening did not end');
}

async function openingVsAi(browser, base, o) {
  const page = await L.openPage(browser, base, o.lang, o.size);
  await newGame(page, { variant: o.variant, mode: 'ai', color: o.color, level: 1, opening: o.opening });
  const s = await playOpening(page, o.plan);
  check(s.opening.step === 'play', o.name + ': the opening ended');
  check(s.moves.length >= o.minMoves && s.opening.locked >= o.minMoves && s.opening.locked <= s.moves.length,
    o.name + ': ' + s.moves.length + ' moves, ' + s.opening.locked + ' in the opening');
  // The game goes on after it: the computer answers when it is its turn.
  const me = await seat(page);
  const n = (await waitState(page, (t) => t.over || (!t.thinking && t.to_move === me), o.name + ': my move')).moves.length;
  check(n >= s.opening.locked, o.name + ': play goes on');
  const log = (await chatLines(page)).join(' | ');
  check(/(chose|选择)/.test(log), o.name + ': the choices are in the log: ' + log);
  if (o.lang === 'zh') check(/[\u4e00-\u9fff]/.test(await page.textContent('#status')), o.name + ': Chinese status');
  check(page.errors.length === 0, o.name + ': no script errors: ' + page.errors.join('; '));
  await page.context().close();
}

async function swap2Online(browser, base) {
  const a = await L.openPage(browser, base, 'zh', DESKTOP);
  const b = await L.openPage(browser, base, 'en', PHONE);
  const s0 = await newGame(a, { variant: 'standard', mode: 'online', opening: 'swap2' });
  check(s0.opening.rule === 'swap2' && s0.opening.step === 'place', 'swap2 starts with stones to place');
  await join(b, await a.inputValue('#room-link'), s0.room);
  check(/二次交换/.test(await a.textContent('#opening-prompt')), 'A sees the swap2 prompt in Chinese');
  // A places black, white, black; B is told to wait.
  const three = [[7, 7], [8, 6], [6, 5]];
  for (let i = 0; i < 3; i++) {
    await clickPoint(a, three[i][0], three[i][1]);
    await waitState(a, (s) => s.moves.length === i + 1, 'stone ' + (i + 1));
  }
  const sb = await waitState(b, (s) => s.opening.step === 'choose', 'B chooses');
  check(sb.board[6 * 15 + 8] === 'O', 'the second stone is white');
  await b.waitForSelector('#op-choice-plus2');
  await shot(b, 'opening-swap2-choice.png');
  await b.click('#op-choice-plus2');
  await waitState(b, (s) => s.opening.step === 'place' && s.turn === 'white', 'B places two more');
  await clickPoint(b, 9, 9);
  await waitState(b, (s) => s.moves.length === 4, 'stone 4');
  await clickPoint(b, 10, 10);
  await waitState(a, (s) => s.opening.step === 'choose' && s.moves.length === 5, 'A chooses');
  check((await a.$$('#op-choice-plus2')).length === 0, 'two more stones only once');
  await a.click('#op-choice-white');
  await a.waitForFunction(() => window.renversi.seat === 'white');
  await b.waitForFunction(() => window.renversi.seat === 'black');
  const s = await waitState(a, (t) => t.opening.step === 'play', 'the opening is over');
  check(s.turn === 'white' && s.opening.locked === 5, 'A, now white, plays the 6th');
  check(/Black chose: play white/.test((await chatLines(b)).join(' | ')), 'B reads the choices: ' + (await chatLines(b)).join(' | '));
  for (const p of [a, b]) check(p.errors.length === 0, 'swap2 online: no script errors: ' + p.errors.join('; '));
  for (const p of [a, b]) await p.context().close();
}

async function soosorvOnline(browser, base) {
  const a = await L.openPage(browser, base, 'en', DESKTOP);
  const b = await L.openPage(browser, base, 'zh', PHONE);
  const s0 = await newGame(a, { variant: 'renju', mode: 'online', opening: 'soosorv8' });
  await join(b, await a.inputValue('#room-link'), s0.room);
  await clickPoint(a, 7, 7);
  await waitState(a, (s) => s.moves.length === 1, 'h8');
  await clickPoint(a, 9, 7); // j8: not next to the centre
  await a.waitForFunction(() => /next to the centre/.test(document.getElementById('message').textContent));
  check((await state(a)).moves.length === 1, 'a stone outside the area is refused');
  await clickPoint(a, 7, 6);
  await waitState(a, (s) => s.moves.length === 2, 'h9');
  await clickPoint(a, 7, 5);
  await waitState(b, (s) => s.opening.step === 'choose', 'B may swap');
  await b.waitForSelector('#op-choice-white');
  check(/索索夫/.test(await b.textContent('#opening-prompt')), 'B sees the rule in Chinese');
  await b.click('#op-choice-white');
  await waitState(b, (s) => s.opening.step === 'declare', 'B declares');
  await b.selectOption('#op-declare-n', '2');
  await b.click('#op-declare');
  await waitState(b, (s) => s.opening.step === 'place', 'B places the 4th');
  await clickPoint(b, 7, 0);
  await waitState(a, (s) => s.opening.step === 'choose' && s.turn === 'black', 'A may swap');
  await a.click('#op-choice-black');
  await waitState(a, (s) => s.opening.step === 'offer', 'A offers');
  // g8 and i8 mirror each other across column h: refused; then g8 and j9.
  await clickPoint(a, 6, 7);
  await clickPoint(a, 8, 7);
  await a.click('#op-offer');
  await a.waitForFunction(() => /symmetrical/.test(document.getElementById('message').textContent));
  await a.click('#op-clear');
  await clickPoint(a, 6, 7);
  await clickPoint(a, 9, 6);
  await shot(a, 'opening-soosorv-offer.png');
  await a.click('#op-offer');
  const sel = await waitState(b, (s) => s.opening.step === 'select', 'B selects');
  check(sel.opening.offers.map((o) => o[2]).join(' ') === 'g8 j9', 'the offers: ' + sel.opening.offers.map((o) => o[2]).join(' '));
  await shot(b, 'opening-soosorv-select.png');
  await clickPoint(b, 9, 6);
  const s = await waitState(b, (t) => t.opening.step === 'play', 'the opening is over');
  check(s.moves.length === 5 && s.moves[4] === 'j9' && s.turn === 'white', 'j9 is black\'s 5th; white plays the 6th');
  await clickPoint(b, 10, 4);
  await waitState(a, (t) => t.moves.length === 6, 'the 6th move');
  check((await chatLines(a)).some((l) => /offered the fifth moves g8 j9/.test(l)), 'the choices are in the log');
  for (const p of [a, b]) check(p.errors.length === 0, 'Soosõrv online: no script errors: ' + p.errors.join('; '));
  for (const p of [a, b]) await p.context().close();
}

(async () => {
  if (!L.RENVERSI) { console.error('RENVERSI must name the binary'); process.exit(2); }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'renversi-e2e-rooms-'));
  const { srv, url } = await L.startServer(path.join(dir, 'rooms.db'));
  const browser = await L.launch();
  const steps = [
    ['chat and room rules', () => chatAndRoomRules(browser, url)],
    ['swap2 between players', () => swap2Online(browser, url)],
    ['Soosõrv-8 between players', () => soosorvOnline(browser, url)],
    ['swap2 vs the computer (en, desktop)', () => openingVsAi(browser, url, { name: 'swap2 vs AI', lang: 'en', size: DESKTOP,
      variant: 'freestyle', color: 'white', opening: 'swap2', minMoves: 3,
      plan: { stones: [[3, 3], [11, 11]], choose: (s) => (s.opening.choices.includes('plus2') ? 'plus2' : 'black') } })],
    ['swap2 vs the computer (zh, phone)', () => openingVsAi(browser, url, { name: 'swap2 vs AI zh', lang: 'zh', size: PHONE,
      variant: 'freestyle', color: 'black', opening: 'swap2', minMoves: 3,
      plan: { stones: [[7, 7], [8, 8], [5, 8]], choose: () => 'black' } })],
    ['Soosõrv-8 vs the computer (zh, phone)', () => openingVsAi(browser, url, { name: 'Soosõrv vs AI', lang: 'zh', size: PHONE,
      variant: 'renju', color: 'black', opening: 'soosorv8', minMoves: 5,
      plan: { stones: [[7, 7], [8, 6], [9, 5], [6, 8], [10, 8]], choose: () => 'black' } })],
    ['Soosõrv-8 vs the computer (en, desktop)', () => openingVsAi(browser, url, { name: 'Soosõrv vs AI white', lang: 'en', size: DESKTOP,
      variant: 'renju', color: 'white', opening: 'soosorv8', minMoves: 5,
      plan: { stones: [[3, 3]], choose: () => 'white' } })],
  ];
  for (const [name, fn] of steps) {
    try { await fn(); } catch (e) { L.result.failed++; console.error('FAIL: ' + name + ': ' + (e && e.stack || e)); }
  }
  await browser.close();
  srv.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(L.result.passed + ' passed, ' + L.result.failed + ' failed');
  process.exit(L.result.failed ? 1 : 0);
})();
