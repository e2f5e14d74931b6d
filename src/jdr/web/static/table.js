// La table en direct : le canal (WebSocket, authentifié par le cookie) pousse chaque nouvelle
// entrée prête à afficher (son HTML, rendu une fois par le serveur) ; la page l'ajoute au journal
// sans rien redemander, et les panneaux (combat, avis) se mettent à jour. Aucun jeton ici : le cookie
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

  // an entry that undoes or reveals another marks it, in every open page
  function follow(li) {
    var undone = li.dataset.undoes && document.getElementById('e' + li.dataset.undoes);
    if (undone && !undone.classList.contains('annulee')) {
      undone.classList.add('annulee');
      var mark = document.createElement('span');
      mark.className = 'badge';
      mark.textContent = 'annulé (n° ' + li.dataset.seq + ')';
      var head = undone.querySelector('.tete');
      if (head) { head.insertBefore(mark, head.querySelector('.heure')); }
    }
    var shown = li.dataset.reveals && document.getElementById('e' + li.dataset.reveals);
    if (shown) { shown.querySelectorAll('button.reveler').forEach(function (b) { b.remove(); }); }
  }

  function parse(html) {
    var tpl = document.createElement('template');
    tpl.innerHTML = html;
    return tpl.content;
  }

  function append(html) {  // entries as the journal fragment renders them; true if any was new
    var added = false;
    parse(html).querySelectorAll('li[data-seq]').forEach(function (li) {
      var seq = Number(li.dataset.seq);
      if (seq > last) {
        journal.appendChild(li); last = seq; added = true;
        if (window.htmx) { window.htmx.process(li); }
        follow(li);
      }
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

  // older entries, on demand: the page shows only the latest ones at first
  journal.addEventListener('click', function (ev) {
    var button = ev.target.closest('button[data-avant]');
    if (!button) { return; }
    var holder = button.closest('li');
    button.disabled = true;
    fetch('/tables/' + id + '/f/journal?avant=' + button.dataset.avant, {credentials: 'same-origin'})
      .then(function (r) { return r.ok ? r.text() : ''; })
      .then(function (html) {
        var part = parse(html);
        var next = part.querySelector('li.plus-anciens');
        var first = holder.nextSibling;
        part.querySelectorAll('li[data-seq]').forEach(function (li) {
          if (!document.getElementById(li.id)) {
            journal.insertBefore(li, first);
            if (window.htmx) { window.htmx.process(li); }
          }
        });
        if (next && next.querySelector('button')) { journal.replaceChild(next, holder); }
        else { holder.remove(); }
      });
  });

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

  // « c'est ton tour » et « choix en attente » : badge dans le titre, bandeau (dans #avis), son et
  // notification au choix
  var title = document.title, wasMine = false, wasWaiting = 0;
  var prefs = {son: localStorage.getItem('jdr-son') === '1'};

  function beep() {
    try {
      var ctx = new (window.AudioContext || window.webkitAudioContext)();
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 660; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.25);
    } catch (e) { /* pas de son possible ici */ }
  }

  function notices() {
    var avis = document.getElementById('avis');
    if (!avis) { return; }
    var mine = !!avis.querySelector('[data-mon-tour]');
    var asked = avis.querySelectorAll('[data-demande]').length;
    var waiting = avis.querySelectorAll('[data-attente]').length;
    var count = (mine ? 1 : 0) + asked + waiting;
    document.title = (count ? '(' + count + ') ' : '') + title;
    if (waiting > wasWaiting) {
      if (prefs.son) { beep(); }
      if (window.Notification && Notification.permission === 'granted' && document.hidden) {
        new Notification('Choix en attente', {body: avis.querySelector('[data-attente] p').textContent.trim()});
      }
    }
    wasWaiting = waiting;
    if (mine && !wasMine) {
      if (prefs.son) { beep(); }
      if (window.Notification && Notification.permission === 'granted' && document.hidden) {
        new Notification('C\u2019est ton tour', {body: avis.querySelector('[data-mon-tour]').textContent.trim()});
      }
    }
    wasMine = mine;
    var son = document.getElementById('avis-son');
    if (son) {
      son.checked = prefs.son;
      son.onchange = function () { prefs.son = son.checked; localStorage.setItem('jdr-son', son.checked ? '1' : '0'); };
    }
    var notif = document.getElementById('avis-notif');
    if (notif) {
      notif.hidden = !window.Notification || Notification.permission !== 'default';
      notif.onclick = function () { Notification.requestPermission().then(notices); };
    }
  }

  document.body.addEventListener('htmx:afterSettle', function (ev) {
    if (ev.target && ev.target.id === 'avis') { notices(); }
  });
  document.body.addEventListener('jdr-journal', refresh);
  journal.scrollTop = journal.scrollHeight;
  notices();
  connect();
})();
