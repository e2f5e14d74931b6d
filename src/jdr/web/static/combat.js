// Le panneau de combat : le direct rafraîchit l'état (ordre, santé, états) ; les formulaires ne
// sont redemandés que si le tour ou les combattants changent (data-cle), jamais pendant qu'on
// écrit ; un message reste jusqu'à ce qu'on le ferme.
(function () {
  'use strict';
  var last = null;
  function key() {
    var etat = document.getElementById('combat-etat');
    return etat ? etat.dataset.cle : null;
  }
  last = key();
  document.body.addEventListener('htmx:afterSwap', function (ev) {
    var target = ev.detail && ev.detail.target;
    if (!target) { return; }
    if (target.id === 'combat-etat' || (ev.detail.elt && ev.detail.elt.id === 'combat-etat')) {
      var now = key();
      if (now !== last) {
        last = now;
        document.body.dispatchEvent(new CustomEvent('jdr-tour', {bubbles: true}));
      }
    }
    if (target.id === 'combat-message') {
      target.querySelectorAll('.message').forEach(function (m) {
        if (m.querySelector('button.fermer')) { return; }
        var b = document.createElement('button');
        b.type = 'button'; b.className = 'petit second fermer'; b.textContent = 'Fermer';
        b.setAttribute('aria-label', 'Fermer le message');
        b.addEventListener('click', function () { m.remove(); });
        m.appendChild(document.createTextNode(' '));
        m.appendChild(b);
      });
    }
  });
})();
