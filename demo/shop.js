// The demo shop's own script: what a customer's site does with Heed's host-page API.
// A file, not an inline script, so the shop runs under a CSP without 'unsafe-inline'.

// The host API stub: calls made before the widget loads wait in Heed.q.
window.Heed =
  window.Heed ||
  function () {
    // biome-ignore lint/complexity/noArguments: the stub is the ES5 snippet customers paste into any page
    (window.Heed.q = window.Heed.q || []).push(arguments);
  };

document.addEventListener('DOMContentLoaded', () => {
  const support = document.getElementById('support');
  const count = document.getElementById('host-count');
  // Open the chat from the shop's own button, and show the count in the shop's header.
  if (support) support.addEventListener('click', () => Heed('toggle'));
  if (count)
    Heed('on', 'unread', (counts) => {
      count.textContent = String(counts.unread + counts.live + counts.inputNeeded);
    });
});
