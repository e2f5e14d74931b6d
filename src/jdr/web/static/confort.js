// Le confort de la table, sans rien demander au serveur : le thème (celui du système, ou le choix
// gardé dans ce navigateur), « Mes tables » (les tables ouvertes ici, avec le rôle), la
// confirmation avant de sortir, les boutons « copier », et les raccourcis clavier du MJ.
// Chargé dans <head> sans defer : le thème est posé avant le premier affichage.
(function () {
  'use strict';
  var root = document.documentElement;
  var THEME = 'jdr-theme', TABLES = 'jdr-tables';

  function read(key, fallback) {
    try { var v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
    catch (e) { return fallback; }
  }
  function write(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* navigation privée */ }
  }

  var chosen = read(THEME, null);
  if (chosen === 'clair' || chosen === 'sombre') { root.dataset.theme = chosen; }

  function dark() {
    if (root.dataset.theme) { return root.dataset.theme === 'sombre'; }
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  }

  function themeButton() {
    var button = document.getElementById('theme');
    if (!button) { return; }
    function label() {
      button.textContent = dark() ? 'thème clair' : 'thème sombre';
      button.setAttribute('aria-pressed', dark() ? 'true' : 'false');
    }
    label();
    button.addEventListener('click', function () {
      root.dataset.theme = dark() ? 'clair' : 'sombre';
      write(THEME, root.dataset.theme);
      label();
    });
  }

  function remember() {
    var body = document.body;
    var id = body.dataset.table;
    if (!id || !body.dataset.role) { return; }
    var tables = read(TABLES, []).filter(function (t) { return t && String(t.id) !== id; });
    tables.unshift({id: id, nom: body.dataset.nomTable || ('table ' + id), role: body.dataset.role,
                    systeme: body.dataset.systeme || '', vu: new Date().toISOString().slice(0, 10)});
    write(TABLES, tables.slice(0, 50));
  }

  function listTables() {
    var box = document.getElementById('mes-tables');
    if (!box) { return; }
    var tables = read(TABLES, []);
    var list = box.querySelector('ul');
    tables.forEach(function (t) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = '/tables/' + encodeURIComponent(t.id);
      a.textContent = t.nom;
      li.appendChild(a);
      li.appendChild(document.createTextNode(' — ' + t.role + (t.systeme ? ' · ' + t.systeme : '') +
                                             ' · ouverte le ' + t.vu));
      list.appendChild(li);
    });
    box.hidden = tables.length === 0;
  }

  function confirmations() {
    document.querySelectorAll('a[data-confirmer]').forEach(function (a) {
      a.addEventListener('click', function (ev) {
        if (!window.confirm(a.dataset.confirmer)) { ev.preventDefault(); }
      });
    });
    document.querySelectorAll('form[data-confirmer]').forEach(function (form) {
      form.addEventListener('submit', function (ev) {
        if (!window.confirm(form.dataset.confirmer)) { ev.preventDefault(); }
      });
    });
  }

  function copy(ev) {
    var button = ev.target.closest && ev.target.closest('button[data-copier]');
    if (!button) { return; }
    var text = button.dataset.copier;
    var done = function () {
      var before = button.textContent;
      button.textContent = 'copié';
      setTimeout(function () { button.textContent = before; }, 1200);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
    } else { fallback(text); done(); }
  }
  function fallback(text) {
    var area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand('copy'); } catch (e) { /* rien à faire */ }
    area.remove();
  }

  // Raccourcis du MJ (hors d'un champ de saisie) : « n » tour suivant, « z » annuler la dernière action.
  function shortcuts(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat) { return; }
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var id = {n: 'suivant', z: 'annuler'}[ev.key.toLowerCase()];
    var button = id && document.getElementById(id);
    if (button && !button.disabled) { ev.preventDefault(); button.click(); }
  }

  document.addEventListener('DOMContentLoaded', function () {
    themeButton();
    remember();
    listTables();
    confirmations();
    document.addEventListener('click', copy);
    if (document.body.dataset.role === 'mj') { document.addEventListener('keydown', shortcuts); }
  });
})();
