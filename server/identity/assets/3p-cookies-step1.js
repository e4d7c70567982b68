// Keycloak's third-party cookie check, step 1: set a test cookie, then go to step 2 which reads it back.
document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=supported; Max-Age=60; SameSite=None; Secure';
document.cookie = 'KEYCLOAK_3P_COOKIE=supported; Max-Age=60';
window.location.href = 'step2.html';
