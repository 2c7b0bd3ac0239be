'use strict';
// What the player's and the referee's pages share (loaded before either's script): the
// page's own API (its path), `$`, the state poll, the results and the board picture.
const ArbiterPage = (function () {
  const base = location.pathname.replace(/\/+$/, '') + '/';
  const $ = (id) => document.getElementById(id);
  let boardShown = null;

  async function api(path, opts) {
    const r = await fetch(base + path, Object.assign({ cache: 'no-store' }, opts || {}));
    let body = null;
    if (r.status !== 204) {
      try { body = await r.json(); } catch (e) { body = null; }
    }
    return { status: r.status, body: body };
  }

  // The last judged phase's sheet, and the board picture when it has changed.
  function showResultsAndBoard(s) {
    if (s.last) {
      $('results').hidden = false;
      $('results-title').textContent = 'Results: ' + s.last.phase;
      $('sheet').textContent = s.last.sheet;
    } else {
      $('results').hidden = true;
    }
    if (s.board !== boardShown) {
      boardShown = s.board;
      $('board').src = base + 'board.svg?v=' + s.board;
    }
  }

  // A poll of the state newer than `version()`: `show` gets it (204: nothing changed),
  // `refused` the error of a 403.
  function poller(version, show, refused) {
    return async function poll() {
      try {
        const r = await api('state?v=' + version());
        if (r.status === 200 && r.body) show(r.body);
        else if (r.status === 403) refused(r.body && r.body.error);
      } catch (e) { /* the next poll tries again */ }
    };
  }

  // Poll now and every 2 s.
  function start(poll) {
    poll();
    setInterval(poll, 2000);
  }

  return { base: base, $: $, api: api, showResultsAndBoard: showResultsAndBoard, poller: poller, start: start };
})();
