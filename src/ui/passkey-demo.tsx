/**
 * The passkey demo's page (served by `routes/passkey-demo.tsx` at /_emulator/ui/passkey): a page where a person (or a browser test with a
 * virtual authenticator) registers a passkey and logs in with it against this emulator's
 * /v1/auth/passkey endpoints, with the tenant's API key. Behind the control plane's
 * loopback/admin guard (D11). The page's origin must be one of the tenant's
 * settings.webauthn.origins (default http://localhost:4010) and its host the RP ID; when
 * either is wrong the page says so in an alert that names the fix (for the origin, the exact
 * PATCH /v1/tenant call that adds it and keeps the others, since PATCH replaces the list).
 */
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
  function show(state, message) {
    $('result').setAttribute('data-state', state);
    $('status').textContent = message;
    $('problem').hidden = true;
    $('fix').hidden = true;
    $('session').hidden = true;
  }
  async function api(method, path, body) {
    var headers = { 'x-api-key': $('key').value.trim() };
    if (body) headers['content-type'] = 'application/json';
    var res = await fetch('/v1/auth/passkey' + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined });
    var json = await res.json().catch(function () { return {}; });
    if (!res.ok) {
      var error = new Error((json.code || res.status) + ': ' + (json.error || 'the request failed'));
      error.apiCode = json.code;
      throw error;
    }
    return json.data;
  }
  /** The tenant of the API key in the form, or null when it cannot be read. */
  async function tenant() {
    var res = await fetch('/v1/tenant', { headers: { 'x-api-key': $('key').value.trim() } }).catch(function () { return null; });
    if (!res || !res.ok) return null;
    var json = await res.json().catch(function () { return null; });
    return json && json.data;
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
    var user = data.user;
    show(state, verb + ' ' + (user.email || user.id) + '.');
    $('user-email').textContent = user.email || '(none)';
    $('user-id').textContent = user.id;
    $('party-id').textContent = user.partyId || '(none)';
    $('trust-level').textContent = user.trustLevel;
    $('expires').textContent = data.session.expiresAt.replace('T', ' ').slice(0, 19) + ' UTC';
    $('result-json').textContent = JSON.stringify({ user: user, session: { expiresAt: data.session.expiresAt } }, null, 2);
    $('token').value = data.session.token;
    $('session').hidden = false;
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
  /** Ends a line of a shell command and indents the next. */
  var NEXT_LINE = ' \\\\\\n  ';
  /** The fix for a failure a person can mend: the words, and the command when there is one. */
  async function fixFor(error) {
    var here = location.origin;
    var key = "-H 'x-api-key: " + $('key').value.trim() + "'";
    if (error && error.apiCode === 'webauthn_origin_mismatch') {
      var t = await tenant();
      var now = t ? t.settings.webauthn.origins : null;
      var text = "Fix: add this page's origin " + here + " to the tenant's settings.webauthn.origins with PATCH /v1/tenant. " +
        'PATCH replaces the whole list, so send the origins it has now' + (now ? ' (' + (now.join(', ') || 'none') + ')' : '') + ' too, then try again:';
      if (!now) {
        return { text: text, command: 'curl -s ' + here + '/v1/tenant ' + key + NEXT_LINE +
          "| jq '{settings: {webauthn: {origins: (.data.settings.webauthn.origins + [" + JSON.stringify(here) + '] | unique)}}}' + "'" + NEXT_LINE +
          '| curl -X PATCH ' + here + '/v1/tenant ' + key + " -H 'content-type: application/json' -d @-" };
      }
      var origins = now.indexOf(here) === -1 ? now.concat([here]) : now;
      return { text: text, command: 'curl -X PATCH ' + here + '/v1/tenant' + NEXT_LINE + key + NEXT_LINE + "-H 'content-type: application/json'" + NEXT_LINE +
        "-d '" + JSON.stringify({ settings: { webauthn: { origins: origins } } }) + "'" };
    }
    if (error && (error.name === 'SecurityError' || error.apiCode === 'webauthn_rp_id_mismatch')) {
      var rp = await tenant();
      var rpId = rp ? rp.settings.webauthn.rpId : null;
      var there = rpId && location.protocol + '//' + rpId + (location.port ? ':' + location.port : '') + location.pathname + location.search;
      return { text: "Fix: this page's host (" + location.hostname + ") must be the tenant's RP ID" + (rpId ? ' (' + rpId + ')' : '') +
        ' or a subdomain of it. Open the page on that host, from an origin the tenant allows, or change settings.webauthn.rpId with PATCH /v1/tenant.',
        link: there || undefined };
    }
    return null;
  }
  async function fail(error) {
    var message = String(error && error.message || error);
    var why = error && (error.apiCode || (error.name !== 'Error' && error.name));
    show('error', 'Failed' + (why ? ' (' + why + ')' : '') + '.');
    $('problem-message').textContent = message;
    $('problem').hidden = false;
    var fix = await fixFor(error).catch(function () { return null; });
    if (!fix) return;
    $('fix-text').textContent = fix.text;
    $('fix-command').textContent = fix.command || '';
    $('fix-go').hidden = !fix.link;
    $('fix-link').textContent = $('fix-link').href = fix.link || '';
    $('fix').hidden = false;
  }
  function run(action) {
    return function (event) {
      event.preventDefault();
      show('working', 'Waiting for the authenticator…');
      action().catch(fail);
    };
  }
  $('origin').textContent = location.origin;
  $('register').addEventListener('click', run(register));
  $('login').addEventListener('click', run(login));
  if (!window.PublicKeyCredential) {
    fail(new Error('This browser offers no WebAuthn here: it needs a secure context, such as a page on http://localhost:' + (location.port || '80') + ' or https.'));
  }
})();
`;

/** The page, with the API key field filled in with `apiKey`. */
export function PasskeyDemoPage({ apiKey }: { apiKey: string }) {
  return (
    <Layout title="Passkey demo" nav={false}>
      <div class="card">
        <h2>Passkey demo</h2>
        <p class="muted">
          Registers a passkey and logs in with it through <code>/v1/auth/passkey</code>. This page's origin (<code id="origin">…</code>) must be one of the
          tenant's <code>settings.webauthn.origins</code>, and its host the RP ID.
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
          <label class="check">
            <input id="use-email" type="checkbox" />
            <span>Log in with this email's passkeys (otherwise discoverable)</span>
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
      <div class="card" id="result" data-state="idle">
        <h2>Result</h2>
        <p id="status" role="status" class="muted wrap-anywhere">
          Nothing yet.
        </p>
        <div id="problem" class="flash error" role="alert" hidden>
          <p id="problem-message" class="wrap-anywhere"></p>
          <div id="fix" hidden>
            <p id="fix-text" class="wrap-anywhere"></p>
            <pre id="fix-command" class="wrap"></pre>
            <p id="fix-go" hidden>
              <a id="fix-link" class="wrap-anywhere"></a>
            </p>
          </div>
        </div>
        <div id="session" class="stack" hidden>
          <dl class="props">
            <dt>Email</dt>
            <dd id="user-email"></dd>
            <dt>User</dt>
            <dd id="user-id" class="mono"></dd>
            <dt>Party</dt>
            <dd id="party-id" class="mono"></dd>
            <dt>Trust level</dt>
            <dd id="trust-level"></dd>
            <dt>Session expires</dt>
            <dd id="expires" class="mono"></dd>
          </dl>
          <label class="field">
            Session token (send as Authorization: Bearer …)
            <input id="token" readonly size={48} />
          </label>
          <details>
            <summary>Response JSON (without the token)</summary>
            <pre id="result-json" class="wrap"></pre>
          </details>
        </div>
      </div>
      <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />
    </Layout>
  );
}
