/* The canvas board: drawing a position and turning a click into a point. No rules here:
   the server says what is legal, forbidden and where the labels go. */
'use strict';
(function () {
  function Board(canvas) {
    this.canvas = canvas;
    this.view = null;
    this.onPoint = null;
    const self = this;
    canvas.addEventListener('click', function (ev) {
      const p = self.pointAt(ev.clientX, ev.clientY);
      if (p && self.onPoint) self.onPoint(p[0], p[1]);
    });
    window.addEventListener('resize', function () { self.draw(self.view); });
  }

  /* Geometry in CSS pixels: m = margin, c = cell, n = points or squares per side. */
  Board.prototype.geometry = function () {
    const v = this.view;
    const w = this.canvas.clientWidth || 600;
    if (!v) return { w: w, n: 15, c: w / 16, m: w / 16, reversi: false };
    const n = v.size;
    if (v.reversi) { const c = w / (n + 1.2); return { w: w, n: n, c: c, m: 0.6 * c, reversi: true }; }
    const c = w / (n + 1);
    return { w: w, n: n, c: c, m: c, reversi: false };
  };

  /* Centre of point (x, y) in CSS pixels relative to the canvas (also used by the tests). */
  Board.prototype.centre = function (x, y) {
    const g = this.geometry();
    const off = g.reversi ? 0.5 : 0;
    return [g.m + (x + off) * g.c, g.m + (y + off) * g.c];
  };

  Board.prototype.pointAt = function (clientX, clientY) {
    if (!this.view) return null;
    const r = this.canvas.getBoundingClientRect();
    const g = this.geometry();
    const fx = (clientX - r.left - g.m) / g.c, fy = (clientY - r.top - g.m) / g.c;
    const x = g.reversi ? Math.floor(fx) : Math.round(fx);
    const y = g.reversi ? Math.floor(fy) : Math.round(fy);
    if (x < 0 || y < 0 || x >= g.n || y >= g.n) return null;
    return [x, y];
  };

  Board.prototype.draw = function (view) {
    this.view = view;
    const cv = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = cv.clientWidth || 600;
    if (cv.width !== Math.round(w * dpr)) { cv.width = Math.round(w * dpr); cv.height = cv.width; }
    const ctx = cv.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const g = this.geometry();
    ctx.clearRect(0, 0, w, w);
    ctx.fillStyle = g.reversi ? '#1d6b3a' : '#dcb36b';
    ctx.fillRect(0, 0, w, w);
    if (!view) return;
    const n = g.n, c = g.c, m = g.m;
    ctx.strokeStyle = g.reversi ? '#0b3d1f' : '#5a3d1a';
    ctx.lineWidth = 1;
    ctx.beginPath();
    if (g.reversi) {
      for (let i = 0; i <= n; i++) {
        ctx.moveTo(m + i * c, m); ctx.lineTo(m + i * c, m + n * c);
        ctx.moveTo(m, m + i * c); ctx.lineTo(m + n * c, m + i * c);
      }
    } else {
      for (let i = 0; i < n; i++) {
        ctx.moveTo(m + i * c, m); ctx.lineTo(m + i * c, m + (n - 1) * c);
        ctx.moveTo(m, m + i * c); ctx.lineTo(m + (n - 1) * c, m + i * c);
      }
    }
    ctx.stroke();
    if (!g.reversi && n >= 9 && n % 2 === 1) {
      const k = n >= 13 ? 3 : 2, stars = [[k, k], [n - 1 - k, k], [k, n - 1 - k], [n - 1 - k, n - 1 - k], [(n - 1) / 2, (n - 1) / 2]];
      ctx.fillStyle = '#5a3d1a';
      for (const s of stars) { const p = this.centre(s[0], s[1]); ctx.beginPath(); ctx.arc(p[0], p[1], Math.max(2, c * 0.1), 0, 7); ctx.fill(); }
    }
    ctx.fillStyle = g.reversi ? '#e8f5e9' : '#3b2a1a';
    ctx.font = Math.max(9, Math.floor(c * 0.38)) + 'px sans-serif';
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    for (let i = 0; i < n; i++) {
      const p = this.centre(i, i);
      ctx.fillText(view.cols[i], p[0], m * 0.45);
      ctx.fillText(view.rows[i], m * 0.45, p[1]);
    }
    const rad = c * (g.reversi ? 0.42 : 0.45);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const ch = view.board[y * n + x];
      if (ch === '.') continue;
      const p = this.centre(x, y);
      ctx.beginPath(); ctx.arc(p[0], p[1], rad, 0, 2 * Math.PI);
      const grad = ctx.createRadialGradient(p[0] - rad / 3, p[1] - rad / 3, rad / 8, p[0], p[1], rad);
      if (ch === 'X') { grad.addColorStop(0, '#666'); grad.addColorStop(1, '#000'); }
      else { grad.addColorStop(0, '#fff'); grad.addColorStop(1, '#cfcfcf'); }
      ctx.fillStyle = grad; ctx.fill();
      ctx.strokeStyle = '#0006'; ctx.stroke();
    }
    for (const pt of view.legal || []) {
      const p = this.centre(pt[0], pt[1]);
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.12, 0, 2 * Math.PI);
      ctx.fillStyle = '#0007'; ctx.fill();
    }
    ctx.strokeStyle = '#d00000'; ctx.lineWidth = Math.max(1.5, c * 0.08);
    for (const pt of view.forbidden || []) {
      const p = this.centre(pt[0], pt[1]), d = c * 0.2;
      ctx.beginPath();
      ctx.moveTo(p[0] - d, p[1] - d); ctx.lineTo(p[0] + d, p[1] + d);
      ctx.moveTo(p[0] + d, p[1] - d); ctx.lineTo(p[0] - d, p[1] + d);
      ctx.stroke();
    }
    if (view.hint) {
      const p = this.centre(view.hint[0], view.hint[1]);
      ctx.strokeStyle = '#1565c0'; ctx.lineWidth = Math.max(2, c * 0.09);
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.38, 0, 2 * Math.PI); ctx.stroke();
    }
    /* Numbered marks: the fifth moves offered in an opening. */
    for (const mk of view.marks || []) {
      const p = this.centre(mk[0], mk[1]);
      ctx.strokeStyle = '#6a1b9a'; ctx.lineWidth = Math.max(2, c * 0.08);
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.36, 0, 2 * Math.PI); ctx.stroke();
      ctx.fillStyle = '#6a1b9a'; ctx.font = 'bold ' + Math.max(9, Math.floor(c * 0.42)) + 'px sans-serif';
      ctx.fillText(mk[2], p[0], p[1]);
    }
    if (view.last) {
      const p = this.centre(view.last[0], view.last[1]);
      ctx.fillStyle = '#e00000';
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.13, 0, 2 * Math.PI); ctx.fill();
    }
  };

  window.RvBoard = Board;
})();
