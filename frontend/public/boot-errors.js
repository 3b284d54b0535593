// Shows errors that happen while the app loads, which would otherwise leave
// an empty window. Loaded before the app as a plain script (no inline
// script, so the serve-mode Content-Security-Policy allows it). Text only.
(function () {
  function show(message) {
    var root = document.getElementById('app');
    if (!root || root.childElementCount > 0) return;
    var box = document.createElement('pre');
    box.setAttribute('role', 'alert');
    box.setAttribute('data-testid', 'boot-error');
    box.style.cssText = 'margin:24px;padding:12px;background:#4a1f26;color:#ffd7dc;white-space:pre-wrap;font:13px monospace';
    box.textContent = 'ctxscope failed to start:\n' + message;
    root.appendChild(box);
  }
  window.addEventListener('error', function (e) { show(String(e.message || e.error)); });
  window.addEventListener('unhandledrejection', function (e) {
    var r = e.reason;
    show(String((r && (r.stack || r.message)) || r));
  });
})();
