// Le jeton de formulaire de la session (voir jdr.web.origin) : envoyé par chaque requête htmx
// (en-tête X-JDR-CSRF), et ajouté à chaque formulaire ordinaire envoyé en POST (champ _csrf).
// Une seule fois pour toutes les pages : aucun formulaire n'a à s'en occuper.
(function () {
  'use strict';
  var meta = document.querySelector('meta[name="jdr-csrf"]');
  var token = meta ? meta.getAttribute('content') : '';
  if (!token) { return; }
  document.addEventListener('htmx:configRequest', function (ev) {
    ev.detail.headers['X-JDR-CSRF'] = token;
  });
  document.addEventListener('submit', function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement) || (form.method || '').toLowerCase() !== 'post') { return; }
    var field = form.querySelector('input[name="_csrf"]');
    if (!field) {
      field = document.createElement('input');
      field.type = 'hidden';
      field.name = '_csrf';
      form.appendChild(field);
    }
    field.value = token;
  }, true);
  // Un refus (403 d'une autre origine, 429 trop d'actions) s'affiche là où irait la réponse.
  document.addEventListener('htmx:beforeSwap', function (ev) {
    var status = ev.detail.xhr.status;
    if (status === 403 || status === 429) { ev.detail.shouldSwap = true; ev.detail.isError = false; }
  });
  window.jdrCsrf = token;
})();
