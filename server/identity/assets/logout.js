// Keycloak ends the session at once when the console asks; submitting the confirmation form for the user gives
// that behaviour while the page keeps its CSP (no inline script). Without JavaScript the button still works.
document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('logout-form');
  if (form) form.submit();
});
