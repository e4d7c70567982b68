// Hands the identity server's answer (in this frame's URL) back to keycloak-js in the console window.
parent.postMessage(location.href, location.origin);
