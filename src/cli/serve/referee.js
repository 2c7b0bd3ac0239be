'use strict';
// The referee's page: the state every 2 s (204 when nothing changed); Judge, Undo,
// Explain, new links and QR codes.
(function () {
  const page = ArbiterPage;
  const base = page.base;
  const $ = page.$;
  const api = page.api;
  let version = 0;
  let phase = null;
  const openLinks = {};

  function post(path, data) {
    return api(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) });
  }

  function message(text, pre) {
    $('judge-msg').textContent = text || '';
    $('judge-msg').hidden = !text;
    $('judge-out').textContent = pre || '';
    $('judge-out').hidden = !pre;
    $('judge-out').className = 'diags ' + (pre ? 'bad' : '');
  }

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    if (cls) td.className = cls;
    if (text !== undefined) td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function powers(list) {
    const body = $('powers').tBodies[0];
    body.textContent = '';
    list.forEach(function (p) {
      const tr = document.createElement('tr');
      tr.id = 'power-' + p.id;
      cell(tr, p.name);
      cell(tr, p.in ? 'orders in ✓' : '—', p.in ? 'in' : 'out');
      cell(tr, p.needs, 'hint');
      const td = cell(tr);
      const show = document.createElement('button');
      show.type = 'button';
      show.className = 'quiet';
      show.textContent = openLinks[p.id] ? 'Hide link' : 'Link';
      show.addEventListener('click', function () { openLinks[p.id] = !openLinks[p.id]; version = 0; poll(); });
      td.appendChild(show);
      if (openLinks[p.id]) {
        const a = document.createElement('a');
        a.href = p.link;
        a.textContent = p.link;
        a.className = 'link';
        a.rel = 'noreferrer';
        const div = document.createElement('div');
        div.appendChild(a);
        td.appendChild(div);
        const img = document.createElement('img');
        img.className = 'qr';
        img.alt = 'QR code of ' + p.name + '’s link';
        img.src = base + 'qr/' + p.id + '.svg?v=' + version;
        td.appendChild(img);
        const renew = document.createElement('button');
        renew.type = 'button';
        renew.className = 'quiet';
        renew.textContent = 'New link';
        renew.addEventListener('click', async function () {
          if (!confirm('Give ' + p.name + ' a new link? The old one stops working.')) return;
          const r = await post('link', { power: p.id });
          message(r.status === 200 ? 'New link for ' + p.name + '.' : (r.body && r.body.error));
          version = 0;
          poll();
        });
        td.appendChild(renew);
      }
      body.appendChild(tr);
    });
  }

  function history(list) {
    const box = $('history');
    box.textContent = '';
    if (list.length === 0) { box.textContent = 'No phase has been judged yet.'; return; }
    list.slice().reverse().forEach(function (h) {
      const d = document.createElement('details');
      const s = document.createElement('summary');
      s.textContent = h.phase;
      const pre = document.createElement('pre');
      pre.className = 'sheet';
      pre.textContent = h.sheet;
      d.appendChild(s);
      d.appendChild(pre);
      box.appendChild(d);
    });
  }

  function show(s) {
    version = s.version;
    phase = s.phase;
    document.title = 'Referee: ' + s.phase;
    $('title').textContent = 'Referee — ' + s.game;
    $('phase').textContent = s.over || s.phase;
    powers(s.powers);
    $('status-text').textContent = s.status;
    $('centres').textContent = s.centres;
    history(s.history);
    $('judge').disabled = !!s.over;
    page.showResultsAndBoard(s);
  }

  const poll = page.poller(function () { return version; }, show, message);

  async function judge(accept) {
    $('judge').disabled = true;
    $('accept-row').hidden = true;
    try {
      const r = await post('judge', { phase: phase, accept: accept });
      if (r.status === 200) {
        const warn = (r.body.diagnostics || []).map(function (d) { return d.rendered; }).join('\n');
        message('Judged ' + r.body.judged + '. Now: ' + r.body.phase + '.', warn);
        if (warn) $('judge-out').className = 'diags warn';
      } else if (r.status === 422) {
        const text = (r.body.diagnostics || []).map(function (d) { return d.rendered; }).join('\n');
        message(r.body.error, text);
        $('accept-row').hidden = false;
      } else {
        message((r.body && r.body.error) || ('Refused (' + r.status + ')'));
      }
    } catch (e) {
      message('No answer from the server.');
    } finally {
      $('judge').disabled = false;
      version = 0;
      poll();
    }
  }

  $('judge').addEventListener('click', function () { judge(false); });
  $('accept').addEventListener('click', function () {
    if (confirm('Judge with these errors? Orders that cannot be read are left out.')) judge(true);
  });
  $('undo').addEventListener('click', async function () {
    if (!confirm('Undo the last judged phase? Its results are taken back.')) return;
    const r = await post('undo', { phase: phase });
    message(r.status === 200 ? 'Undid ' + r.body.undone + '. Back at ' + r.body.phase + '.' : (r.body && r.body.error));
    version = 0;
    poll();
  });
  $('explain').addEventListener('click', async function () {
    const r = await post('explain', { province: $('prov').value, phase: $('exphase').value || null });
    const out = $('explain-out');
    out.hidden = false;
    out.textContent = r.status === 200 ? r.body.text : ((r.body && r.body.error) || ('Refused (' + r.status + ')'));
  });
  $('print').href = base + 'print';
  page.start(poll);
})();
