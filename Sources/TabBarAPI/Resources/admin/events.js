// The selected client's event stream (public server-sent events): one EventSource at a time.

let source = null;
let following = null;

/**
 * Follows `client`'s stream (kept open when it already does): onVersion(version) for each `version` event,
 * onRollout() for each `rollout` event (a staged rollout moved), onDeleted() when the client is deleted.
 */
export function follow(client, { onVersion, onRollout, onDeleted }) {
  if (source && following === client) return;
  stop();
  const stream = new EventSource(`/v1/clients/${encodeURIComponent(client)}/tabs/events`);
  source = stream;
  following = client;
  stream.addEventListener('version', (event) => {
    if (source !== stream) return;
    let version = Number(event.lastEventId);
    try {
      version = Number(JSON.parse(event.data).version) || version;
    } catch {
      // the id alone names the version
    }
    if (Number.isInteger(version) && version > 0) onVersion(version);
  });
  stream.addEventListener('rollout', () => {
    if (source === stream) onRollout?.();
  });
  stream.addEventListener('deleted', () => {
    if (source !== stream) return;
    stop();
    onDeleted();
  });
}

/** Closes the stream, if any. */
export function stop() {
  source?.close();
  source = null;
  following = null;
}
