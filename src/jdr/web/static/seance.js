// La contribution de ce navigateur aux dés de la séance ouverte : 32 octets tirés ici
// (crypto.getRandomValues), envoyés une fois par séance ; ils sont publics, au journal.
(function () {
  'use strict';
  var id = document.body.dataset.table;
  if (!id || !window.crypto || !crypto.getRandomValues) { return; }
  function contribute() {
    var panel = document.getElementById('seance');
    var number = panel && panel.dataset.seance;
    if (!number) { return; }
    var mark = 'jdr-contribution-' + id + '-' + number;
    try { if (localStorage.getItem(mark)) { return; } } catch (err) { return; }
    var bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    var value = Array.from(bytes, function (b) { return b.toString(16).padStart(2, '0'); }).join('');
    var headers = {'Content-Type': 'application/json'};
    var csrf = document.querySelector('meta[name="jdr-csrf"]');
    if (csrf) { headers['X-JDR-CSRF'] = csrf.content; }
    localStorage.setItem(mark, 'envoi');
    fetch('/tables/' + id + '/f/seance/contribution', {method: 'POST', credentials: 'same-origin',
      headers: headers, body: JSON.stringify({valeur: value})})
      .then(function (r) { if (r.ok) { localStorage.setItem(mark, 'faite'); } else { localStorage.removeItem(mark); } })
      .catch(function () { localStorage.removeItem(mark); });
  }
  document.body.addEventListener('htmx:afterSettle', contribute);
  contribute();
})();
