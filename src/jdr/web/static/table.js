// La table en direct : le canal (WebSocket, authentifié par le cookie) pousse chaque nouvelle
// entrée prête à afficher (son HTML, rendu une fois par le serveur) ; la page l'ajoute au journal
// sans rien redemander, et les panneaux (combat) se mettent à jour. Aucun jeton ici : le cookie
// est HttpOnly.
(function () {
  'use strict';
  var id = document.body.dataset.table;
  var journal = document.getElementById('journal');
  if (!id || !journal) { return; }
  var last = Number(journal.dataset.last || 0);
  var busy = false, again = false, changed = false, retry = 500;
  var badge = document.getElementById('direct');

  function state(text, on) {
    if (badge) { badge.textContent = text; badge.classList.toggle('en-ligne', on); }
  }

  function append(html) {  // entries as the journal fragment renders them; true if any was new
    var tpl = document.createElement('template');
    tpl.innerHTML = html;
    var added = false;
    tpl.content.querySelectorAll('li[data-seq]').forEach(function (li) {
      var seq = Number(li.dataset.seq);
      if (seq > last) { journal.appendChild(li); last = seq; added = true; }
    });
    journal.dataset.last = String(last);
    if (added) { journal.scrollTop = journal.scrollHeight; }
    return added;
  }

  var pending = false;
  function changedSoon() {  // the panels follow, once per burst of entries
    if (pending) { return; }
    pending = true;
    setTimeout(function () {
      pending = false;
      document.body.dispatchEvent(new CustomEvent('jdr-change', {bubbles: true}));
    }, 0);
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch('/tables/' + id + '/f/journal?depuis=' + last, {credentials: 'same-origin'})
      .then(function (r) { return r.ok ? r.text() : ''; })
      .then(function (html) {
        if (append(html)) { changed = true; }
      })
      .finally(function () {
        busy = false;
        if (again) { again = false; refresh(); return; }
        if (changed) {  // once the journal is up to date: the panels follow
          changed = false;
          document.body.dispatchEvent(new CustomEvent('jdr-change', {bubbles: true}));
        }
      });
  }

  function connect() {
    var scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    var ws = new WebSocket(scheme + location.host + '/tables/' + id + '/direct?depuis=' + last);
    ws.onopen = function () { retry = 500; state('en direct', true); };
    ws.onmessage = function (ev) {
      var m = JSON.parse(ev.data);
      if (m.error) { state(m.error, false); return; }
      if (m.seq > last && typeof m.html === 'string') {
        if (append(m.html)) { changedSoon(); }
      } else if (m.seq > last) { refresh(); }
    };
    ws.onclose = function (ev) {
      if (ev.code === 4401 || ev.code === 4404) { state('accès fermé', false); return; }
      state('reconnexion…', false);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  document.body.addEventListener('jdr-journal', refresh);
  journal.scrollTop = journal.scrollHeight;
  connect();
})();
