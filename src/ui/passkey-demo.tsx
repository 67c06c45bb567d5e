/**
 * The passkey demo at /_emulator/ui/passkey: a page where a person (or a browser test with a
 * virtual authenticator) registers a passkey and logs in with it against this emulator's
 * /v1/auth/passkey endpoints, with the tenant's API key. Behind the control plane's
 * loopback/admin guard (D11). The page's origin must be one of the tenant's
 * settings.webauthn.origins (default http://localhost:4010) and its host the RP ID.
 */
import { Hono } from 'hono';
import { controlPlaneGuard } from '../middleware/admin.js';
import type { Runtime } from '../runtime.js';
import { Layout } from './layout.js';

/** Talks to the API with fetch and to the authenticator with navigator.credentials. */
const SCRIPT = `
(function () {
  var $ = function (id) { return document.getElementById(id); };
  function decode(text) {
    var b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    var bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
    return Uint8Array.from(bin, function (c) { return c.charCodeAt(0); }).buffer;
  }
  function encode(buffer) {
    var bin = String.fromCharCode.apply(null, new Uint8Array(buffer));
    return btoa(bin).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  function show(state, message, data) {
    var out = $('result');
    out.setAttribute('data-state', state);
    $('status').textContent = message;
    out.textContent = data ? JSON.stringify(data, null, 2) : '';
  }
  async function api(method, path, body) {
    var headers = { 'x-api-key': $('key').value.trim() };
    if (body) headers['content-type'] = 'application/json';
    var res = await fetch('/v1/auth/passkey' + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined });
    var json = await res.json().catch(function () { return {}; });
    if (!res.ok) throw new Error((json.code || res.status) + ': ' + (json.error || 'the request failed'));
    return json.data;
  }
  function descriptors(list) {
    return (list || []).map(function (c) { return Object.assign({}, c, { id: decode(c.id) }); });
  }
  function credentialJson(cred) {
    var r = cred.response;
    var response = { clientDataJSON: encode(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = encode(r.attestationObject);
      response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      response.authenticatorData = encode(r.authenticatorData);
      response.signature = encode(r.signature);
      if (r.userHandle) response.userHandle = encode(r.userHandle);
    }
    return { id: cred.id, rawId: encode(cred.rawId), type: cred.type, response: response,
      clientExtensionResults: cred.getClientExtensionResults(), authenticatorAttachment: cred.authenticatorAttachment || undefined };
  }
  function signedIn(state, verb, data) {
    show(state, verb + ' ' + (data.user.email || data.user.id) + ' (' + data.user.id + ')',
      { user: data.user, session: { expiresAt: data.session.expiresAt } });
    $('token').value = data.session.token;
  }
  async function register() {
    var email = $('email').value.trim(), name = $('name').value.trim();
    var started = await api('POST', '/register-options', name ? { email: email, name: name } : { email: email });
    var o = started.options;
    var publicKey = Object.assign({}, o, { challenge: decode(o.challenge), user: Object.assign({}, o.user, { id: decode(o.user.id) }),
      excludeCredentials: descriptors(o.excludeCredentials) });
    var cred = await navigator.credentials.create({ publicKey: publicKey });
    signedIn('registered', 'Registered a passkey and signed in as', await api('POST', '/register-verify', { challengeId: started.challengeId, response: credentialJson(cred) }));
  }
  async function login() {
    var email = $('email').value.trim();
    var started = await api('GET', '/login-options' + ($('use-email').checked && email ? '?email=' + encodeURIComponent(email) : ''));
    var o = started.options;
    var publicKey = Object.assign({}, o, { challenge: decode(o.challenge), allowCredentials: descriptors(o.allowCredentials) });
    var cred = await navigator.credentials.get({ publicKey: publicKey });
    signedIn('signed-in', 'Logged in with a passkey as', await api('POST', '/login-verify', { challengeId: started.challengeId, response: credentialJson(cred) }));
  }
  function run(action) {
    return function (event) {
      event.preventDefault();
      show('working', 'Waiting for the authenticator…');
      action().catch(function (error) { show('error', String(error && error.message || error)); });
    };
  }
  $('origin').textContent = location.origin;
  $('register').addEventListener('click', run(register));
  $('login').addEventListener('click', run(login));
  if (!window.PublicKeyCredential) show('error', 'This browser has no WebAuthn (it needs a secure context such as http://localhost).');
})();
`;

function PasskeyDemoPage({ apiKey }: { apiKey: string }) {
  return (
    <Layout title="Passkey demo" nav={false}>
      <div class="card">
        <h2>Passkey demo</h2>
        <p class="muted">
          Registers a passkey and logs in with it through <code>/v1/auth/passkey</code>. This page's origin (<code id="origin">…</code>) must
          be one of the tenant's <code>settings.webauthn.origins</code>, and its host the RP ID.
        </p>
        <form class="stack" id="demo">
          <label class="field">
            API key
            <input id="key" name="key" value={apiKey} placeholder="sk_test_…" size={48} autocomplete="off" required />
          </label>
          <div class="form-row">
            <label class="field">
              Email
              <input id="email" name="email" type="email" placeholder="ada@example.com" size={30} />
            </label>
            <label class="field">
              Name (optional)
              <input id="name" name="name" placeholder="Ada Lovelace" size={24} />
            </label>
          </div>
          <label class="small">
            <input id="use-email" type="checkbox" /> Log in with this email's passkeys (otherwise discoverable)
          </label>
          <div class="form-row">
            <button class="btn primary" id="register" type="button">
              Register passkey
            </button>
            <button class="btn" id="login" type="button">
              Log in with passkey
            </button>
          </div>
        </form>
      </div>
      <div class="card">
        <h2>Result</h2>
        <p id="status" role="status" class="muted">
          Nothing yet.
        </p>
        <pre id="result" class="mono small" data-state="idle"></pre>
        <label class="field">
          Session token (send as Authorization: Bearer …)
          <input id="token" readonly size={48} />
        </label>
      </div>
      <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />
    </Layout>
  );
}

/** The demo page's routes, mounted at /_emulator/ui/passkey. `?key=` fills in the API key. */
export function passkeyDemoRoutes(rt: Runtime) {
  const app = new Hono();
  app.use('*', controlPlaneGuard(rt.options.adminToken));
  app.get('/', (c) => c.html(<PasskeyDemoPage apiKey={c.req.query('key') ?? ''} />));
  return app;
}
