// Review & publish: a dry run with the editor's precondition, its changes and the builds that would not show some
// tab in a dialog, then the publish itself.

import { clientPath, request } from './api.js';
import { showBuildWarnings, showChanges } from './changes.js';
import { clone } from './document.js';

/**
 * getEditor() → {client, doc, etag, jsonValid, behind (a newer version is known to be live)};
 * liveDocument(version) → the live document or null; onPublished(envelope, etag); onConflict(); onInvalid(problem);
 * onError(error); say(text, kind); setBusy(flag).
 */
export function createPublisher(options) {
  const { getEditor, liveDocument, onPublished, onConflict, onInvalid, onError, say, setBusy } = options;
  const $ = (id) => document.getElementById(id);
  const dialog = $('review-dialog');
  const noteInput = $('publish-note');
  const reviewButton = $('review-publish');
  const confirmButton = $('confirm-publish');
  let pending = null; // {client, doc, note, headers} being reviewed

  async function review() {
    const editor = getEditor();
    if (!editor.client) return;
    if (!editor.jsonValid) {
      say('Fix the JSON syntax error before publishing.', 'error');
      return;
    }
    if (editor.behind) {
      onConflict(); // the event stream already told of a newer live version: the publish would get a 412
      return;
    }
    const headers = editor.etag ? { 'If-Match': editor.etag } : { 'If-None-Match': '*' };
    const note = noteInput.value.trim();
    const doc = clone(editor.doc);
    reviewButton.disabled = true;
    try {
      const { data } = await request('PUT', clientPath(editor.client, 'config'), {
        query: { dryRun: 'true', note },
        body: doc,
        headers,
      });
      const live = await liveDocument(data.liveVersion);
      $('review-summary').textContent = showChanges(data, $('diff-list'), doc, live);
      $('review-builds').hidden = showBuildWarnings(data, $('build-warnings')) === 0;
      $('review-note').textContent = note ? `Note: ${note}` : 'No note.';
      pending = { client: editor.client, doc, note, headers };
      confirmButton.disabled = false;
      dialog.showModal();
    } catch (error) {
      failed(error);
    } finally {
      reviewButton.disabled = false;
    }
  }

  async function confirm() {
    if (!pending) return;
    const { client, doc, note, headers } = pending;
    confirmButton.disabled = true;
    setBusy(true);
    try {
      const path = clientPath(client, 'config');
      const { data, etag } = await request('PUT', path, { query: { note }, body: doc, headers });
      pending = null;
      dialog.close();
      noteInput.value = '';
      onPublished(data, etag);
      say(`Published version ${data.version}.`, 'success');
    } catch (error) {
      dialog.close();
      failed(error);
    } finally {
      setBusy(false);
    }
  }

  function failed(error) {
    if (error.status === 412) onConflict();
    else if (error.status === 422 || error.status === 400) {
      onInvalid(error.problem);
      say('The server refused the document: see the problems.', 'error');
    } else onError(error);
  }

  reviewButton.addEventListener('click', review);
  confirmButton.addEventListener('click', confirm);
  $('cancel-publish').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    pending = null;
  });
}
