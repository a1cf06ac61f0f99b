/* The opening rules on the page (swap2, Soosõrv-8; docs/protocol-web.md "Opening rules"):
   what the opening waits for, the buttons for choices and declarations, the fifth moves
   being offered. No rule is checked here: the server says what is allowed. */
'use strict';
(function () {
  /* opts: send(obj), t(key, args), panel, prompt, actions, redraw() */
  function Opening(opts) {
    this.o = opts;
    this.offers = [];      /* points picked for an offer, before it is sent */
    this.key = '';
  }

  function pointName(s, x, y) { return s.cols[x] + s.rows[y]; }

  Opening.prototype.active = function (s) {
    return !!(s && s.opening && s.opening.step !== 'play' && !s.over);
  };

  Opening.prototype.myTurn = function (s, seat) { return this.active(s) && s.turn === seat; };

  Opening.prototype.button = function (label, onClick, id) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (id) b.id = id;
    b.addEventListener('click', onClick);
    this.o.actions.appendChild(b);
    return b;
  };

  /* Redraws the panel for state s (seat: mine). While busy (earlier moves of the state are
     still being shown one by one) it offers no action: the buttons belong to the last state. */
  Opening.prototype.update = function (s, seat, busy) {
    const o = this.o, t = o.t, panel = o.panel;
    if (!this.active(s)) { panel.hidden = true; this.offers = []; return; }
    const op = s.opening, mine = s.turn === seat && !busy, self = this;
    /* A new step forgets the points picked for an older one. */
    const key = s.room + ':' + s.moves.length + ':' + op.step;
    if (key !== this.key) { this.offers = []; this.key = key; }
    panel.hidden = false;
    panel.dataset.step = op.step;
    const stone = s.moves.length % 2 === 0 ? 'black' : 'white';
    const args = { color: t(op.actor), stone: t(stone), n: op.declared, k: this.offers.length,
      rule: t('op_' + op.rule) };
    o.prompt.textContent = t('op_rule', args) + ' ' + t((mine ? 'op_you_' : 'op_wait_') + op.step, args);
    o.actions.textContent = '';
    if (!mine) return;
    if (op.step === 'choose') {
      op.choices.forEach(function (c) {
        self.button(t('choice_' + c), function () { o.send({ type: 'opening', choice: c }); }, 'op-choice-' + c);
      });
    } else if (op.step === 'declare') {
      const sel = document.createElement('select');
      sel.id = 'op-declare-n';
      for (let i = 1; i <= 8; i++) {
        const opt = document.createElement('option');
        opt.value = String(i); opt.textContent = String(i);
        sel.appendChild(opt);
      }
      sel.value = '2';
      o.actions.appendChild(sel);
      this.button(t('declareBtn'), function () {
        o.send({ type: 'opening', declare: parseInt(sel.value, 10) });
      }, 'op-declare');
    } else if (op.step === 'offer') {
      const send = this.button(t('offerBtn', args), function () {
        o.send({ type: 'opening', offer: self.offers.map(function (p) { return pointName(s, p[0], p[1]); }) });
      }, 'op-offer');
      send.disabled = this.offers.length !== op.declared;
      this.button(t('clearBtn'), function () { self.offers = []; self.update(s, seat); o.redraw(); }, 'op-clear');
    }
  };

  /* A click on the board during the opening: picks or drops an offer. True when used. */
  Opening.prototype.onPoint = function (s, seat, x, y) {
    if (!this.myTurn(s, seat) || s.opening.step !== 'offer') return false;
    if (s.board[y * s.size + x] !== '.') return false;
    const i = this.offers.findIndex(function (p) { return p[0] === x && p[1] === y; });
    if (i >= 0) this.offers.splice(i, 1);
    else if (this.offers.length < s.opening.declared) this.offers.push([x, y]);
    this.update(s, seat);
    this.o.redraw();
    return true;
  };

  /* Numbered marks for the board: the offers picked, or those to choose from. */
  Opening.prototype.marks = function (s) {
    if (!this.active(s)) return [];
    if (s.opening.step === 'offer') return this.offers.map(function (p, i) { return [p[0], p[1], String(i + 1)]; });
    if (s.opening.step === 'select') return s.opening.offers.map(function (p, i) { return [p[0], p[1], String(i + 1)]; });
    return [];
  };

  window.RvOpening = Opening;
})();
