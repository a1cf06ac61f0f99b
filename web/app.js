/* The browser game: talks to `renversi serve` over /ws (docs/protocol-web.md). */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const W = window.RvWords;
  const t = W.t;
  let lang = localStorage.getItem('renversi.lang') ||
    ((navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en');
  let ws = null, backoff = 250, state = null, seat = null, roomId = null;
  let pendingCreate = null, lastMsg = null, notice = null, hint = null, joins = 0, games = null;
  let numbers = localStorage.getItem('renversi.numbers') === 'on';
  const endShown = {};      /* game ids whose end dialog was shown */
  const frames = [];        /* for the tests: when each state was drawn */
  const board = new window.RvBoard($('board'));
  const replay = new window.RvReplay({ board: board, send: (m) => send(m), numbers: () => numbers, done: () => render() });
  const chat = new window.RvChat({ send: (o) => send(o), t: t, log: $('chat-log'), form: $('chat-form'),
    input: $('chat-text') });
  const opening = new window.RvOpening({ send: (o) => send(o), t: t, panel: $('opening-panel'),
    prompt: $('opening-prompt'), actions: $('opening-actions'), redraw: () => render() });

  /* ---------------------------------------------------------------- language */
  function applyLang() {
    W.setLang(lang);
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    document.querySelectorAll('[data-i18n-label]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nLabel)); });
    $('lang-en').classList.toggle('active', lang === 'en');
    $('lang-zh').classList.toggle('active', lang === 'zh');
    render();
    if (lastMsg) showMessage(lastMsg);
    showNotice(notice);
    if (games) renderGames(games);
    window.RvDialog.relabel();
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
        if (m.room !== roomId) { state = null; chat.reset([]); }
        roomId = m.room; seat = m.seat; joins++;
        queue.length = 0;
        if (m.token) localStorage.setItem('renversi.token.' + m.room, m.token);
        if (location.hash !== '#room=' + m.room) history.replaceState(null, '', '#room=' + m.room);
        break;
      case 'state': for (const part of expand(m)) queue.push(part); pump(); break;
      case 'error': onError(m); break;
      case 'events': chat.reset(m.events); render(); break;
      case 'event': chat.add(m); render(); break;
      case 'notice': showMessage({ key: 'notice_' + m.code, args: { by: W.color(m.by), asker: W.color(m.asker) } }); break;
      case 'games': games = m.games; renderGames(games); break;
      case 'replay': window.RvDialog.close(); replay.open(m); render(); break;
      case 'export': download(m.filename, m.text); break;
      case 'hint':
        hint = m;
        showMessage({ key: 'hintIs', args: { move: W.move(m.move) } });
        render();
        break;
    }
  }

  /* ---------------------------------------------------------------- pacing
     States are drawn in order. One that adds a move waits until the move before it has been
     on the board for a moment, so a quick answer of the computer never hides your own move
     and its flips. */
  const queue = [];
  let holdUntil = 0, timer = null;
  const addsMove = (m) => state && m.game_id === state.game_id && m.moves.length > state.moves.length;

  /* A state may bring several moves at once (the server replaces a state a client has not
     read with a newer one): the moves before the last are rebuilt from `recent` (what each
     move changed) as states of their own, one per move with the passes after it, so each
     is drawn in turn. */
  function expand(m) {
    const prev = queue.length ? queue[queue.length - 1] : state;
    if (!prev || prev.game_id !== m.game_id || !m.recent || !m.points) return [m];
    const n0 = prev.moves.length, from = m.recent.from;
    if (m.moves.length - n0 < 2 || from > n0 || prev.moves.join() !== m.moves.slice(0, n0).join()) return [m];
    const out = [];
    const b = prev.board.split('');
    for (let i = n0; i < m.moves.length - 1; i++) {
      const st = m.recent.steps[i - from] || '';
      for (let k = 1; k + 1 < st.length; k += 2) b[(st.charCodeAt(k + 1) - 97) * m.size + st.charCodeAt(k) - 97] = st[0];
      if (m.moves[i + 1] === 'pass') continue; /* a pass goes with the move before it */
      const board = b.join('');
      out.push(Object.assign({}, m, { moves: m.moves.slice(0, i + 1), points: m.points.slice(0, i + 1),
        board: board, last: m.points[i], legal: [], forbidden: [], over: false, end: null, result: '', winner: null,
        to_move: (i + 1) % 2 === 0 ? 'black' : 'white', thinking: false, undo_request: null, partial: true,
        counts: [board.split('X').length - 1, board.split('O').length - 1] }));
    }
    out.push(m);
    return out;
  }

  function pump() {
    while (queue.length && !timer) {
      const next = queue[0];
      const wait = holdUntil - performance.now();
      if (addsMove(next) && wait > 0 && queue.length < 4) {
        timer = setTimeout(() => { timer = null; pump(); }, wait);
        return;
      }
      queue.shift();
      applyState(next);
    }
  }

  function applyState(m) {
    const prev = state;
    const sameGame = prev && prev.game_id === m.game_id;
    if (prev && !sameGame) chat.reset([]);
    const added = sameGame && m.moves.length > prev.moves.length ? m.moves.length - prev.moves.length : 0;
    state = m;
    if (hint && hint.ply !== m.moves.length) hint = null;
    if (!sameGame || m.moves.length !== prev.moves.length) { showMessage(null); showNotice(null); }
    render();
    const pts = (m.points || []).slice(prev ? prev.moves.length : 0);
    const real = pts.filter((p) => p);
    if (added && real.length === 1) {
      board.animate(prev.board, real[0]);
      window.RvSound.play(m.board[real[0][1] * m.size + real[0][0]] === 'X');
    }
    /* A pass among the new moves is announced to everyone in the room. */
    if (added) {
      for (let i = prev.moves.length; i < m.moves.length; i++)
        if (m.moves[i] === 'pass') showNotice({ key: 'passes', args: { color: i % 2 === 0 ? 'black' : 'white' } });
    }
    if (added) holdUntil = performance.now() + (m.variant === 'reversi' ? 700 : 250);
    frames.push({ t: performance.now(), n: m.moves.length, board: m.board, flips: added && real.length === 1 ? (board.lastFlips || []).length : 0, over: m.over });
    if (frames.length > 500) frames.shift();
    if (m.over && sameGame && !prev.over && !endShown[m.game_id]) {
      endShown[m.game_id] = true;
      const s = m;
      window.RvDialog.show('end', () => endWords(s));
      send({ type: 'list' });
    } else if (m.over) {
      send({ type: 'list' });
    }
  }

  function endWords(s) {
    if (s.end) {
      const r = W.result(s.end);
      const mine = seat === 'black' || seat === 'white';
      let title = r.title;
      if (mine && (s.end.winner === 'black' || s.end.winner === 'white'))
        title = s.end.winner === seat ? t('youWin') : t('youLose');
      return { title: title, text: r.text };
    }
    return { title: t('gameOver'), text: W.storedResult(s.result) };
  }

  function onError(m) {
    if (m.code === 'forbidden') {
      showMessage({ raw: m });
      window.RvDialog.show('forbidden', () => ({ title: t('forbiddenTitle'), text: W.error(m) }));
      return;
    }
    showMessage({ raw: m });
  }

  /* Messages are kept as keys or raw errors, so a language switch rewords them. */
  function showMessage(msg) {
    lastMsg = msg;
    $('message').textContent = !msg ? '' : msg.raw ? W.error(msg.raw) : t(msg.key, msg.args);
  }
  function showNotice(n) {
    notice = n;
    const el = $('notice');
    el.hidden = !n;
    el.textContent = n ? t(n.key, { color: W.color(n.args.color) }) : '';
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
  function resultText(s) { return s.end ? W.resultLine(s.end) : W.storedResult(s.result); }

  /* The empty board of the chosen game before Start (no labels: those come from the server). */
  function preview() {
    const rev = $('variant').value === 'reversi';
    const n = rev ? 8 : Math.max(5, Math.min(26, parseInt($('size').value, 10) || 15));
    return { preview: true, size: n, reversi: rev, board: '.'.repeat(n * n), cols: [], rows: [] };
  }

  function render() {
    const inReplay = replay.active();
    $('replay-bar').hidden = !inReplay;
    chat.enable(!!state, inReplay);
    chat.render(inReplay ? replay.game.events || [] : null, inReplay ? replay.ply : undefined);
    opening.update(inReplay ? null : state, seat, !!(state && state.partial) || queue.length > 0);
    document.body.classList.toggle('replaying', inReplay);
    if (inReplay) { $('controls').hidden = true; replay.render(); return; }
    const s = state;
    $('room').hidden = !s;
    if (!s) {
      board.draw(preview());
      $('status').textContent = ws ? t('chooseGame') : t('connecting');
      $('controls').hidden = true;
      $('move-list').textContent = '';
      return;
    }
    $('controls').hidden = false;
    const end = s.over && s.end ? s.end : null;
    board.draw({ size: s.size, reversi: s.variant === 'reversi', board: s.board, cols: s.cols, rows: s.rows,
      last: s.last, points: s.points, numbers: numbers, legal: seat === s.to_move ? s.legal : [], forbidden: s.forbidden,
      hint: hint && hint.x >= 0 ? [hint.x, hint.y] : null,
      line: end && end.line ? end.line : null, lossPoint: end && end.xy ? end.xy : null, marks: opening.marks(s) });
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
    else st = t('toMove', { color: W.color(s.to_move) });
    if (s.variant === 'reversi') st += ' · ● ' + s.counts[0] + ' ○ ' + s.counts[1];
    if (s.mode === 'online' && s.hints && s.hints.allowed && (s.hints.black || s.hints.white))
      st += ' · ' + t('hintsUsed', { b: s.hints.black, w: s.hints.white });
    $('status').textContent = st;
    const ol = $('move-list');
    ol.textContent = '';
    s.moves.forEach((mv) => { const li = document.createElement('li'); li.textContent = W.move(mv); ol.appendChild(li); });
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

  function renderGames(list) {
    const ul = $('game-list');
    ul.textContent = '';
    if (!list.length) { const li = document.createElement('li'); li.textContent = t('noGames'); ul.appendChild(li); return; }
    list.forEach((g) => {
      const li = document.createElement('li');
      li.dataset.id = g.id;
      const when = new Date(g.created * 1000).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en');
      li.textContent = '#' + g.id + ' ' + t(g.variant) + ' · ' + t('nmoves', { n: g.nmoves }) + ' · ' +
        W.storedResult(g.result) + ' · ' + when;
      li.addEventListener('click', () => send({ type: 'replay', id: g.id }));
      ul.appendChild(li);
    });
  }

  /* ---------------------------------------------------------------- actions */
  board.onPoint = (x, y) => {
    if (replay.active() || !state || state.over) return;
    if (seat !== 'black' && seat !== 'white') { onError({ code: 'not_seated' }); return; }
    if (seat !== (state.turn || state.to_move) || queue.length) { onError({ code: 'not_your_turn' }); return; }
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
      if (replay.active()) replay.close();
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
  $('variant').addEventListener('change', () => { setupFields(); render(); });
  $('size').addEventListener('input', () => { setupFields(); render(); });
  $('mode').addEventListener('change', setupFields);
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
    showMessage({ key: 'copied' });
  });
  $('opt-numbers').checked = numbers;
  $('opt-numbers').addEventListener('change', () => {
    numbers = $('opt-numbers').checked;
    localStorage.setItem('renversi.numbers', numbers ? 'on' : 'off');
    render();
  });
  $('opt-sound').checked = window.RvSound.on;
  $('opt-sound').addEventListener('change', () => window.RvSound.set($('opt-sound').checked));
  window.addEventListener('hashchange', () => {
    const m = location.hash.match(/^#room=([0-9a-z]+)$/);
    if (m && m[1] !== roomId) {
      roomId = m[1]; state = null; seat = null; queue.length = 0;
      if (replay.active()) replay.close();
      send({ type: 'join', room: roomId, token: localStorage.getItem('renversi.token.' + roomId) || '' });
    }
  });

  /* For the browser tests: where point (x, y) is on the page, and what was drawn when. */
  window.renversi = {
    pixel: (x, y) => { const r = $('board').getBoundingClientRect(); const p = board.centre(x, y); return [r.left + p[0], r.top + p[1]]; },
    get state() { return state; }, get seat() { return seat; }, get hint() { return hint; }, get joins() { return joins; },
    get frames() { return frames; }, get view() { return board.view; }, get board() { return board; },
    get sounds() { return window.RvSound.played; }, get pending() { return queue.length; },
    receive: (m) => onMessage(m)
  };

  const m = location.hash.match(/^#room=([0-9a-z]+)$/);
  if (m) roomId = m[1];
  setupFields();
  applyLang();
  connect();
})();
