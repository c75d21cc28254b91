// The selected client's versions, newest first, and rolling back to an older one.

import { clientPath, request } from './api.js';
import { showChanges } from './changes.js';

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function when(instant) {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? String(instant ?? '') : date.toLocaleString();
}

/**
 * getClient() names the client; isDirty() tells whether the editor has unsaved edits; liveDocument(version);
 * onRolledBack(envelope, etag); onError(error); say(text, kind); setBusy(flag).
 */
export function createHistory({ getClient, isDirty, liveDocument, onRolledBack, onError, say, setBusy }) {
  const $ = (id) => document.getElementById(id);
  const list = $('history');
  const empty = $('history-empty');
  const dialog = $('rollback-dialog');
  const noteInput = $('rollback-note');
  const confirmButton = $('confirm-rollback');
  let loading = 0;
  let pending = null; // {client, version, etag}

  /** Loads and shows the client's versions (nothing for a client not published yet). */
  async function load() {
    const client = getClient();
    const mine = (loading += 1);
    if (!client) {
      clear('');
      return;
    }
    try {
      const { data } = await request('GET', clientPath(client, 'config', 'versions'));
      if (mine !== loading || client !== getClient()) return;
      render(data);
    } catch (error) {
      if (mine !== loading) return;
      if (error.status === 404) clear('Not published yet.');
      else onError(error);
    }
  }

  function clear(text) {
    loading += 1;
    list.replaceChildren();
    empty.textContent = text;
  }

  function render({ live, versions }) {
    empty.textContent = versions.length ? '' : 'No versions.';
    list.replaceChildren(...versions.map((entry) => {
      const item = make('li', 'version-entry');
      item.dataset.version = String(entry.version);
      const head = make('div', 'version-head');
      head.append(make('strong', '', `v${entry.version}`), make('time', 'muted', when(entry.publishedAt)));
      if (entry.version === live) {
        item.setAttribute('aria-current', 'true');
        head.append(make('span', 'live-badge', 'live'));
      }
      item.append(head);
      if (entry.rollbackOf) item.append(make('p', 'muted', `rollback of ${entry.rollbackOf}`));
      if (entry.note) item.append(make('p', 'note', entry.note));
      if (entry.version !== live) {
        const button = make('button', 'secondary small rollback', 'Rollback');
        button.type = 'button';
        button.setAttribute('aria-label', `Roll back to version ${entry.version}`);
        button.addEventListener('click', () => review(entry.version, button));
        item.append(button);
      }
      return item;
    }));
  }

  /** Shows what rolling back to `version` would change against the live version. */
  async function review(version, button) {
    const client = getClient();
    button.disabled = true;
    try {
      const { data: envelope } = await request('GET', clientPath(client, 'config', 'versions', String(version)));
      const { data: dryRun } = await request('PUT', clientPath(client, 'config'), {
        query: { dryRun: 'true' },
        body: envelope.config,
      });
      const live = await liveDocument(dryRun.liveVersion);
      const summary = showChanges(dryRun, $('rollback-diff'), envelope.config, live);
      const next = dryRun.liveVersion + 1;
      $('rollback-summary').textContent =
        `Publishes a copy of version ${version} as version ${next}. ${summary}` +
        (isDirty() ? ' Your unsaved edits in the editor will be replaced.' : '');
      noteInput.value = '';
      noteInput.placeholder = `Why roll back to version ${version}?`;
      pending = { client, version, etag: dryRun.liveETag };
      confirmButton.disabled = false;
      dialog.showModal();
    } catch (error) {
      onError(error);
    } finally {
      button.disabled = false;
    }
  }

  async function confirm() {
    if (!pending) return;
    const { client, version, etag } = pending;
    const note = noteInput.value.trim();
    confirmButton.disabled = true;
    setBusy(true);
    try {
      const { data, etag: newTag } = await request('POST', clientPath(client, 'config', 'rollback'), {
        body: note ? { version, note } : { version },
        headers: etag ? { 'If-Match': etag } : {},
      });
      pending = null;
      dialog.close();
      onRolledBack(data, newTag);
      say(`Rolled back to version ${version}: version ${data.version} is live.`, 'success');
    } catch (error) {
      dialog.close();
      if (error.status === 412) {
        say('Someone else published meanwhile: review the rollback again.', 'error');
        load();
      } else onError(error);
    } finally {
      setBusy(false);
    }
  }

  confirmButton.addEventListener('click', confirm);
  $('cancel-rollback').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    pending = null;
  });

  return { load, clear };
}
