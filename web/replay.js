/* Replay of a stored game: step through the positions the server sent (`boards`), with the
   move numbers, the last moves and, at the end, the winning row or losing point. Keys: ←/→
   one move, Home/End (or ↑/↓) the start and the end. */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const W = window.RvWords;

  /* opts: board (RvBoard), send(msg), numbers() (bool), done() (back to the game). */
  function Replay(opts) {
    this.o = opts;
    this.game = null;
    this.ply = 0;
    const self = this;
    $('rp-first').addEventListener('click', () => self.go(0));
    $('rp-prev').addEventListener('click', () => self.go(self.ply - 1));
    $('rp-next').addEventListener('click', () => self.go(self.ply + 1));
    $('rp-last').addEventListener('click', () => self.go(Infinity));
    $('rp-close').addEventListener('click', () => self.close());
    document.addEventListener('keydown', (ev) => {
      if (!self.game || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const tag = (ev.target && ev.target.tagName) || '';
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || $('dialog').open) return;
      const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity, ArrowUp: -Infinity, ArrowDown: Infinity }[ev.key];
      if (step === undefined) return;
      ev.preventDefault();
      self.go(Math.abs(step) === 1 ? self.ply + step : step);
    });
  }

  Replay.prototype.active = function () { return !!this.game; };

  /* The board after each move, from the start and what each move changed (the server's
     `steps`: the mover's stone, then two letters per point that took it). */
  function boards(m) {
    if (m.boards) return m.boards;
    const out = [m.start];
    const b = m.start.split('');
    for (const st of m.steps) {
      for (let k = 1; k + 1 < st.length; k += 2)
        b[(st.charCodeAt(k + 1) - 97) * m.size + st.charCodeAt(k) - 97] = st[0];
      out.push(b.join(''));
    }
    return out;
  }

  Replay.prototype.open = function (game) {
    game.boards = boards(game);
    this.game = game;
    this.ply = game.boards.length - 1;
    this.render();
  };

  Replay.prototype.close = function () {
    this.game = null;
    this.o.done();
  };

  Replay.prototype.go = function (ply) {
    if (!this.game) return;
    const n = this.game.boards.length - 1;
    this.ply = Math.max(0, Math.min(n, ply === Infinity ? n : ply === -Infinity ? 0 : ply));
    this.render();
  };

  Replay.prototype.render = function () {
    const g = this.game, i = this.ply, n = g.boards.length - 1;
    const atEnd = i === n;
    const end = g.end || null;
    this.o.board.draw({ size: g.size, reversi: g.variant === 'reversi', board: g.boards[i], cols: g.cols, rows: g.rows,
      points: (g.points || []).slice(0, i), numbers: this.o.numbers(), legal: [], forbidden: [],
      line: atEnd && end && end.line ? end.line : null, lossPoint: atEnd && end && end.xy ? end.xy : null });
    $('rp-pos').textContent = W.t('replayOf', { id: g.id }) + ' · ' + W.t('ply', { i: i, n: n });
    const res = end ? W.resultLine(end) : g.result ? W.storedResult(g.result) : '';
    $('status').textContent = res ? W.t('over', { result: res }) : '';
    const ol = $('move-list');
    ol.textContent = '';
    const self = this;
    g.moves.forEach((mv, k) => {
      const li = document.createElement('li');
      li.textContent = W.move(mv);
      if (k === i - 1) li.className = 'current';
      li.addEventListener('click', () => self.go(k + 1));
      ol.appendChild(li);
    });
    const cur = ol.querySelector('li.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
    const ex = $('rp-export');
    ex.textContent = W.t('exportAs') + ' ';
    const formats = g.variant === 'reversi' ? ['transcript', 'ggf', 'moves'] : ['psq', 'moves'];
    formats.forEach((f) => {
      const b = document.createElement('button');
      b.type = 'button'; b.textContent = W.t('fmt_' + f); b.dataset.format = f;
      b.addEventListener('click', () => self.o.send({ type: 'export', id: g.id, format: f }));
      ex.appendChild(b);
    });
  };

  window.RvReplay = Replay;
})();
