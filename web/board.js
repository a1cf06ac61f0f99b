/* The canvas board: drawing a position and turning a click into a point. No rules here:
   the server says what is legal, forbidden, where each move went, how the game ended and
   where the labels go. The only thing worked out here is which discs changed colour between
   two positions the server sent (for the flip animation). */
'use strict';
(function () {
  const FLIP_MS = 360;

  function Board(canvas) {
    this.canvas = canvas;
    this.view = null;
    this.onPoint = null;
    this.anim = null;    /* { placed: [x, y] | null, flips: [[x, y, from]], t0 } */
    this.raf = 0;
    const self = this;
    canvas.addEventListener('click', function (ev) {
      const p = self.pointAt(ev.clientX, ev.clientY);
      if (p && self.onPoint) self.onPoint(p[0], p[1]);
    });
    window.addEventListener('resize', function () { self.draw(self.view); });
  }

  /* Geometry in CSS pixels: m = margin, c = cell, n = points or squares per side. The margin
     holds the labels and is wider than a stone's overhang, so an edge stone never covers one. */
  Board.prototype.geometry = function () {
    const v = this.view;
    const w = this.canvas.clientWidth || 600;
    if (!v) return { w: w, n: 15, c: w / 16.4, m: 1.2 * w / 16.4, reversi: false };
    const n = v.size;
    if (v.reversi) { const c = w / (n + 1.3); return { w: w, n: n, c: c, m: 0.65 * c, reversi: true }; }
    const c = w / (n + 1.4);
    return { w: w, n: n, c: c, m: 1.2 * c, reversi: false };
  };

  /* Centre of point (x, y) in CSS pixels relative to the canvas (also used by the tests). */
  Board.prototype.centre = function (x, y) {
    const g = this.geometry();
    const off = g.reversi ? 0.5 : 0;
    return [g.m + (x + off) * g.c, g.m + (y + off) * g.c];
  };

  Board.prototype.pointAt = function (clientX, clientY) {
    if (!this.view || this.view.preview) return null;
    const r = this.canvas.getBoundingClientRect();
    const g = this.geometry();
    const fx = (clientX - r.left - g.m) / g.c, fy = (clientY - r.top - g.m) / g.c;
    const x = g.reversi ? Math.floor(fx) : Math.round(fx);
    const y = g.reversi ? Math.floor(fy) : Math.round(fy);
    if (x < 0 || y < 0 || x >= g.n || y >= g.n) return null;
    return [x, y];
  };

  /* Starts the animation of one move from board `before` to the current view's board: the
     new stone grows in and every disc whose colour changed turns over. */
  Board.prototype.animate = function (before, placed) {
    const v = this.view;
    if (!v || !before || before.length !== v.board.length) return;
    const flips = [];
    for (let k = 0; k < before.length; k++) {
      const a = before[k], b = v.board[k];
      if (a !== '.' && b !== '.' && a !== b) flips.push([k % v.size, Math.floor(k / v.size), a]);
    }
    this.anim = { placed: placed, flips: flips, t0: performance.now() };
    this.lastFlips = flips.map((f) => [f[0], f[1]]);
    this.draw(v);
  };

  Board.prototype.busy = function () { return !!this.anim; };

  function stone(ctx, x, y, rad, ch, sx) {
    ctx.save();
    ctx.translate(x, y);
    ctx.scale(sx, 1);
    ctx.beginPath(); ctx.arc(0, 0, rad, 0, 2 * Math.PI);
    const grad = ctx.createRadialGradient(-rad / 3, -rad / 3, rad / 8, 0, 0, rad);
    if (ch === 'X') { grad.addColorStop(0, '#666'); grad.addColorStop(1, '#000'); }
    else { grad.addColorStop(0, '#fff'); grad.addColorStop(1, '#cfcfcf'); }
    ctx.fillStyle = grad; ctx.fill();
    ctx.lineWidth = 1; ctx.strokeStyle = '#0006'; ctx.stroke();
    ctx.restore();
  }

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
    /* Labels sit in the middle of the margin, on the side of the board away from the stones. */
    ctx.fillStyle = g.reversi ? '#e8f5e9' : '#3b2a1a';
    ctx.font = Math.max(9, Math.floor(c * 0.36)) + 'px sans-serif';
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    const lab = g.reversi ? m * 0.5 : m * 0.3;
    for (let i = 0; i < n && view.cols && view.cols.length; i++) {
      const p = this.centre(i, i);
      ctx.fillText(view.cols[i], p[0], lab);
      ctx.fillText(view.rows[i], lab, p[1]);
    }
    const now = performance.now();
    const anim = this.anim;
    const t = anim ? Math.min(1, (now - anim.t0) / FLIP_MS) : 1;
    const flipping = {};
    if (anim && t < 1) for (const f of anim.flips) flipping[f[1] * n + f[0]] = f[2];
    const rad = c * (g.reversi ? 0.42 : 0.45);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const ch = view.board[y * n + x];
      if (ch === '.') continue;
      const p = this.centre(x, y);
      const from = flipping[y * n + x];
      if (from) {
        /* Turning over: the old colour shrinks to an edge, the new one opens from it. */
        stone(ctx, p[0], p[1], rad, t < 0.5 ? from : ch, Math.max(0.06, Math.abs(Math.cos(Math.PI * t))));
      } else if (anim && t < 1 && anim.placed && anim.placed[0] === x && anim.placed[1] === y) {
        stone(ctx, p[0], p[1], rad * (0.6 + 0.4 * Math.min(1, t * 2)), ch, 1);
      } else {
        stone(ctx, p[0], p[1], rad, ch, 1);
      }
    }
    /* The winning row: a band through it and a ring on each of its stones. */
    if (view.line && view.line.length) {
      const a = this.centre(view.line[0][0], view.line[0][1]);
      const b = this.centre(view.line[view.line.length - 1][0], view.line[view.line.length - 1][1]);
      ctx.strokeStyle = '#ffb300cc'; ctx.lineCap = 'round'; ctx.lineWidth = Math.max(3, c * 0.16);
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
      ctx.lineCap = 'butt';
      ctx.strokeStyle = '#ff6f00'; ctx.lineWidth = Math.max(2, c * 0.09);
      for (const pt of view.line) {
        const p = this.centre(pt[0], pt[1]);
        ctx.beginPath(); ctx.arc(p[0], p[1], rad + ctx.lineWidth / 2, 0, 2 * Math.PI); ctx.stroke();
      }
    }
    for (const pt of view.legal || []) {
      const p = this.centre(pt[0], pt[1]);
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.12, 0, 2 * Math.PI);
      ctx.fillStyle = '#0007'; ctx.fill();
    }
    ctx.strokeStyle = '#d00000'; ctx.lineWidth = Math.max(1.5, c * 0.08);
    const crosses = (view.forbidden || []).slice();
    if (view.lossPoint) crosses.push(view.lossPoint);
    for (const pt of crosses) {
      const p = this.centre(pt[0], pt[1]), d = c * 0.2;
      ctx.beginPath();
      ctx.moveTo(p[0] - d, p[1] - d); ctx.lineTo(p[0] + d, p[1] + d);
      ctx.moveTo(p[0] + d, p[1] - d); ctx.lineTo(p[0] - d, p[1] + d);
      ctx.stroke();
    }
    if (view.lossPoint) {
      /* The forbidden point that lost the game: a red square around the cross. */
      const p = this.centre(view.lossPoint[0], view.lossPoint[1]), d = c * 0.42;
      ctx.lineWidth = Math.max(2, c * 0.09);
      ctx.strokeRect(p[0] - d, p[1] - d, 2 * d, 2 * d);
    }
    /* Numbered marks: the fifth moves offered in an opening. */
    for (const mk of view.marks || []) {
      const p = this.centre(mk[0], mk[1]);
      ctx.strokeStyle = '#6a1b9a'; ctx.lineWidth = Math.max(2, c * 0.08);
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.36, 0, 2 * Math.PI); ctx.stroke();
      ctx.fillStyle = '#6a1b9a'; ctx.font = 'bold ' + Math.max(9, Math.floor(c * 0.42)) + 'px sans-serif';
      ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      ctx.fillText(mk[2], p[0], p[1]);
    }
    if (view.hint) {
      const p = this.centre(view.hint[0], view.hint[1]);
      ctx.strokeStyle = '#1565c0'; ctx.lineWidth = Math.max(2, c * 0.09);
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.38, 0, 2 * Math.PI); ctx.stroke();
    }
    /* Move numbers, and the last move of each side: the very last in red, the one before it
       (the other side's) with a red ring. */
    const pts = view.points || [];
    let lastI = -1, prevI = -1;
    for (let i = pts.length - 1; i >= 0; i--) {
      if (!pts[i]) continue;
      if (lastI < 0) lastI = i;
      else if ((i % 2) !== (lastI % 2)) { prevI = i; break; }
    }
    if (view.numbers) {
      ctx.font = 'bold ' + Math.max(8, Math.floor(c * (g.reversi ? 0.34 : 0.38))) + 'px sans-serif';
      for (let i = 0; i < pts.length; i++) {
        if (!pts[i]) continue;
        const ch = view.board[pts[i][1] * n + pts[i][0]];
        if (ch === '.') continue;
        const p = this.centre(pts[i][0], pts[i][1]);
        ctx.fillStyle = i === lastI ? '#e00000' : ch === 'X' ? '#fff' : '#111';
        ctx.fillText(String(i + 1), p[0], p[1] + 0.5);
      }
    } else if (lastI >= 0) {
      const p = this.centre(pts[lastI][0], pts[lastI][1]);
      ctx.fillStyle = '#e00000';
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.13, 0, 2 * Math.PI); ctx.fill();
    } else if (view.last) {
      const p = this.centre(view.last[0], view.last[1]);
      ctx.fillStyle = '#e00000';
      ctx.beginPath(); ctx.arc(p[0], p[1], c * 0.13, 0, 2 * Math.PI); ctx.fill();
    }
    if (prevI >= 0) {
      const p = this.centre(pts[prevI][0], pts[prevI][1]);
      ctx.strokeStyle = '#e00000'; ctx.lineWidth = Math.max(1.5, c * 0.06);
      ctx.beginPath(); ctx.arc(p[0], p[1], c * (view.numbers ? 0.3 : 0.14), 0, 2 * Math.PI); ctx.stroke();
    }
    if (anim) {
      if (t >= 1) this.anim = null;
      else if (!this.raf) {
        const self = this;
        this.raf = requestAnimationFrame(function () { self.raf = 0; self.draw(self.view); });
      }
    }
  };

  window.RvBoard = Board;
})();
