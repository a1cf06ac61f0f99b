/* Words for what the server sends: results, errors and passes in the page's language. The
   server sends codes and parameters (docs/protocol-web.md); nothing here decides a result. */
'use strict';
(function () {
  const T = window.RV_TEXT;
  let lang = 'en';

  function t(key, args) {
    let s = (T[lang] && T[lang][key]);
    if (s === undefined) s = T.en[key];
    if (s === undefined) s = key;
    if (args) for (const k in args) s = s.split('{' + k + '}').join(args[k]);
    return s;
  }
  function has(key) { return T.en[key] !== undefined; }
  const color = (c) => (c === 'black' || c === 'white' ? t(c) : '');
  const kind = (k) => (has('kind_' + k) ? t('kind_' + k) : k || '');
  const move = (mv) => (mv === 'pass' ? t('pass') : mv);

  /* The result of a finished game from the server's `end` object (state and replay):
     { title, text } for the dialog; title alone for the status line. */
  function result(end) {
    if (!end) return { title: '', text: '' };
    const win = end.winner === 'black' || end.winner === 'white' ? end.winner : null;
    const title = win ? t('res_wins', { color: color(win) }) : t('res_draw');
    let text = '';
    switch (end.reason) {
      case 'five': text = t(end.length > 5 ? 'end_overline' : 'end_five', { color: color(win), from: end.from || '', to: end.to || '' }); break;
      case 'forbidden': text = t('end_forbidden', { point: end.point || '', kind: kind(end.kind) }); break;
      case 'board_full': text = t('end_board_full'); break;
      case 'resign': text = t('end_resign', { color: color(end.loser) }); break;
      case 'time': text = t('end_time', { color: color(end.loser) }); break;
      case 'score':
        text = t('end_score', { b: end.score[0], w: end.score[1] });
        if (end.discs && (end.discs[0] !== end.score[0] || end.discs[1] !== end.score[1]))
          text += ' ' + t('end_discs', { b: end.discs[0], w: end.discs[1] });
        break;
    }
    return { title: title, text: text };
  }
  function resultLine(end) {
    const r = result(end);
    return r.text ? r.title + ' — ' + r.text : r.title;
  }

  /* A stored game's result line (the games list has the referee's words only, as
     `renversi judge` writes them: docs/protocol-web.md) in the page's language. */
  function storedResult(r) {
    let m;
    if (!r) return '…';
    if ((m = r.match(/^(black|white) wins: (black|white) resigned$/)))
      return resultLine({ reason: 'resign', winner: m[1], loser: m[2] });
    if ((m = r.match(/^(black|white) wins: (black|white) lost on time$/)))
      return resultLine({ reason: 'time', winner: m[1], loser: m[2] });
    if ((m = r.match(/^(black|white) wins: (five|overline) (\S+)-(\S+)$/)))
      return resultLine({ reason: 'five', winner: m[1], length: m[2] === 'five' ? 5 : 6, from: m[3], to: m[4] });
    if ((m = r.match(/^white wins: black's forbidden move (\S+) \((.*)\)$/)))
      return resultLine({ reason: 'forbidden', winner: 'white', point: m[1], kind: m[2] });
    if ((m = r.match(/^(black|white) wins (\d+)-(\d+)$/)))
      return resultLine({ reason: 'score', winner: m[1], score: [+m[2], +m[3]] });
    if ((m = r.match(/^draw (\d+)-(\d+)$/))) return resultLine({ reason: 'score', winner: 'draw', score: [+m[1], +m[2]] });
    if (r === 'draw: board full') return resultLine({ reason: 'board_full', winner: 'draw' });
    return r;
  }

  /* An error from the server: its code and parameters, worded here. */
  function error(m) {
    const key = 'err_' + m.code;
    if (m.code === 'forbidden') return t('forbidden', { point: m.point || '', kind: kind(m.kind) });
    if (m.code === 'illegal') {
      const r = has('why_' + m.reason) ? t('why_' + m.reason) : t('why_other');
      return t('err_illegal', { point: m.point ? ' ' + m.point : '', why: r });
    }
    if (m.code === 'bad_request') return t('err_bad_request', { field: m.field || 'type' });
    if (has(key)) return t(key, Object.assign({}, m, { point: m.point ? ' ' + m.point : '', got: m.got || '',
      format: m.format || '', max: m.max || '',
      /* the opening's parameters (docs/protocol-web.md) */
      area: m.area ? t('area_' + m.area) : '', step: m.step ? t('step_' + m.step) : '' }));
    return t('err_other', { code: m.code });
  }

  function pass(c) { return t('passes', { color: color(c) }); }

  window.RvWords = {
    setLang: (l) => { lang = l; }, get lang() { return lang; },
    t: t, color: color, kind: kind, move: move, result: result, resultLine: resultLine,
    storedResult: storedResult, error: error, pass: pass
  };
})();
