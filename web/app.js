/* The browser game: talks to `renversi serve` over /ws (docs/protocol-web.md). */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const T = window.RV_TEXT;
  let lang = localStorage.getItem('renversi.lang') ||
    ((navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en');
  let ws = null, backoff = 250, state = null, seat = null, roomId = null, replay = null;
  let pendingCreate = null, lastMsg = null, hint = null, joins = 0;
  const board = new window.RvBoard($('board'));
  const chat = new window.RvChat({ send: (o) => send(o), t: (k, a) => t(k, a), log: $('chat-log'),
    form: $('chat-form'), input: $('chat-text') });
  const opening = new window.RvOpening({ send: (o) => send(o), t: (k, a) => t(k, a),
    panel: $('opening-panel'), prompt: $('opening-prompt'), actions: $('opening-actions'),
    redraw: () => render() });

  function t(key, args) {
    let s = (T[lang] && T[lang][key]) || T.en[key] || key;
    if (args) for (const k in args) s = s.split('{' + k + '}').join(args[k]);
    return s;
  }
  function colorName(c) { return c ? t(c) : ''; }

  /* ---------------------------------------------------------------- language */
  function applyLang() {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    $('lang-en').classList.toggle('active', lang === 'en');
    $('lang-zh').classList.toggle('active', lang === 'zh');
    render();
    if (lastMsg) showMessage(lastMsg);
  }
  function setLang(l) { lang = l; localStorage.setItem('renversi.lang', l); applyLang(); }
  $('lang-en').addEventListener('click', () => setLang('en'));
  $('lang-zh').addEventListener('click', () => setLang('zh'));

  /* ---------------------------------------------------------------- connection */
  function send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }

  function connect() {
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
    ws = new WebSocket(url);
    ws.onopen = () => {
      backoff = 250;
      showMessage(null);
      if (pendingCreate) { send(pendingCreate); pendingCreate = null; }
      else if (roomId) send({ type: 'join', room: roomId, token: localStorage.getItem('renversi.token.' + roomId) || '' });
      send({ type: 'list' });
      render();
    };
    ws.onmessage = (ev) => { let m; try { m = JSON.parse(ev.data); } catch (e) { return; } onMessage(m); };
    ws.onclose = () => {
      ws = null;
      $('status').textContent = t('reconnecting');
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 5000);
    };
  }

  function onMessage(m) {
    switch (m.type) {
      case 'joined':
        if (m.room !== roomId) chat.reset([]);
        roomId = m.room; seat = m.seat; joins++;
        if (m.token) localStorage.setItem('renversi.token.' + m.room, m.token);
        if (location.hash !== '#room=' + m.room) history.replaceState(null, '', '#room=' + m.room);
        break;
      case 'state':
        if (state && state.game_id !== m.game_id) chat.reset([]);
        state = m;
        if (hint && hint.ply !== m.moves.length) hint = null;
        if (m.over) send({ type: 'list' });
        showMessage(null);
        render();
        break;
      case 'error': onError(m); break;
      case 'events': chat.reset(m.events); render(); break;
      case 'event': chat.add(m); render(); break;
      case 'notice':
        showMessage({ text: t('notice_' + m.code, { by: t((m.params || {}).by || ''), asker: t((m.params || {}).asker || '') }) });
        break;
      case 'games': renderGames(m.games); break;
      case 'replay': m.boards = replayBoards(m); replay = { game: m, ply: m.boards.length - 1 }; render(); break;
      case 'export': download(m.filename, m.text); break;
      case 'hint':
        hint = m;
        showMessage({ text: t('hintIs', { move: m.move === 'pass' ? t('pass') : m.move }) });
        render();
        break;
    }
  }

  function kindText(kind) { return t('kind_' + kind); }

  function onError(m) {
    if (m.code === 'forbidden') {
      const text = t('forbidden', { point: m.point || '', kind: kindText(m.kind) });
      showMessage({ text: text, raw: m });
      $('dialog-text').textContent = text;
      if (!$('dialog').open) $('dialog').showModal();
      return;
    }
    const key = 'err_' + m.code;
    const args = Object.assign({ msg: m.message }, m.params || {});
    if (args.area) args.area = t('area_' + args.area);
    if (args.step) args.step = t('step_' + args.step);
    const text = T.en[key] ? t(key, args) : t('err_other', { msg: m.message });
    showMessage({ text: text, raw: m });
  }

  function showMessage(msg) {
    lastMsg = msg;
    if (!msg) { $('message').textContent = ''; return; }
    if (msg.raw && msg.raw.code === 'forbidden') {
      msg.text = t('forbidden', { point: msg.raw.point || '', kind: kindText(msg.raw.kind) });
    }
    $('message').textContent = msg.text;
  }

  function download(name, text) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = name;
    a.dataset.text = text;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    window.renversiLastExport = text;
  }

  /* ---------------------------------------------------------------- rendering */
  function resultText(s) {
    const r = s.result || '';
    let m;
    if ((m = r.match(/^(black|white) wins: (black|white) resigned/)))
      return t('res_wins', { color: t(m[1]) }) + ' (' + t('res_resigned', { color: t(m[2]) }) + ')';
    if ((m = r.match(/^(black|white) wins: five/))) return t('res_wins', { color: t(m[1]) }) + ' (' + t('res_five') + ')';
    if ((m = r.match(/^white wins: black's forbidden move \S+ \((.*)\)/)))
      return t('res_wins', { color: t('white') }) + ' (' + t('res_forbidden') + ': ' + kindText(m[1]) + ')';
    if ((m = r.match(/^(black|white) wins (\d+)-(\d+)/))) return t('res_wins', { color: t(m[1]) }) + ' ' + m[2] + '–' + m[3];
    if ((m = r.match(/^draw (\d+)-(\d+)/))) return t('res_draw') + ' ' + m[1] + '–' + m[2];
    if (/^draw/.test(r)) return t('res_draw');
    return r;
  }

  function render() {
    const inReplay = !!replay;
    $('replay-bar').hidden = !inReplay;
    chat.enable(!!state, inReplay);
    chat.render(inReplay ? replay.game.events || [] : null, inReplay ? replay.ply : undefined);
    opening.update(inReplay ? null : state, seat);
    if (inReplay) { renderReplay(); return; }
    const s = state;
    $('room').hidden = !s;
    if (!s) {
      board.draw(null);
      $('status').textContent = ws ? t('chooseGame') : t('connecting');
      $('controls').hidden = true;
      $('move-list').textContent = '';
      return;
    }
    $('controls').hidden = false;
    board.draw({ size: s.size, reversi: s.variant === 'reversi', board: s.board, cols: s.cols, rows: s.rows,
      last: s.last, legal: seat === s.to_move ? s.legal : [], forbidden: s.forbidden,
      hint: hint && hint.x >= 0 ? [hint.x, hint.y] : null, marks: opening.marks(s) });
    $('room-link').value = location.origin + location.pathname + '#room=' + s.room;
    $('seat').textContent = seat === 'black' || seat === 'white' ? t('youAre', { color: t(seat) }) : t('spectating');
    const who = (c) => t('seat_' + s.seats[c]) + (s.seats[c] === 'human' && !s.present[c] ? ' (' + t('away') + ')' : '');
    $('players').textContent = t('players', { b: who('black'), w: who('white'), s: s.spectators });
    let st;
    if (s.over) st = t('over', { result: resultText(s) });
    else if (s.thinking) st = t('thinking');
    else if (s.mode === 'online' && (s.seats.black === 'open' || s.seats.white === 'open')) st = t('waiting');
    else if (opening.active(s)) st = t('op_status', { color: t(s.turn) });
    else if (seat === s.to_move) st = t('yourTurn', { color: t(s.to_move) });
    else st = t('toMove', { color: colorName(s.to_move) });
    if (s.variant === 'reversi') st += ' · ● ' + s.counts[0] + ' ○ ' + s.counts[1];
    if (s.mode === 'online' && s.hints && s.hints.allowed && (s.hints.black || s.hints.white))
      st += ' · ' + t('hintsUsed', { b: s.hints.black, w: s.hints.white });
    $('status').textContent = st;
    const ol = $('move-list');
    ol.textContent = '';
    s.moves.forEach((mv) => { const li = document.createElement('li'); li.textContent = mv === 'pass' ? t('pass') : mv; ol.appendChild(li); });
    ol.scrollTop = ol.scrollHeight;
    const seated = seat === 'black' || seat === 'white';
    const locked = s.opening ? s.opening.locked : 0;
    $('undo').disabled = !seated || s.moves.length <= locked || (!!s.undo_request) || opening.active(s);
    $('resign').disabled = !seated || s.over;
    $('hint').disabled = !seated || s.over || s.to_move !== seat || opening.active(s) || (s.hints && !s.hints.allowed);
    $('again').disabled = !seated || (s.mode === 'online' && !s.over);
    const asked = s.undo_request && seated && s.undo_request !== seat;
    $('undo-ask').hidden = !asked;
    if (s.undo_request && s.undo_request === seat) $('status').textContent += ' · ' + t('undoWaiting');
  }

  // The board after each ply, from the start and what each ply changed (the server's
  // `steps`: the mover's stone, then two letters per point that took it).
  function replayBoards(m) {
    const boards = [m.start];
    let b = m.start.split('');
    for (const st of m.steps) {
      for (let k = 1; k + 1 < st.length; k += 2)
        b[(st.charCodeAt(k + 1) - 97) * m.size + st.charCodeAt(k) - 97] = st[0];
      boards.push(b.join(''));
    }
    return boards;
  }

  function renderReplay() {
    const g = replay.game, i = replay.ply, n = g.boards.length - 1;
    let last = null;
    if (i > 0) {
      const a = g.boards[i - 1], b = g.boards[i];
      for (let k = 0; k < b.length; k++) if (a[k] === '.' && b[k] !== '.') { last = [k % g.size, Math.floor(k / g.size)]; break; }
    }
    board.draw({ size: g.size, reversi: g.variant === 'reversi', board: g.boards[i], cols: g.cols, rows: g.rows, last: last, legal: [], forbidden: [] });
    $('rp-pos').textContent = t('replayOf', { id: g.id }) + ' · ' + t('ply', { i: i, n: n });
    $('status').textContent = g.result ? t('over', { result: resultText(g) }) : '';
    $('controls').hidden = true;
    const ol = $('move-list');
    ol.textContent = '';
    g.moves.forEach((mv, k) => { const li = document.createElement('li'); li.textContent = mv; if (k === i - 1) li.className = 'current'; ol.appendChild(li); });
    const ex = $('rp-export');
    ex.textContent = t('exportAs') + ' ';
    const formats = g.variant === 'reversi' ? ['transcript', 'ggf', 'moves'] : ['psq', 'moves'];
    formats.forEach((f) => {
      const b = document.createElement('button');
      b.type = 'button'; b.textContent = t('fmt_' + f); b.dataset.format = f;
      b.addEventListener('click', () => send({ type: 'export', id: g.id, format: f }));
      ex.appendChild(b);
    });
  }

  function renderGames(games) {
    const ul = $('game-list');
    ul.textContent = '';
    if (!games.length) { const li = document.createElement('li'); li.textContent = t('noGames'); ul.appendChild(li); return; }
    games.forEach((g) => {
      const li = document.createElement('li');
      li.dataset.id = g.id;
      const when = new Date(g.created * 1000).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en');
      li.textContent = '#' + g.id + ' ' + t(g.variant) + ' · ' + g.nmoves + ' · ' + (g.result ? resultText(g) : '…') + ' · ' + when;
      li.addEventListener('click', () => send({ type: 'replay', id: g.id }));
      ul.appendChild(li);
    });
  }

  /* ---------------------------------------------------------------- actions */
  board.onPoint = (x, y) => {
    if (replay || !state || state.over) return;
    if (seat !== 'black' && seat !== 'white') { onError({ code: 'not_seated', message: '' }); return; }
    if (seat !== (state.turn || state.to_move)) { onError({ code: 'not_your_turn', message: '' }); return; }
    if (opening.onPoint(state, seat, x, y)) return;
    send({ type: 'move', x: x, y: y, ply: state.moves.length });
  };
  /* Leaving a game in progress (a player's, with moves) asks first. */
  function confirmLeave(then) {
    const s = state, seated = seat === 'black' || seat === 'white';
    if (!s || s.over || !seated || s.moves.length === 0) return then();
    $('confirm-text').textContent = t('confirmAbandon');
    const d = $('confirm');
    d.onclose = () => { if (d.returnValue === 'yes') then(); };
    d.returnValue = '';
    d.showModal();
  }
  $('setup').addEventListener('submit', (ev) => {
    ev.preventDefault();
    confirmLeave(() => {
      replay = null;
      const variant = $('variant').value;
      const msg = { type: 'create', variant: variant, mode: $('mode').value, color: $('color').value,
        level: parseInt($('level').value, 10) || 5 };
      if (variant !== 'reversi') msg.size = parseInt($('size').value, 10) || 15;
      if (!$('opening-label').hidden && $('opening').value !== 'free') msg.opening = $('opening').value;
      if (msg.mode === 'online') msg.hints = $('allow-hints').checked;
      if (ws && ws.readyState === 1) send(msg); else pendingCreate = msg;
    });
  });
  /* The opening rules that fit the game: swap2 for Gomoku, Soosõrv-8 for Renju on 15x15. */
  function setupFields() {
    const v = $('variant').value, size = parseInt($('size').value, 10) || 15;
    $('size-label').hidden = v === 'reversi';
    $('level-label').hidden = $('mode').value !== 'ai';
    $('hints-label').hidden = $('mode').value !== 'online';
    const fits = { free: true, swap2: v !== 'reversi' && v !== 'renju', soosorv8: v === 'renju' && size === 15 };
    let any = false;
    for (const o of $('opening').options) { o.hidden = o.disabled = !fits[o.value]; any = any || (o.value !== 'free' && fits[o.value]); }
    if (!fits[$('opening').value]) $('opening').value = 'free';
    $('opening-label').hidden = !any;
  }
  ['variant', 'mode', 'size'].forEach((id) => $(id).addEventListener('change', setupFields));
  $('size').addEventListener('input', setupFields);
  $('undo').addEventListener('click', () => send({ type: 'undo' }));
  $('resign').addEventListener('click', () => send({ type: 'resign' }));
  $('hint').addEventListener('click', () => send({ type: 'hint' }));
  $('again').addEventListener('click', () => confirmLeave(() => send({ type: 'new' })));
  $('undo-yes').addEventListener('click', () => send({ type: 'undo_reply', accept: true }));
  $('undo-no').addEventListener('click', () => send({ type: 'undo_reply', accept: false }));
  $('refresh').addEventListener('click', () => send({ type: 'list' }));
  $('copy').addEventListener('click', () => {
    $('room-link').select();
    if (navigator.clipboard) navigator.clipboard.writeText($('room-link').value).catch(() => {});
    showMessage({ text: t('copied') });
  });
  $('rp-first').addEventListener('click', () => { replay.ply = 0; render(); });
  $('rp-prev').addEventListener('click', () => { replay.ply = Math.max(0, replay.ply - 1); render(); });
  $('rp-next').addEventListener('click', () => { replay.ply = Math.min(replay.game.boards.length - 1, replay.ply + 1); render(); });
  $('rp-last').addEventListener('click', () => { replay.ply = replay.game.boards.length - 1; render(); });
  $('rp-close').addEventListener('click', () => { replay = null; render(); });
  window.addEventListener('hashchange', () => {
    const m = location.hash.match(/^#room=([0-9a-z]+)$/);
    if (m && m[1] !== roomId) { roomId = m[1]; state = null; seat = null; replay = null; send({ type: 'join', room: roomId, token: localStorage.getItem('renversi.token.' + roomId) || '' }); }
  });

  /* For the browser tests: where point (x, y) is on the page. */
  window.renversi = {
    pixel: (x, y) => { const r = $('board').getBoundingClientRect(); const p = board.centre(x, y); return [r.left + p[0], r.top + p[1]]; },
    get state() { return state; }, get seat() { return seat; }, get hint() { return hint; }, get joins() { return joins; }
  };

  const m = location.hash.match(/^#room=([0-9a-z]+)$/);
  if (m) roomId = m[1];
  setupFields();
  applyLang();
  connect();
})();
