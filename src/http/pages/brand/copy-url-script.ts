/**
 * The one script of the brand pages (served from the service, CSP `script-src 'self'`): it reveals the copy buttons
 * and copies their `data-copy` text. Without it the URLs and HEX values stay visible and selectable.
 */
export const COPY_URL_SCRIPT = `(function () {
  if (!navigator.clipboard) return;
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var label = button.textContent;
      navigator.clipboard.writeText(button.getAttribute('data-copy')).then(function () {
        button.textContent = 'Copied';
        setTimeout(function () { button.textContent = label; }, 1500);
      }, function () { button.textContent = 'Copy failed'; });
    });
  });
})();
`;
