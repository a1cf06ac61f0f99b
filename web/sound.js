/* A short click for each move, made with Web Audio (no sound files). Off until the player
   turns it on; the choice is remembered. */
'use strict';
(function () {
  let on = localStorage.getItem('renversi.sound') === 'on';
  let ctx = null;
  let played = 0;

  function play(black) {
    if (!on) return;
    played++;
    try {
      if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
      if (ctx.state === 'suspended') ctx.resume();
      const t0 = ctx.currentTime;
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = 'triangle';
      osc.frequency.setValueAtTime(black ? 520 : 660, t0);
      osc.frequency.exponentialRampToValueAtTime(black ? 260 : 330, t0 + 0.08);
      gain.gain.setValueAtTime(0.25, t0);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + 0.12);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0);
      osc.stop(t0 + 0.13);
    } catch (e) { /* no audio here: stay quiet */ }
  }

  function set(v) { on = !!v; localStorage.setItem('renversi.sound', on ? 'on' : 'off'); }

  window.RvSound = { play: play, set: set, get on() { return on; }, get played() { return played; } };
})();
