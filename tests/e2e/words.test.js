// The page's words for what the server sends (web/words.js with web/i18n.js), without a
// browser: every error code the server's source sends has a text in both languages, every
// way a game ends is worded, a stored result line reads back, and the Chinese texts carry
// no English. Prints "N passed, M failed".
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const root = path.join(__dirname, '..', '..');
let passed = 0, failed = 0;
function check(cond, what) { if (cond) passed++; else { failed++; console.error('FAIL: ' + what); } }

const sandbox = { window: {} };
vm.createContext(sandbox);
for (const f of ['web/i18n.js', 'web/words.js']) vm.runInContext(fs.readFileSync(path.join(root, f), 'utf8'), sandbox, { filename: f });
const T = sandbox.window.RV_TEXT, W = sandbox.window.RvWords;
const english = (s) => (s.match(/[A-Za-z]{3,}/g) || []).filter((w) => !/^(PSQ|GGF|Caro|renversi)$/.test(w));

// Every code in the server's source: srv_error(c, "code", …) and error_with(c, "code", …),
// and the codes of a refused move (rooms.c do_move).
const codes = new Set(['forbidden', 'occupied', 'over', 'bad_move', 'illegal']);
for (const f of fs.readdirSync(path.join(root, 'src/server'))) {
  if (!f.endsWith('.c')) continue;
  const src = fs.readFileSync(path.join(root, 'src/server', f), 'utf8');
  for (const m of src.matchAll(/(?:srv_error|error_with)\([a-z_>-]+, "([a-z_]+)"/g)) codes.add(m[1]);
}
check(codes.size >= 20, 'the server sends ' + codes.size + ' codes');
for (const lang of ['en', 'zh']) {
  W.setLang(lang);
  for (const code of codes) {
    const text = W.error({ code: code, point: 'h8', kind: 'double-three', reason: 'no_flips', field: 'size', got: 'x', format: 'psq' });
    check(!/[{}]/.test(text) && text !== code, lang + ': error ' + code + ' is worded: ' + text);
    /* The field and format names are the protocol's own identifiers, quoted as they are. */
    check(lang === 'en' || english(text.replace(/size|psq/g, '')).length === 0, 'zh: error ' + code + ' has no English: ' + text);
    check(code === 'forbidden' || T[lang]['err_' + code] !== undefined, lang + ': a text of its own for ' + code);
  }
  for (const reason of ['off_board', 'no_flips', 'must_move', 'other']) {
    const text = W.error({ code: 'illegal', point: 'a1', reason: reason });
    check(text.includes(T[lang]['why_' + reason]) && text.includes('a1'), lang + ': illegal ' + reason + ': ' + text);
  }
}

// The ways a game ends, and the judge's lines read back into the same words.
const ends = {
  five: [{ reason: 'five', winner: 'black', from: 'h8', to: 'l8', length: 5 }, 'black wins: five h8-l8',
    { en: ['Black wins', 'Five in a row, h8–l8.'], zh: ['黑胜', '五连：h8–l8。'] }],
  overline: [{ reason: 'five', winner: 'white', from: 'a1', to: 'a6', length: 6 }, 'white wins: overline a1-a6',
    { en: ['White wins', 'A row of more than five, a1–a6.'], zh: ['白胜', '长连（超过五子）：a1–a6。'] }],
  forbidden: [{ reason: 'forbidden', winner: 'white', point: 'j8', kind: 'double-three' }, "white wins: black's forbidden move j8 (double-three)",
    { en: ['White wins', 'Black played the forbidden point j8 (double-three).'], zh: ['白胜', '黑棋走了禁手 j8（三三禁手）。'] }],
  full: [{ reason: 'board_full', winner: 'draw' }, 'draw: board full',
    { en: ['Draw', 'The board is full.'], zh: ['和棋', '棋盘已满。'] }],
  resign: [{ reason: 'resign', winner: 'white', loser: 'black' }, 'white wins: black resigned',
    { en: ['White wins', 'Black resigned.'], zh: ['白胜', '黑认输。'] }],
  time: [{ reason: 'time', winner: 'black', loser: 'white' }, 'black wins: white lost on time',
    { en: ['Black wins', 'White ran out of time.'], zh: ['黑胜', '白超时。'] }],
  score: [{ reason: 'score', winner: 'black', score: [50, 14] }, 'black wins 50-14',
    { en: ['Black wins', 'Score 50–14.'], zh: ['黑胜', '比分 50–14。'] }],
  draw: [{ reason: 'score', winner: 'draw', score: [32, 32] }, 'draw 32-32',
    { en: ['Draw', 'Score 32–32.'], zh: ['和棋', '比分 32–32。'] }],
};
for (const lang of ['en', 'zh']) {
  W.setLang(lang);
  for (const name in ends) {
    const [end, line, want] = ends[name];
    const r = W.result(end);
    check(r.title === want[lang][0] && r.text === want[lang][1], lang + ': ' + name + ': ' + r.title + ' / ' + r.text);
    check(W.storedResult(line) === want[lang][0] + ' — ' + want[lang][1], lang + ': the stored line "' + line + '" reads back: ' + W.storedResult(line));
  }
  const withDiscs = W.result({ reason: 'score', winner: 'black', score: [64, 0], discs: [18, 0] }).text;
  check(withDiscs.includes('64–0') && withDiscs.includes('18–0'), lang + ': the score and the discs on the board: ' + withDiscs);
  check(W.pass('white') === (lang === 'en' ? 'White has no move and passes.' : '白无棋可下，弃权。'), lang + ': a pass: ' + W.pass('white'));
}
// Both languages have the same texts, and every Chinese text is Chinese.
const en = Object.keys(T.en), zh = Object.keys(T.zh);
check(en.every((k) => zh.includes(k)) && zh.every((k) => en.includes(k)), 'the same keys in both languages');
for (const k of zh) {
  const bad = english(T.zh[k].replace(/\{[a-z]+\}/g, ''));
  check(bad.length === 0 || /^(title|fmt_)/.test(k), 'zh.' + k + ' is Chinese: ' + T.zh[k]);
}
console.log(passed + ' passed, ' + failed + ' failed');
process.exit(failed ? 1 : 0);
