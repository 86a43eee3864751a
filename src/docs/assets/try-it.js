// compute-contract docs, mock-served only: sends a try-it panel's request to the mock serving the page
// and shows the answer. The API key comes from the page's key field (kept in sessionStorage for the
// tab, never put in a URL); requests go to the same origin, so no CORS is involved.
(function () {
  'use strict';
  var KEY_STORE = 'compute-contract-docs-key';
  var ENDPOINT_STORE = 'compute-contract-docs-endpoint';
  /** Longest answer body shown (characters); the rest is cut with a note. */
  var MAX_SHOWN = 100000;

  function bases() {
    var setup = document.querySelector('.try-it-setup');
    try {
      return JSON.parse((setup && setup.getAttribute('data-bases')) || '{}');
    } catch (e) {
      return {};
    }
  }

  function remembered(id, store) {
    var input = document.getElementById(id);
    if (!input) return null;
    try {
      input.value = window.sessionStorage.getItem(store) || input.value;
      input.addEventListener('input', function () { window.sessionStorage.setItem(store, input.value); });
    } catch (e) { /* storage refused: the field still works for this page */ }
    return input;
  }

  function buildUrl(panel, form, base, endpointId) {
    var path = panel.getAttribute('data-path') || '';
    var query = [];
    var missing = [];
    var inputs = form.querySelectorAll('input[name]');
    for (var i = 0; i < inputs.length; i++) {
      var parts = inputs[i].name.split(':');
      var where = parts[0];
      var name = parts.slice(1).join(':');
      var value = inputs[i].value;
      if (where === 'path') {
        if (!value) missing.push(name);
        // Segment by segment, so a multi-segment parameter (x-multi-segment, e.g. openaiPath) keeps its '/'.
        path = path.split('{' + name + '}').join(value.split('/').map(encodeURIComponent).join('/'));
      } else if (where === 'query' && value !== '') {
        query.push(encodeURIComponent(name) + '=' + encodeURIComponent(value));
      }
    }
    if (base.indexOf('{endpointId}') !== -1) {
      if (!endpointId) missing.push('endpointId');
      base = base.split('{endpointId}').join(encodeURIComponent(endpointId));
    }
    return { url: base + path + (query.length ? '?' + query.join('&') : ''), missing: missing };
  }

  function show(result, status, text) {
    result.hidden = false;
    result.querySelector('.try-it-status').textContent = status;
    result.querySelector('code').textContent = text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) + '\n… (cut)' : text;
  }

  function pretty(text) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (e) {
      return text;
    }
  }

  function send(panel, form, key, endpoint) {
    var result = panel.querySelector('.try-it-result');
    var spec = panel.getAttribute('data-spec');
    var base = bases()[spec];
    if (base === undefined) return show(result, 'not available', 'This mock does not serve ' + spec + '.');
    var method = panel.getAttribute('data-method');
    var headers = {};
    if (key && key.value) headers['Authorization'] = 'Bearer ' + key.value;
    var body;
    var target;
    if (spec === 'graphql') {
      var variables = form.querySelector('[name="graphql:variables"]').value.trim() || '{}';
      try {
        body = JSON.stringify({ query: form.querySelector('[name="graphql:query"]').value, variables: JSON.parse(variables) });
      } catch (e) {
        return show(result, 'not sent', 'Variables are not valid JSON: ' + e.message);
      }
      target = { url: base, missing: [] };
    } else {
      target = buildUrl(panel, form, base, endpoint ? endpoint.value.trim() : '');
      var area = form.querySelector('textarea[name="body"]');
      if (area && area.value.trim() !== '') body = area.value;
    }
    if (target.missing.length) return show(result, 'not sent', 'Fill in: ' + target.missing.join(', '));
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    show(result, 'sending…', method + ' ' + target.url);
    fetch(target.url, { method: method, headers: headers, body: body })
      .then(function (response) {
        return response.text().then(function (text) {
          var lines = [];
          ['content-type', 'retry-after', 'allow', 'ratelimit', 'ratelimit-policy'].forEach(function (h) {
            var v = response.headers.get(h);
            if (v) lines.push(h + ': ' + v);
          });
          show(result, response.status + ' ' + response.statusText + '  ·  ' + method + ' ' + target.url, (lines.length ? lines.join('\n') + '\n\n' : '') + pretty(text));
        });
      })
      .catch(function (error) {
        show(result, 'failed', String(error));
      });
  }

  function start() {
    var key = remembered('try-it-key', KEY_STORE);
    var endpoint = remembered('try-it-endpoint', ENDPOINT_STORE);
    var panels = document.querySelectorAll('details.try-it');
    for (var i = 0; i < panels.length; i++) {
      (function (panel) {
        var form = panel.querySelector('form');
        form.addEventListener('submit', function (event) {
          event.preventDefault();
          send(panel, form, key, endpoint);
        });
      })(panels[i]);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
