/* The room's chat and the game's other events (docs/protocol-web.md: chat, event, events):
   lines are shown as text, never as markup; in a replay, the lines up to the shown move. */
'use strict';
(function () {
  /* opts: send(obj), t(key, args), log (ol), form, input, panel */
  function Chat(opts) {
    this.o = opts;
    this.live = [];
    const self = this;
    opts.form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      const text = opts.input.value.trim();
      if (!text) return;
      opts.send({ type: 'chat', text: text });
      opts.input.value = '';
    });
  }

  /* The current game's events (after a join, or a new game in the room). */
  Chat.prototype.reset = function (events) { this.live = (events || []).slice(); };
  Chat.prototype.add = function (e) { this.live.push(e); };

  /* One event in words. */
  Chat.prototype.line = function (e, cols, rows) {
    const t = this.o.t, who = t('who_' + e.who);
    switch (e.kind) {
      case 'chat': return who + ': ' + e.text;
      case 'hint': return t('ev_hint', { color: who });
      case 'choose': return t('ev_choose', { color: who, choice: t('choice_' + e.text) });
      case 'declare': return t('ev_declare', { color: who, n: e.text });
      case 'offer': return t('ev_offer', { color: who, points: e.text });
      default: return who + ': ' + e.text;
    }
  };

  /* Shows the live events, or a replay's (events, up to ply). */
  Chat.prototype.render = function (events, uptoPly) {
    const log = this.o.log;
    const list = events || this.live;
    log.textContent = '';
    for (const e of list) {
      if (uptoPly !== undefined && e.ply > uptoPly) continue;
      const li = document.createElement('li');
      li.className = 'ev-' + e.kind;
      li.textContent = this.line(e);
      li.title = new Date(e.time * 1000).toLocaleTimeString();
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
    this.o.input.placeholder = this.o.t('chatPlaceholder');
  };

  /* Only people in a room talk; a replay has no input. */
  Chat.prototype.enable = function (inRoom, inReplay) {
    this.o.form.hidden = !inRoom || inReplay;
  };

  window.RvChat = Chat;
})();
