// The console's wiring: sign-in, the client list, the editor's state, and what each answer changes on the page.

import { clientPath, forgetKey, request, storedKey, storeKey } from './api.js';
import { canonical, clone, localesOf, starterDocument } from './document.js';
import * as events from './events.js';
import { createForm } from './form.js';
import { createHistory } from './history.js';
import { createRollouts } from './rollouts.js';
import { createJsonEditor } from './json-editor.js';
import { createPreview } from './preview.js';
import { createProblems } from './problems.js';
import { createPublisher } from './publish.js';

const $ = (id) => document.getElementById(id);
const CLIENT_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
const REFRESH_MS = 15000;

const state = {
  clients: [], // [{client, version, publishedAt}]
  client: null, // the client in the editor
  version: 0, // the version loaded into the editor; 0 for a client not published yet
  etag: null, // that version's ETag
  liveVersion: 0, // the newest version known to be live
  doc: null, // the edited document
  base: null, // the document as loaded (null: never published)
  lastProblem: null, // the problem document shown, and the document it is about
  problemKey: null,
  busy: false, // a publish or rollback is under way: events wait for it
  pendingVersion: null,
  opening: 0, // counts client loads; only the newest applies
  refreshTimer: null,
};

const editor = $('editor');

// --- status -----------------------------------------------------------------------------------------------------

function say(text, kind = 'info') {
  const status = $('status');
  status.textContent = text;
  status.dataset.kind = kind;
}

function failed(error) {
  if (error.status === 401) signOut('The admin key was rejected: sign in again.');
  else if (error.status === 403) say(`This key may not do that: ${error.message}`, 'error');
  else say(error.message || String(error), 'error');
}

// --- editor state -----------------------------------------------------------------------------------------------

const form = createForm({
  tabList: $('tab-list'),
  addTab: $('add-tab'),
  configFields: $('config-fields'),
  getDoc: () => state.doc,
  onEdit: ({ structural, focus }) => {
    if (structural) renderForm(focus);
    json.show(state.doc);
    documentChanged();
  },
});

const problems = createProblems({ scope: $('form-view'), tabList: $('tab-list'), list: $('problems') });

const json = createJsonEditor({
  textarea: $('json-editor'),
  error: $('json-error'),
  onValid: (doc) => {
    state.doc = doc;
    renderForm();
    documentChanged();
  },
  onInvalid: () => {
    preview.cancel('error');
    updateDirty();
  },
});

const preview = createPreview({
  getClient: () => state.client,
  getDoc: () => state.doc,
  onResult: ({ ok, status, problem }) => {
    if (ok) {
      state.lastProblem = null;
      state.problemKey = null;
      problems.clear();
    } else if (status === 422 || status === 400) {
      state.lastProblem = problem;
      state.problemKey = canonical(state.doc);
      problems.show(problem);
    } else failed({ status, message: problem?.detail || 'The preview failed.' });
  },
});

/** Draws the form again, with the problems still shown when they are about this very document. */
function renderForm(focus) {
  form.render(focus);
  if (state.lastProblem && state.problemKey === canonical(state.doc)) problems.show(state.lastProblem);
}

function isDirty() {
  return !json.valid || state.base === null || canonical(state.doc) !== canonical(state.base);
}

function updateDirty() {
  const dirty = state.client !== null && isDirty();
  editor.dataset.dirty = String(dirty);
  const where = state.version ? `version ${state.version}` : 'not published yet';
  $('editor-state').textContent = state.client ? `${state.client} · ${where}${dirty ? ' · unsaved edits' : ''}` : '';
}

function documentChanged() {
  updateDirty();
  preview.setLocales(localesOf(state.doc));
  preview.schedule();
}

/** Puts a document into the editor. */
function openDocument({ client, version, etag, doc }) {
  state.client = client;
  state.version = version;
  state.etag = etag;
  state.doc = doc;
  state.base = version ? clone(doc) : null;
  state.lastProblem = null;
  state.problemKey = null;
  state.liveVersion = Math.max(version, state.liveVersion);
  editor.dataset.client = client;
  editor.dataset.version = String(version);
  $('editor-empty').hidden = true;
  $('editor-body').hidden = false;
  $('remote-publish').hidden = true;
  problems.clear();
  renderForm();
  json.show(doc);
  updateDirty();
  markSelectedClient();
  preview.setLocales(localesOf(doc));
  preview.schedule(0);
}

function closeEditor() {
  state.opening += 1;
  Object.assign(state, { client: null, version: 0, etag: null, liveVersion: 0, doc: null, base: null });
  state.lastProblem = null;
  events.stop();
  preview.reset();
  historyPanel.clear('');
  rolloutsPanel.clear('');
  editor.dataset.client = '';
  editor.dataset.version = '0';
  $('editor-empty').hidden = false;
  $('editor-body').hidden = true;
  $('remote-publish').hidden = true;
  updateDirty();
  markSelectedClient();
}

/** Loads the client's live version into the editor and follows its event stream. */
async function selectClient(client) {
  const mine = (state.opening += 1);
  try {
    const { data, etag } = await request('GET', clientPath(client, 'config'));
    if (mine !== state.opening) return;
    if (state.client !== client) {
      events.stop();
      preview.reset();
      state.liveVersion = 0;
    }
    openDocument({ client, version: data.version, etag, doc: data.config });
    historyPanel.load();
    rolloutsPanel.load();
    follow(client);
  } catch (error) {
    if (mine !== state.opening) return;
    if (error.status === 404) {
      say(`${client} has no published config.`, 'error');
      refreshClients();
    } else failed(error);
  }
}

/** The document of the live version: the editor's base when that is it, else read from the server. */
async function liveDocument(version) {
  if (!version) return null;
  if (version === state.version && state.base) return state.base;
  const { data } = await request('GET', clientPath(state.client, 'config', 'versions', String(version)));
  return data.config;
}

/** A publish or rollback of ours went live: the editor, list and history show it; a new client is followed. */
function published(envelope, etag) {
  state.liveVersion = envelope.version;
  openDocument({ client: envelope.client || state.client, version: envelope.version, etag, doc: envelope.config });
  refreshClients();
  historyPanel.load();
  rolloutsPanel.load();
  follow(state.client);
}

function setBusy(busy) {
  state.busy = busy;
  if (!busy && state.pendingVersion !== null) {
    const version = state.pendingVersion;
    state.pendingVersion = null;
    remoteVersion(version);
  }
}

// --- event stream -----------------------------------------------------------------------------------------------

function follow(client) {
  events.follow(client, {
    onVersion: remoteVersion,
    onRollout: () => rolloutsPanel.load(),
    onDeleted: () => {
      say(`${client} was deleted.`, 'error');
      closeEditor();
      refreshClients();
    },
  });
}

/** A version went live (the first event names the live one). */
function remoteVersion(version) {
  if (state.busy) {
    state.pendingVersion = version;
    return;
  }
  if (version <= state.liveVersion && version <= state.version) return;
  const isNew = version > state.liveVersion;
  state.liveVersion = Math.max(state.liveVersion, version);
  if (isNew) {
    refreshClients();
    historyPanel.load();
    rolloutsPanel.load();
  }
  if (version <= state.version) return;
  if (!isDirty()) {
    selectClient(state.client);
    say(`Version ${version} was published by someone else; the editor shows it.`, 'info');
  } else {
    showRemotePublish(version);
    preview.schedule(0);
  }
}

function showRemotePublish(version) {
  $('remote-publish-text').textContent = `Version ${version} was published by someone else.`;
  $('remote-publish').hidden = false;
}

$('load-live').addEventListener('click', () => {
  $('remote-publish').hidden = true;
  if (state.client) selectClient(state.client);
});

// --- client list ------------------------------------------------------------------------------------------------

function renderClients() {
  const list = $('clients');
  list.replaceChildren(...state.clients.map(({ client, version }) => {
    const item = document.createElement('li');
    item.dataset.client = client;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'select-client';
    button.textContent = client;
    button.addEventListener('click', () => selectClient(client));
    const badge = document.createElement('span');
    badge.className = 'version';
    badge.textContent = `v${version}`;
    item.append(button, badge);
    return item;
  }));
  if (!state.clients.length) {
    const item = document.createElement('li');
    item.className = 'muted';
    item.textContent = 'No clients yet.';
    list.append(item);
  }
  markSelectedClient();
}

function markSelectedClient() {
  for (const item of $('clients').children) {
    if (item.dataset.client && item.dataset.client === state.client) item.setAttribute('aria-current', 'true');
    else item.removeAttribute('aria-current');
  }
}

async function refreshClients() {
  try {
    const { data } = await request('GET', '/v1/clients');
    state.clients = data.clients;
    renderClients();
  } catch (error) {
    failed(error);
  }
}

$('new-client-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('new-client');
  const error = $('new-client-error');
  const client = input.value.trim();
  if (!CLIENT_PATTERN.test(client)) {
    error.textContent = 'A client id is 1 to 63 lower-case letters, digits and hyphens, '
      + 'starting with a letter or digit.';
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'new-client-error');
    input.focus();
    return;
  }
  error.textContent = '';
  input.removeAttribute('aria-invalid');
  input.removeAttribute('aria-describedby');
  input.value = '';
  if (state.clients.some((entry) => entry.client === client)) {
    selectClient(client);
    return;
  }
  state.opening += 1;
  events.stop();
  preview.reset();
  state.liveVersion = 0;
  openDocument({ client, version: 0, etag: null, doc: starterDocument() });
  historyPanel.clear('Not published yet.');
  say(`New client ${client}: edit its first config, then publish it.`, 'info');
});

// --- views ------------------------------------------------------------------------------------------------------

function showView(name) {
  $('form-view').hidden = name !== 'form';
  $('json-view').hidden = name !== 'json';
  $('show-form').setAttribute('aria-pressed', String(name === 'form'));
  $('show-json').setAttribute('aria-pressed', String(name === 'json'));
}
$('show-form').addEventListener('click', () => showView('form'));
$('show-json').addEventListener('click', () => showView('json'));

// --- publish and history ----------------------------------------------------------------------------------------

const rolloutsPanel = createRollouts({ getClient: () => state.client, onError: failed, say });

const historyPanel = createHistory({
  getClient: () => state.client,
  isDirty,
  liveDocument,
  onRolledBack: published,
  onError: failed,
  say,
  setBusy,
});

createPublisher({
  getEditor: () => ({
    client: state.client,
    doc: state.doc,
    etag: state.etag,
    jsonValid: json.valid,
    behind: state.version > 0 && state.liveVersion > state.version,
  }),
  liveDocument,
  onPublished: published,
  onConflict: async () => {
    say('Someone else published while you were editing: nothing was published.', 'error');
    try {
      const { data } = await request('GET', clientPath(state.client, 'config'));
      state.liveVersion = Math.max(state.liveVersion, data.version);
      showRemotePublish(data.version);
    } catch (error) {
      failed(error);
    }
  },
  onInvalid: (problem) => {
    state.lastProblem = problem;
    state.problemKey = canonical(state.doc);
    problems.show(problem);
  },
  onError: failed,
  say,
  setBusy,
});

// --- sign-in ----------------------------------------------------------------------------------------------------

function enterConsole(clients) {
  $('sign-in').hidden = true;
  $('console').hidden = false;
  $('sign-out').hidden = false;
  state.clients = clients;
  renderClients();
  clearInterval(state.refreshTimer);
  state.refreshTimer = setInterval(refreshClients, REFRESH_MS);
}

function signOut(message = '') {
  forgetKey();
  clearInterval(state.refreshTimer);
  closeEditor();
  state.clients = [];
  renderClients();
  say('');
  $('console').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = message;
  $('admin-key').value = '';
  $('admin-key').focus();
}

$('sign-out').addEventListener('click', () => signOut());

$('sign-in').addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = $('admin-key').value.trim();
  const error = $('sign-in-error');
  if (!key) {
    error.textContent = 'Enter an admin key.';
    return;
  }
  $('sign-in-button').disabled = true;
  try {
    const { data } = await request('GET', '/v1/clients', { key });
    storeKey(key);
    $('admin-key').value = '';
    error.textContent = '';
    enterConsole(data.clients);
  } catch (err) {
    if (err.status === 401) error.textContent = 'This key is not accepted.';
    else if (err.status === 403) error.textContent = 'This key may not read configs.';
    else error.textContent = err.message;
  } finally {
    $('sign-in-button').disabled = false;
  }
});

async function start() {
  if (!storedKey()) return;
  $('sign-in').hidden = true;
  try {
    const { data } = await request('GET', '/v1/clients');
    enterConsole(data.clients);
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      signOut('The stored admin key is no longer accepted: sign in again.');
    } else {
      $('sign-in').hidden = false;
      $('sign-in-error').textContent = error.message;
    }
  }
}

start();
