/* The page's one dialog: a refused forbidden move, and the end of a game (who won, why, the
   score). It stays worded in the current language: relabel() rewrites an open dialog. */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  let current = null; /* { kind: 'end' | 'forbidden', words: () => { title, text } } */

  function fill() {
    const w = current.words();
    $('dialog-title').textContent = w.title;
    $('dialog-text').textContent = w.text;
    $('dialog').dataset.kind = current.kind;
  }

  /* Opens the dialog; words() gives { title, text } in the current language. */
  function show(kind, words) {
    current = { kind: kind, words: words };
    fill();
    if (!$('dialog').open) $('dialog').showModal();
  }

  function relabel() { if (current && $('dialog').open) fill(); }
  function close() { if ($('dialog').open) $('dialog').close(); }

  $('dialog').addEventListener('close', () => { current = null; });

  window.RvDialog = { show: show, relabel: relabel, close: close, get kind() { return current && current.kind; } };
})();
