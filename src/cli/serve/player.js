'use strict';
// A player's page: the state every 2 s (204 when nothing changed), the orders checked
// by the server as they are typed, submitted as JSON.
(function () {
  const page = ArbiterPage;
  const $ = page.$;
  const api = page.api;
  let version = 0;
  let phase = null;
  let typed = false;
  let checkTimer = null;
  let checkSeq = 0;

  function notice(text) {
    const n = $('notice');
    n.textContent = text || '';
    n.hidden = !text;
  }

  function showDiags(res) {
    const d = $('diags');
    if (!res) { d.textContent = ''; d.className = 'diags'; return; }
    if (res.rendered) {
      d.textContent = res.rendered;
      d.className = 'diags ' + (res.errors > 0 ? 'bad' : 'warn');
    } else if ($('orders').value.trim() === '') {
      d.textContent = '';
      d.className = 'diags';
    } else {
      d.textContent = 'No problems found.';
      d.className = 'diags ok';
    }
  }

  async function check() {
    const seq = ++checkSeq;
    const text = $('orders').value;
    try {
      const r = await api('check', { method: 'POST', body: text, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      if (seq !== checkSeq) return;
      if (r.status === 200) showDiags(r.body);
      else if (r.body && r.body.error) { $('diags').textContent = r.body.error; $('diags').className = 'diags bad'; }
    } catch (e) { /* offline for a moment: the next keystroke checks again */ }
  }

  function scheduleCheck() {
    typed = true;
    $('saved').textContent = 'Not submitted: press Submit orders.';
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 250);
  }

  async function submit() {
    const btn = $('submit');
    btn.disabled = true;
    try {
      const r = await api('orders', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ phase: phase, text: $('orders').value }),
      });
      if (r.status === 200) {
        typed = false;
        notice('');
        showDiags(r.body);
        $('saved').textContent = $('orders').value.trim() === ''
          ? 'Withdrawn: the referee has no orders from you.'
          : 'Submitted ✓ You may change them until the referee judges.';
      } else if (r.status === 409) {
        notice(r.body && r.body.error);
        typed = false;
        version = 0;
        await poll();
      } else if (r.body) {
        showDiags(r.body);
        $('saved').textContent = r.body.error || ('Refused (' + r.status + ')');
      }
    } catch (e) {
      $('saved').textContent = 'Not sent: no connection to the referee’s laptop. Try again.';
    } finally {
      btn.disabled = false;
    }
  }

  let legalShown = null;

  function legal(groups) {
    // Rebuilt only when the choices change (a player may be picking).
    const key = JSON.stringify(groups);
    if (key === legalShown) return;
    legalShown = key;
    const box = $('legal');
    box.textContent = '';
    groups.forEach(function (g) {
      const row = document.createElement('div');
      row.className = 'legal-unit';
      const label = document.createElement('label');
      label.textContent = g.unit;
      const sel = document.createElement('select');
      sel.setAttribute('aria-label', 'orders for ' + g.unit);
      g.orders.forEach(function (o) {
        const opt = document.createElement('option');
        opt.textContent = o;
        sel.appendChild(opt);
      });
      const add = document.createElement('button');
      add.type = 'button';
      add.className = 'quiet';
      add.textContent = 'Add';
      add.addEventListener('click', function () {
        const ta = $('orders');
        const v = ta.value;
        ta.value = v + (v === '' || v.endsWith('\n') ? '' : '\n') + sel.value + '\n';
        scheduleCheck();
      });
      row.appendChild(label);
      row.appendChild(sel);
      row.appendChild(add);
      box.appendChild(row);
    });
    $('pick').hidden = groups.length === 0;
  }

  function show(s) {
    version = s.version;
    document.title = s.power + ': ' + s.phase;
    $('title').textContent = s.power + ' — ' + s.game;
    $('phase').textContent = s.phase;
    $('needs').textContent = s.over || s.needs;
    const ul = $('units');
    ul.textContent = '';
    s.units.forEach(function (u) {
      const li = document.createElement('li');
      li.textContent = u;
      ul.appendChild(li);
    });
    const newPhase = s.phase !== phase;
    phase = s.phase;
    if (newPhase || !typed) {
      $('orders').value = s.submitted || '';
      typed = false;
      $('saved').textContent = s.submitted ? 'Submitted ✓ You may change them until the referee judges.' : 'Not submitted yet.';
      check();
    }
    $('order-box').hidden = !!s.over;
    legal(s.legal || []);
    page.showResultsAndBoard(s);
  }

  const poll = page.poller(function () { return version; }, show, notice);

  $('orders').addEventListener('input', scheduleCheck);
  $('submit').addEventListener('click', submit);
  page.start(poll);
})();
