// « Vérifier » : refait chaque dé d'un journal exporté (ou de blocs de forum) dans le navigateur,
// avec WebCrypto, selon l'algorithme jdr-v1 (docs/verifiable.md) ; aucun appel au serveur.
(function () {
  'use strict';
  var enc = new TextEncoder();
  var SPACE = 1n << 64n;
  var LABELS = {ok: 'ok', echec: 'ÉCHEC', non_verifiable: 'non vérifiable', en_attente: 'en attente'};

  function hex(bytes) {
    return Array.from(new Uint8Array(bytes), function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  }
  function unhex(text) {
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) { out[i] = parseInt(text.substr(2 * i, 2), 16); }
    return out;
  }
  async function sha256(bytes) { return hex(await crypto.subtle.digest('SHA-256', bytes)); }
  async function hmac(key, text) {
    var k = await crypto.subtle.importKey('raw', key, {name: 'HMAC', hash: 'SHA-256'}, false, ['sign']);
    return new Uint8Array(await crypto.subtle.sign('HMAC', k, enc.encode(text)));
  }
  function asciiString(s) {
    return JSON.stringify(s).replace(/[\u007f-\uffff]/g, function (c) {
      return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
    });
  }
  function byCodePoint(a, b) {
    var A = Array.from(a), B = Array.from(b);
    for (var i = 0; i < Math.min(A.length, B.length); i++) {
      var d = A[i].codePointAt(0) - B[i].codePointAt(0);
      if (d) { return d; }
    }
    return A.length - B.length;
  }
  // JSON canonique : clés triées, sans espaces, ASCII (\uXXXX), comme json.dumps(sort_keys=True)
  function canonical(v) {
    if (v === null || v === undefined) { return 'null'; }
    if (Array.isArray(v)) { return '[' + v.map(canonical).join(',') + ']'; }
    if (typeof v === 'object') {
      return '{' + Object.keys(v).sort(byCodePoint).map(function (k) {
        return asciiString(k) + ':' + canonical(v[k]);
      }).join(',') + '}';
    }
    if (typeof v === 'string') { return asciiString(v); }
    if (typeof v === 'boolean') { return v ? 'true' : 'false'; }
    return String(v);
  }
  function isSeed(text) { return /^[0-9a-f]{64}$/.test(text); }

  async function entryKey(seed, seance, seq, contributions) {
    var digest = await sha256(enc.encode(contributions.join('\n')));
    return hmac(seed, 'jdr-v1|' + seance + '|' + seq + '|' + digest);
  }
  async function face(key, index, sides) {
    var n = BigInt(sides), limit = SPACE - (SPACE % n);
    for (var attempt = 0; attempt < 64; attempt++) {
      var block = await hmac(key, index + '|' + attempt);
      var x = 0n;
      for (var i = 0; i < 8; i++) { x = (x << 8n) | BigInt(block[i]); }
      if (x < limit) { return Number(x % n) + 1; }
    }
    throw new Error('dérivation impossible');
  }

  async function seances(entries) {
    var out = {};
    for (var e of entries) {
      var p = e.params || {}, number = String(p.seance === undefined ? '' : p.seance);
      if (e.action === 'seance:ouverture') {
        out[number] = {commitment: String(p.engagement || ''), contributions: [], seed: null, problem: null};
      } else if (e.action === 'seance:contribution' && out[number]) {
        out[number].contributions.push([Number(e.seq), String(p.contribution || '')]);
      } else if (e.action === 'seance:revelation' && out[number]) {
        var s = out[number], text = String(p.graine || '').trim().toLowerCase();
        if (!isSeed(text)) { s.problem = 'graine révélée illisible'; continue; }
        var seed = unhex(text);
        if (await sha256(seed) !== s.commitment) {
          s.problem = "la graine révélée ne correspond pas à l'engagement publié à l'ouverture";
        } else { s.seed = seed; }
      }
    }
    return out;
  }

  async function checkEntry(e, s, number) {
    var seq = Number(e.seq), verif = e.verif || {};
    if (!s) { return [seq, 'echec', 'séance ' + number + ' sans ouverture dans ce journal']; }
    if (!verif.verifiable) { return [seq, 'non_verifiable', String(verif.raison || 'dés hors de la dérivation')]; }
    if (s.problem) { return [seq, 'echec', s.problem]; }
    if (!s.seed) { return [seq, 'en_attente', 'graine pas encore révélée']; }
    // a roll that waited for a choice: its dice were drawn for its notice's number (tirage)
    var drawn = verif.tirage === undefined || verif.tirage === null ? seq : Number(verif.tirage);
    var before = s.contributions.filter(function (c) { return c[0] < drawn; }).map(function (c) { return c[1]; });
    var key = await entryKey(s.seed, number, drawn, before);
    var dice = e.dice || [];
    for (var i = 0; i < dice.length; i++) {
      var sides = Number(dice[i].sides), got = Number(dice[i].face);
      if (!Number.isInteger(sides) || sides < 1 || !Number.isInteger(got)) {
        return [seq, 'echec', 'dé n° ' + (i + 1) + ' illisible'];
      }
      var want = await face(key, i, sides);
      if (got !== want) {
        return [seq, 'echec', 'dé n° ' + (i + 1) + ' (d' + sides + ') : ' + got + ' au journal, ' + want + ' selon la graine'];
      }
    }
    var tag = hex(await hmac(key, canonical({action: String(e.action || ''), params: e.params === undefined ? null : e.params, dice: dice})));
    if (tag !== String(verif.tag || '')) {
      return [seq, 'echec', "entrée modifiée : l'action, ses paramètres ou ses dés ne sont plus ceux qui ont été lancés"];
    }
    return [seq, 'ok', dice.length + ' dé(s) conforme(s)'];
  }

  async function verifyJournal(entries) {
    var checks = [], last = 0;
    for (var e of entries) {
      var seq = Number(e.seq || 0);
      if (seq <= last) { checks.push([seq, 'echec', 'ordre du journal modifié : n° ' + seq + ' après n° ' + last]); }
      last = Math.max(last, seq);
    }
    var actions = {}, used = {};
    entries.forEach(function (x) { actions[Number(x.seq || 0)] = String(x.action || ''); });
    for (var d of entries) {  // a tirage: used once, before its entry, the number of a notice
      var v = d.verif || {};
      if (v.tirage === undefined || v.tirage === null) { continue; }
      var at = Number(d.seq || 0), n = Number(v.tirage), id = String(v.seance) + ':' + n;
      var other = actions[n];
      if (n >= at || used[id] || (other !== undefined && other !== 'attente')) {
        checks.push([at, 'echec', 'dés tirés pour le n° ' + n + ' : ce numéro sert déjà ou ne précède pas l\'entrée']);
      }
      used[id] = true;
    }
    var all = await seances(entries);
    for (var f of entries) {
      if (!f.verif) { continue; }
      var number = String(f.verif.seance === undefined ? '' : f.verif.seance);
      checks.push(await checkEntry(f, all[number], number));
    }
    Object.keys(all).forEach(function (n) {
      if (all[n].problem) { checks.push([0, 'echec', 'séance ' + n + ' : ' + all[n].problem]); }
    });
    return checks.sort(function (a, b) { return a[0] - b[0]; });
  }

  async function verifyBlocks(text, seedText) {
    var checks = [], seen = {}, seed = null;
    if (seedText) {
      if (!isSeed(seedText)) { throw new Error('graine : 64 chiffres hexadécimaux attendus'); }
      seed = unhex(seedText);
    }
    for (var line of text.split(/\r?\n/)) {
      var at = line.indexOf('jdr-verif {');
      if (at < 0) { continue; }
      var b;
      try { b = JSON.parse(line.slice(at + 10, line.lastIndexOf('}') + 1)); } catch (err) { continue; }
      var seq = Number(b.seq), id = b.engagement + ':' + seq;
      if (seen[id]) { checks.push([seq, 'echec', 'jet n° ' + seq + ' présent deux fois']); continue; }
      seen[id] = true;
      if (!seed) { checks.push([seq, 'en_attente', 'graine pas encore publiée']); continue; }
      if (await sha256(seed) !== b.engagement) { checks.push([seq, 'echec', "la graine ne correspond pas à l'engagement du bloc"]); continue; }
      var s = {commitment: b.engagement, contributions: [], seed: seed, problem: null};
      checks.push(await checkEntry({seq: seq, action: b.action || '', params: b.params, dice: b.dice,
                                    verif: {verifiable: true, tag: b.tag}}, s, 'forum'));
    }
    return checks;
  }

  function show(checks, problem) {
    var table = document.getElementById('resultats'), body = table.querySelector('tbody');
    var summary = document.getElementById('resume');
    body.textContent = '';
    if (problem) { summary.textContent = problem; table.hidden = true; return; }
    var counts = {};
    checks.forEach(function (c) {
      counts[c[1]] = (counts[c[1]] || 0) + 1;
      var tr = document.createElement('tr');
      tr.dataset.seq = String(c[0]);
      tr.dataset.status = c[1];
      [c[0] ? 'n° ' + c[0] : 'journal', LABELS[c[1]] || c[1], c[2]].forEach(function (text) {
        var td = document.createElement('td'); td.textContent = text; tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    var ok = checks.length > 0 && checks.every(function (c) { return c[1] === 'ok' || c[1] === 'non_verifiable'; });
    var parts = Object.keys(counts).sort().map(function (k) { return counts[k] + ' ' + (LABELS[k] || k); });
    summary.textContent = (ok ? 'Tout est conforme' : 'Vérification échouée') +
      (parts.length ? ' (' + parts.join(', ') + ')' : ' (aucune entrée vérifiable)');
    summary.dataset.ok = ok ? 'oui' : 'non';
    table.hidden = false;
  }

  async function run(ev) {
    ev.preventDefault();
    if (!window.crypto || !crypto.subtle) {
      show([], 'Votre navigateur refuse WebCrypto sur cette adresse : ouvrez la page en https ou en local.');
      return;
    }
    var file = document.getElementById('fichier').files[0];
    var text = file ? await file.text() : document.getElementById('texte').value;
    var seedText = document.getElementById('graine').value.trim().toLowerCase();
    var data = null;
    try { data = JSON.parse(text); } catch (err) { data = null; }
    try {
      if (data && !Array.isArray(data) && Array.isArray(data.entries)) { data = data.entries; }
      if (Array.isArray(data)) { show(await verifyJournal(data)); }
      else if (data !== null) { show([], "journal illisible : une liste d'entrées JSON attendue"); }
      else { show(await verifyBlocks(text, seedText)); }
    } catch (err) { show([], 'Erreur : ' + err.message); }
  }

  document.getElementById('verifier').addEventListener('submit', run);
})();
