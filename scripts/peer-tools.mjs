#!/usr/bin/env node
// svc's OpenAPI document in tools no one here wrote, against a fresh emulator each (docs/openapi.md#peer-tools):
//
//   dredd    the contract tester: every operation of the document, sent as it describes it, its answer
//            checked against it; no hook, only the API key as a header (`--header`, as Dredd's docs say)
//   prism-proxy  the closest maintained contract tester (Dredd passes nothing, for reasons of its own: see the
//            page): each operation's example request sent through `prism proxy`, which checks each answer
//   portman  generates a Postman collection with contract tests from the document and runs it with Newman;
//            its config gives the API key (a collection variable), signs a guest in first for the session,
//            orders creates before what needs them, chains their answers, and makes TOTP codes and
//            Telegram's hash in pre-request scripts, as a Postman user would
//   prism    `prism mock` of the document, asked for every documented answer (2xx, and each error code by
//            `Prefer: code=…, example=…`): it must answer the document's example, as written
//
// The tools are installed on demand into a cache outside the repo (not devDependencies: they pull in
// hundreds of packages). Each runs against its own `svc serve --port 0` on a temp data dir, so one
// tool's writes never meet another's. Prints a table: tool, passed/total, %.
//
//   node scripts/peer-tools.mjs                   # all four
//   node scripts/peer-tools.mjs --only prism      # one (or a comma list)
//   SVC_PEER_TOOLS_CACHE=/tmp/tools node scripts/peer-tools.mjs
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = process.env.SVC_PEER_TOOLS_CACHE ?? join(homedir(), '.cache', 'svc-peer-tools');
const PACKAGES = ['dredd@14', '@apideck/portman@1', '@stoplight/prism-cli@5'];
const TOOLS = ['dredd', 'prism-proxy', 'portman', 'prism'];
/** The seeded Acme key (fixtures/default.json): a fresh emulator has it. */
const API_KEY = 'sk_test_acmeLocalDevKey00000000000000001';
/** How long one tool may run before it is stopped. */
const TOOL_TIMEOUT_MS = 10 * 60_000;

const bin = (name) => join(CACHE, 'node_modules', '.bin', name);

/** Installs the tools into the cache unless they are there. */
function ensureTools() {
  if (['dredd', 'portman', 'prism'].every((tool) => existsSync(bin(tool)))) return;
  mkdirSync(CACHE, { recursive: true });
  process.stderr.write(`peer-tools: installing ${PACKAGES.join(' ')} into ${CACHE} (once)…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const installed = spawnSync(npm, ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--loglevel=error', ...PACKAGES], { stdio: ['ignore', 2, 2] });
  if (installed.status !== 0) throw new Error(`npm install into ${CACHE} failed (above)`);
}

/** A child process whose output is kept, and a promise of its exit. */
function run(command, args, options = {}) {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs ?? TOOL_TIMEOUT_MS);
  const exited = new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
  return { child, exited, output: () => output };
}

/** Resolves when `text()` matches `pattern` (its match), rejects when the process ends first or after `ms`. */
async function waitFor(proc, pattern, ms, what) {
  const deadline = Date.now() + ms;
  let ended = false;
  proc.exited.then(() => (ended = true));
  for (;;) {
    const match = proc.output().match(pattern);
    if (match) return match;
    if (ended || Date.now() > deadline) throw new Error(`${what} did not start:\n${proc.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A fresh `svc serve --port 0` on a temp data dir; its origin, and how to stop it. */
async function startEmulator(dir) {
  const proc = run(process.execPath, [join(ROOT, 'bin', 'svc.js'), 'serve', '--port', '0', '--data-dir', join(dir, 'data')]);
  const [, origin] = await waitFor(proc, /API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/, 120_000, 'svc serve');
  return {
    origin,
    async stop() {
      proc.child.kill('SIGTERM');
      await proc.exited;
    },
  };
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Dredd against the emulator: its own count of passing and failing transactions (those it skips by design aside). */
async function dredd(documentFile, origin, dir) {
  // Its console output is cut short when piped (it exits before the pipe drains): the counts come from its xUnit report.
  const report = join(dir, 'dredd.xml');
  const args = [documentFile, origin, '--header', `x-api-key: ${API_KEY}`, '--loglevel', 'warning', '--color=false', '--reporter', 'xunit', '--output', report];
  const output = (await run(bin('dredd'), args, { cwd: dir }).exited).output.replace(/\x1b\[[0-9;]*m/g, '');
  const suite = existsSync(report) ? readFileSync(report, 'utf8').match(/<testsuite[^>]*>/)?.[0] : undefined;
  if (suite === undefined) {
    const refusals = output.split('\n').filter((line) => /error:/.test(line));
    return {
      passed: 0,
      total: 0,
      note: `refused the document: ${refusals.length} errors, first: ${(refusals[0] ?? output.slice(-300)).replace(/^.*?error: /, '')}`,
    };
  }
  const count = (name) => Number(suite.match(new RegExp(`${name}="(\\d+)"`))?.[1] ?? 0);
  const [total, failing, errors, skipped] = [count('tests'), count('failures'), count('errors'), count('skip')];
  const passing = total - failing - errors - skipped;
  // Why transactions failed, by Dredd's own words (the first line of each failure), most frequent first.
  const reasons = new Map();
  for (const line of output.split('\n')) {
    const reason = line.match(/^fail: (headers|body|statusCode): (.{0,90})/);
    if (reason) reasons.set(`${reason[1]}: ${reason[2]}`, (reasons.get(`${reason[1]}: ${reason[2]}`) ?? 0) + 1);
  }
  const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return {
    passed: passing,
    total: total - skipped,
    note: `${skipped} skipped; ${top.map(([reason, count]) => `${count}× ${reason}`).join('; ')}`,
  };
}

/**
 * Records a create makes that later operations name, as a Postman user chains requests: the
 * answer's id is kept in a collection variable (`name`) and sent as the later operations' path
 * parameter. Each create runs before the operations it lists, in that order (those in another
 * folder follow FOLDERS); a chain with no name only orders them.
 */
const CHAINS = [
  { from: 'createApiKey', name: 'apiKeyId', to: ['revokeApiKey'] },
  { from: 'createWebhook', name: 'webhookId', to: ['updateWebhook', 'sendTestEvent', 'listDeliveries', 'deleteWebhook'] },
  { from: 'createGuest', name: 'guestId', to: ['getGuest', 'convertGuest', 'expireGuest'] },
  { from: 'createDelegatedSession', name: 'delegatedSessionId', to: ['getDelegatedSession', 'executeTransaction', 'queryContracts', 'revokeDelegatedSession'] },
  { from: 'createWallet', name: 'walletId', to: ['getWallet', 'storeKeyShare', 'getKeyShares', 'recoverKey', 'deleteKeyShares'] },
  { from: 'setupMfa', to: ['verifyMfaSetup', 'createMfaChallenge', 'verifyMfa', 'getMfaStatus', 'disableMfa'] },
  { from: 'registerCustomDomain', to: ['verifyCustomDomain', 'removeCustomDomain'] },
];

/**
 * Postman runs a collection folder by folder (a tag each), in this order first: the guest (and the
 * user it becomes) before the wallet that user claims, the wallet before what needs it, MFA last.
 */
const FOLDERS = ['Guest sessions', 'Users', 'Delegated sessions', 'MPC key management', 'MFA'];

/** The seeded Acme tenant's Telegram bot token (fixtures/default.json): the emulator keeps it, and never answers it. */
function telegramBotToken() {
  const fixture = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'default.json'), 'utf8'));
  return fixture.tenants.find((tenant) => tenant.apiKeys.some((key) => key.key === API_KEY))?.settings?.telegram?.botToken ?? '';
}

/**
 * Pre-request scripts, as a Postman user writes them (CryptoJS is in Postman's sandbox). `totp`
 * sets `{{totpCode}}`: RFC 6238 (HMAC-SHA1, 30 s, 6 digits) of the secret setupMfa answered.
 */
const TOTP_SCRIPT = `
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
let bits = '';
for (const c of pm.collectionVariables.get('mfaSecret').replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
let key = '';
for (let i = 0; i + 8 <= bits.length; i += 8) key += parseInt(bits.slice(i, i + 8), 2).toString(16).padStart(2, '0');
const counter = Math.floor(Date.now() / 30000).toString(16).padStart(16, '0');
const mac = CryptoJS.HmacSHA1(CryptoJS.enc.Hex.parse(counter), CryptoJS.enc.Hex.parse(key)).toString(CryptoJS.enc.Hex);
const offset = parseInt(mac.slice(-1), 16);
const code = (parseInt(mac.substr(offset * 2, 8), 16) & 0x7fffffff) % 1000000;
pm.collectionVariables.set('totpCode', String(code).padStart(6, '0'));`;

/** The example's Telegram login data, signed now (`login`: the sandbox already has a `data`): hash = HMAC-SHA256(data-check-string, SHA-256(bot token)). */
const TELEGRAM_SCRIPT = `
const login = JSON.parse(pm.request.body.raw);
delete login.hash;
login.auth_date = Math.floor(Date.now() / 1000);
const check = Object.keys(login).sort().map((key) => key + '=' + login[key]).join('\\n');
login.hash = CryptoJS.HmacSHA256(check, CryptoJS.SHA256(pm.collectionVariables.get('telegramBotToken'))).toString(CryptoJS.enc.Hex);
pm.request.body.update(JSON.stringify(login, null, 2));`;

/** A guest of its own to expire: the chained one was converted into a user by then. */
const FRESH_GUEST_SCRIPT = `
pm.sendRequest({
  url: pm.collectionVariables.get('baseUrl') + '/v1/guests',
  method: 'POST',
  header: { 'x-api-key': pm.collectionVariables.get('apiKey'), 'Content-Type': 'application/json' },
  body: { mode: 'raw', raw: '{}' },
}, (error, answer) => {
  if (!error) pm.collectionVariables.set('guestId', answer.json().data.id);
});`;

/**
 * Portman's config: its contract tests on every operation; the API key as the collection variable
 * the generated requests send (`{{apiKey}}`); a guest signed in first (POST /v1/guests answers a
 * session) whose token the operations that act for a user send; the ids of CHAINS, with the
 * operations that use a record before the one that removes it; the wallet the user claims, its
 * shares and party; the delegated session's own token; TOTP codes and Telegram's hash made in
 * pre-request scripts from the secret setupMfa answered and the tenant's bot token.
 */
function portmanConfig(doc) {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation?.operationId)
      .map(([method, operation]) => ({ ...operation, key: `${method.toUpperCase()}::${path}`, path })),
  );
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const forUser = operations
    .filter((operation) => (operation.security ?? []).some((requirement) => 'SessionAuth' in requirement))
    .map((operation) => operation.operationId);
  const forDelegated = operations
    .filter((operation) => (operation.security ?? []).some((requirement) => 'DelegatedSessionAuth' in requirement))
    .map((operation) => operation.operationId);
  const chained = CHAINS.filter((chain) => byId.has(chain.from));
  const has = (operationId) => byId.has(operationId);
  const body = (operationId, values) =>
    has(operationId) ? [{ openApiOperationId: operationId, overwriteRequestBody: values.map(([key, value]) => ({ key, value, overwrite: true })) }] : [];
  const preRequest = (operationIds, script) => {
    const present = operationIds.filter(has);
    return present.length === 0 ? [] : [{ openApiOperationIds: present, scripts: [script] }];
  };
  return {
    version: 1.0,
    tests: {
      contractTests: [
        {
          openApiOperation: '*::/*',
          statusSuccess: { enabled: true },
          contentType: { enabled: true },
          jsonBody: { enabled: true },
          schemaValidation: { enabled: true },
          headersPresent: { enabled: true },
        },
      ],
    },
    assignVariables: [
      { openApiOperationId: 'createGuest', collectionVariables: [{ responseBodyProp: 'data.session.token', name: 'sessionToken' }] },
      // Converting the guest ends its session and answers the user's own: the operations after it act for that user.
      { openApiOperationId: 'convertGuest', collectionVariables: [{ responseBodyProp: 'data.session.token', name: 'sessionToken' }] },
      ...chained
        .filter((chain) => chain.name !== undefined)
        .map((chain) => ({ openApiOperationId: chain.from, collectionVariables: [{ responseBodyProp: 'data.id', name: chain.name }] })),
      // The wallet that user claims: its party, and the two shares it answers once.
      {
        openApiOperationId: 'createWallet',
        collectionVariables: [
          { responseBodyProp: 'data.partyId', name: 'partyId' },
          { responseBodyProp: 'data.deviceShare', name: 'deviceShare' },
          { responseBodyProp: 'data.recoveryShare', name: 'recoveryShare' },
        ],
      },
      { openApiOperationId: 'createDelegatedSession', collectionVariables: [{ responseBodyProp: 'data.token', name: 'delegatedToken' }] },
      { openApiOperationId: 'setupMfa', collectionVariables: [{ responseBodyProp: 'data.secret', name: 'mfaSecret' }] },
      { openApiOperationId: 'createMfaChallenge', collectionVariables: [{ responseBodyProp: 'data.challengeId', name: 'mfaChallengeId' }] },
    ].filter((assignment) => has(assignment.openApiOperationId)),
    operationPreRequestScripts: [
      ...preRequest(['verifyMfaSetup', 'verifyMfa'], TOTP_SCRIPT),
      ...preRequest(['verifyTelegramAuth'], TELEGRAM_SCRIPT),
      ...preRequest(['expireGuest'], FRESH_GUEST_SCRIPT),
    ],
    overwrites: [
      ...(forUser.length === 0
        ? []
        : [
            {
              openApiOperationIds: forUser,
              overwriteRequestHeaders: [
                // Postman takes one auth per request, and these need two: the key and the session.
                { key: 'x-api-key', value: '{{apiKey}}' },
                { key: 'Authorization', value: 'Bearer {{sessionToken}}' },
              ],
            },
          ]),
      ...(forDelegated.length === 0
        ? []
        : [
            {
              openApiOperationIds: forDelegated,
              overwriteRequestHeaders: [
                // The delegated session acts with its own token, which its create answered.
                { key: 'x-api-key', value: '{{apiKey}}' },
                { key: 'Authorization', value: 'Bearer {{delegatedToken}}' },
              ],
            },
          ]),
      ...chained
        .filter((chain) => chain.name !== undefined)
        .flatMap((chain) =>
          chain.to
            .filter((operationId) => has(operationId) && /\{[^}]+\}/.test(byId.get(operationId).path))
            .map((operationId) => ({
              openApiOperationId: operationId,
              overwriteRequestPathVariables: [
                { key: byId.get(operationId).path.match(/\{([^}]+)\}/)?.[1] ?? 'id', value: `{{${chain.name}}}`, overwrite: true },
              ],
            })),
        ),
      ...body('createDelegatedSession', [['walletId', '{{walletId}}']]),
      ...body('executeTransaction', [
        ['command.create.payload.issuer', '{{partyId}}'],
        ['command.create.payload.owner', '{{partyId}}'],
      ]),
      ...body('storeKeyShare', [
        ['walletId', '{{walletId}}'],
        ['share', '{{deviceShare}}'],
      ]),
      ...body('recoverKey', [
        ['walletId', '{{walletId}}'],
        ['shares', ['{{deviceShare}}', '{{recoveryShare}}']],
      ]),
      ...body('verifyMfaSetup', [['code', '{{totpCode}}']]),
      ...body('verifyMfa', [
        ['challengeId', '{{mfaChallengeId}}'],
        ['code', '{{totpCode}}'],
      ]),
    ],
    globals: {
      collectionVariables: { apiKey: API_KEY, telegramBotToken: telegramBotToken() },
      orderOfFolders: FOLDERS,
      orderOfOperations: [
        'POST::/v1/guests',
        ...chained
          .flatMap((chain) => [chain.from, ...chain.to])
          .map((operationId) => byId.get(operationId)?.key)
          .filter(Boolean),
      ],
    },
  };
}

/** Portman: generated contract tests, run by Newman; the count of assertions. */
async function portman(documentFile, origin, dir) {
  const config = join(dir, 'portman-config.json');
  writeFileSync(config, JSON.stringify(portmanConfig(JSON.parse(readFileSync(documentFile, 'utf8'))), null, 2));
  const report = join(dir, 'newman.json');
  // Portman stops Newman at the first failed assertion unless told otherwise: every assertion is counted here.
  writeFileSync(join(dir, 'newman-options.json'), JSON.stringify({ reporters: ['json'], reporter: { json: { export: report } }, abortOnFailure: false }));
  const proc = run(
    bin('portman'),
    [
      '--local',
      documentFile,
      '--baseUrl',
      origin,
      '--portmanConfigFile',
      config,
      '--output',
      join(dir, 'collection.json'),
      '--runNewman',
      '--newmanOptionsFile',
      join(dir, 'newman-options.json'),
      '--syncPostman',
      'false',
    ],
    { cwd: dir },
  );
  const { output } = await proc.exited;
  if (!existsSync(report)) return { passed: 0, total: 0, note: `no Newman report: ${output.slice(-400)}` };
  const { run: newman } = JSON.parse(readFileSync(report, 'utf8'));
  const { total, failed } = newman.stats.assertions;
  // What the requests whose assertions failed were answered: status and code, with the first few operations.
  const failedItems = new Set(newman.failures.map((failure) => failure.source?.name));
  const byAnswer = new Map();
  for (const execution of newman.executions ?? []) {
    if (!failedItems.has(execution.item?.name)) continue;
    let code = '';
    try {
      code = JSON.parse(Buffer.from(execution.response?.stream?.data ?? []).toString('utf8')).code ?? '';
    } catch {
      // not JSON: the status says enough
    }
    const key = `${execution.response?.code ?? 'no answer'} ${code}`.trim();
    byAnswer.set(key, [...(byAnswer.get(key) ?? []), execution.item?.name]);
  }
  const note = [...byAnswer]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([answer, names]) => `${names.length}× ${answer} (${names.slice(0, 2).join(', ')}${names.length > 2 ? ' …' : ''})`)
    .join('; ');
  return { passed: total - failed, total, note };
}

/** A value for a parameter: its example, its schema's example or default, or a placeholder. */
function parameterValue(parameter) {
  const schema = parameter.schema ?? {};
  const value = parameter.example ?? Object.values(parameter.examples ?? {})[0]?.value ?? schema.example ?? schema.default ?? schema.enum?.[0];
  return value === undefined ? 'x' : String(value);
}

/** The first example of a media type: `example`, else the first of `examples`. */
const exampleOf = (media) =>
  media?.example !== undefined ? { value: media.example } : Object.entries(media?.examples ?? {}).map(([name, entry]) => ({ name, value: entry.value }))[0];

/** Every answer the document has an example of, for Prism to give back: a request to make and the body it must answer. */
function expectations(doc) {
  const resolve = (response) => (response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response);
  const cases = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
      let path = template.replace(/\{([^}]+)\}/g, (_, name) =>
        encodeURIComponent(parameterValue(parameters.find((p) => p.in === 'path' && p.name === name) ?? {})),
      );
      const query = parameters
        .filter((p) => p.in === 'query' && p.required)
        .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(parameterValue(p))}`);
      if (query.length > 0) path += `?${query.join('&')}`;
      const bodyMedia = operation.requestBody?.content?.['application/json'];
      const body =
        exampleOf(bodyMedia)?.value ?? (bodyMedia?.schema?.$ref ? doc.components.schemas[bodyMedia.schema.$ref.split('/').pop()]?.example : undefined);
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = resolve(response).content?.['application/json'];
        if (!media) continue;
        const named = Object.entries(media.examples ?? {});
        const examples = named.length > 0 ? named.map(([name, entry]) => ({ name, value: entry.value })) : [exampleOf(media) ?? { value: undefined }];
        for (const example of examples)
          cases.push({ operationId: operation.operationId, method: method.toUpperCase(), path, body, status: Number(status), example });
      }
    }
  }
  return cases;
}

/** Prism's mock: for each documented answer, asked for it, does it answer the document's example? */
async function prism(documentFile, dir) {
  const port = await freePort();
  const proc = run(bin('prism'), ['mock', documentFile, '--host', '127.0.0.1', '--port', String(port)], { cwd: dir });
  try {
    await waitFor(proc, /Prism is listening/, 120_000, 'prism mock');
    const doc = JSON.parse(readFileSync(documentFile, 'utf8'));
    const misses = new Map();
    let passed = 0;
    const cases = expectations(doc);
    for (const { operationId, method, path, body, status, example } of cases) {
      const prefer = [`code=${status}`, ...(example.name ? [`example=${example.name}`] : [])].join(', ');
      const headers = {
        'x-api-key': API_KEY,
        authorization: 'Bearer st_4f8Qm2xZb7LkP1sT9vRa',
        prefer,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      };
      const answer = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await answer.text();
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      const why =
        example.value === undefined
          ? 'no example in the document'
          : answer.status !== status
            ? `answered ${answer.status}`
            : !isDeepStrictEqual(parsed, example.value)
              ? 'not the example'
              : null;
      if (why === null) passed += 1;
      else misses.set(why, [...(misses.get(why) ?? []), `${operationId} ${status}`]);
    }
    const note = [...misses].map(([why, where]) => `${where.length}× ${why} (${where.slice(0, 3).join(', ')}${where.length > 3 ? ' …' : ''})`).join('; ');
    return { passed, total: cases.length, note };
  } finally {
    proc.child.kill('SIGTERM');
    await proc.exited;
  }
}

/** The request of an operation's examples: its path with the parameters' examples, the query's, the body's. */
function exampleRequest(template, item, method, operation) {
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
  let path = template.replace(/\{([^}]+)\}/g, (_, name) =>
    encodeURIComponent(parameterValue(parameters.find((p) => p.in === 'path' && p.name === name) ?? {})),
  );
  const query = parameters
    .filter((p) => p.in === 'query' && (p.required || p.example !== undefined || p.schema?.example !== undefined))
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(parameterValue(p))}`);
  if (query.length > 0) path += `?${query.join('&')}`;
  const body = exampleOf(operation.requestBody?.content?.['application/json'])?.value;
  return { method: method.toUpperCase(), path, body: body ?? (operation.requestBody?.required ? {} : undefined) };
}

/**
 * Prism as the contract tester, in front of the emulator (`prism proxy --errors=false`): every
 * operation's example request, sent as the document gives it (a guest signed in first for the
 * operations that act for a user), and each answer checked against the document by Prism, which
 * names what breaks it in `sl-violations`. Passed: answers with no violation.
 */
async function prismProxy(documentFile, origin, dir) {
  const port = await freePort();
  const proc = run(bin('prism'), ['proxy', documentFile, origin, '--host', '127.0.0.1', '--port', String(port), '--errors=false'], { cwd: dir });
  try {
    await waitFor(proc, /Prism is listening/, 120_000, 'prism proxy');
    const doc = JSON.parse(readFileSync(documentFile, 'utf8'));
    const send = async ({ method, path, body }, session) => {
      const headers = {
        'x-api-key': API_KEY,
        ...(session ? { authorization: `Bearer ${session}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      };
      const answer = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: answer.status, violations: answer.headers.get('sl-violations'), text: await answer.text() };
    };
    const guest = await send({ method: 'POST', path: '/v1/guests', body: {} });
    const session = JSON.parse(guest.text)?.data?.session?.token;
    let passed = 0;
    let total = 0;
    let success = 0;
    const broken = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const operation = item[method];
        if (!operation) continue;
        const forUser = (operation.security ?? []).some((requirement) => 'SessionAuth' in requirement);
        const answer = await send(exampleRequest(template, item, method, operation), forUser ? session : undefined);
        total += 1;
        if (answer.status < 300) success += 1;
        if (answer.violations === null) passed += 1;
        else broken.push(`${operation.operationId} ${answer.status}: ${answer.violations}`.slice(0, 160));
      }
    }
    return {
      passed,
      total,
      note: `${success} of ${total} answered 2xx, the rest a documented error${broken.length ? `; broke the document: ${broken.slice(0, 3).join('; ')}` : ''}`,
    };
  } finally {
    proc.child.kill('SIGTERM');
    await proc.exited;
  }
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(
      readFileSync(fileURLToPath(import.meta.url), 'utf8')
        .split('\nimport ')[0]
        .replace(/^#!.*\n/, '')
        .replace(/^\/\/ ?/gm, '') + '\n',
    );
    return;
  }
  const chosen = values.only === undefined ? TOOLS : values.only.split(',').map((tool) => tool.trim());
  const unknown = chosen.filter((tool) => !TOOLS.includes(tool));
  if (unknown.length > 0) {
    process.stderr.write(`error: unknown tool ${unknown.join(', ')}; choose from ${TOOLS.join(', ')}\n`);
    process.exit(2);
  }
  ensureTools();
  const rows = [];
  for (const tool of chosen) {
    const dir = mkdtempSync(join(tmpdir(), `svc-peer-${tool}-`));
    const svc = await startEmulator(dir);
    try {
      const documentFile = join(dir, 'openapi.json');
      writeFileSync(documentFile, await (await fetch(`${svc.origin}/v1/openapi.json`)).text());
      process.stderr.write(`peer-tools: ${tool} against ${svc.origin}…\n`);
      const runners = {
        dredd: () => dredd(documentFile, svc.origin, dir),
        'prism-proxy': () => prismProxy(documentFile, svc.origin, dir),
        portman: () => portman(documentFile, svc.origin, dir),
        prism: () => prism(documentFile, dir),
      };
      const result = await runners[tool]();
      rows.push({ tool, ...result });
    } catch (error) {
      rows.push({ tool, passed: 0, total: 0, note: `did not run: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
    } finally {
      await svc.stop();
      if (process.env.SVC_PEER_TOOLS_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
      else process.stderr.write(`peer-tools: ${tool}'s files kept in ${dir}\n`);
    }
  }
  const percent = (row) => (row.total === 0 ? '—' : `${((row.passed / row.total) * 100).toFixed(1)} %`);
  process.stdout.write(`\n| tool | passed/total | % | notes |\n|---|---|---|---|\n`);
  for (const row of rows) process.stdout.write(`| ${row.tool} | ${row.passed}/${row.total} | ${percent(row)} | ${row.note.replaceAll('|', '\\|')} |\n`);
}

main().catch((error) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
