// compute-contract docs: search across every page (window.SEARCH_INDEX from search-index.js) and the
// rule catalogue's filters. Plain browser script, no dependencies; every page is complete without it.
(function () {
  'use strict';
  /** Most results listed for one query. */
  var MAX_RESULTS = 30;
  /** Longest query looked at (characters). */
  var MAX_QUERY = 100;

  function root() {
    return document.body.getAttribute('data-root') || '';
  }

  function score(entry, words) {
    var title = entry.t.toLowerCase();
    var all = (entry.t + ' ' + (entry.d || '') + ' ' + entry.k).toLowerCase();
    var total = 0;
    for (var i = 0; i < words.length; i++) {
      var w = words[i];
      if (all.indexOf(w) === -1) return 0;
      if (title === w) total += 100;
      else if (title.indexOf(w) === 0) total += 40;
      else if (title.indexOf(w) !== -1) total += 20;
      else total += 5;
    }
    return total;
  }

  function setUpSearch() {
    var input = document.getElementById('search');
    var list = document.getElementById('search-results');
    var index = window.SEARCH_INDEX || [];
    if (!input || !list) return;
    function render() {
      var query = input.value.trim().toLowerCase().slice(0, MAX_QUERY);
      list.textContent = '';
      if (!query) {
        list.hidden = true;
        return;
      }
      var words = query.split(/\s+/);
      var hits = [];
      for (var i = 0; i < index.length; i++) {
        var s = score(index[i], words);
        if (s > 0) hits.push({ s: s, e: index[i] });
      }
      hits.sort(function (a, b) { return b.s - a.s || a.e.t.length - b.e.t.length; });
      hits.slice(0, MAX_RESULTS).forEach(function (hit) {
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = root() + hit.e.u;
        a.textContent = hit.e.t;
        var kind = document.createElement('span');
        kind.className = 'kind';
        kind.textContent = hit.e.k;
        a.appendChild(kind);
        li.appendChild(a);
        list.appendChild(li);
      });
      if (hits.length === 0) {
        var none = document.createElement('li');
        none.textContent = 'No match';
        none.style.padding = '0.4rem 0.7rem';
        list.appendChild(none);
      }
      list.hidden = false;
    }
    input.addEventListener('input', render);
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') {
        input.value = '';
        render();
      } else if (event.key === 'Enter') {
        var first = list.querySelector('a');
        if (first) window.location.href = first.href;
      }
    });
    document.addEventListener('click', function (event) {
      if (!list.contains(event.target) && event.target !== input) list.hidden = true;
    });
  }

  function setUpRuleFilters() {
    var selects = document.querySelectorAll('select[data-filter]');
    if (selects.length === 0) return;
    var rows = document.querySelectorAll('tr.rule');
    var count = document.getElementById('rule-count');
    function apply() {
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var visible = true;
        for (var j = 0; j < selects.length; j++) {
          var value = selects[j].value;
          if (value && rows[i].getAttribute('data-' + selects[j].getAttribute('data-filter')) !== value) visible = false;
        }
        rows[i].hidden = !visible;
        if (visible) shown++;
      }
      if (count) count.textContent = shown + ' of ' + rows.length + ' rules';
    }
    for (var k = 0; k < selects.length; k++) selects[k].addEventListener('change', apply);
    apply();
  }

  function start() {
    setUpSearch();
    setUpRuleFilters();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
