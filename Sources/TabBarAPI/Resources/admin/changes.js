// A dry run's changes in words: tabs named by id, places as positions, values as short JSON.

import { getAt, isObject } from './document.js';

const TAB_PATH = /^((?:\/tabs\/\d+)(?:\/children\/\d+)*)(\/.*)?$/;

function short(value) {
  const text = JSON.stringify(value);
  if (text === undefined) return '(nothing)';
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function position(pointer) {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1)) + 1;
}

/** "tab "home"" for a tab's pointer, found in `doc`; the pointer itself when the tab is not there. */
function tabName(pointer, doc, fallback) {
  const tab = getAt(doc, pointer) ?? fallback;
  return isObject(tab) && typeof tab.id === 'string' ? `tab "${tab.id}"` : pointer;
}

/**
 * One sentence for a change. `doc` is the document published (where pointers of additions, changes and moves
 * point), `live` the live document (where removals point), or null.
 */
export function describeChange(change, doc, live) {
  const { kind, pointer = '', from } = change;
  const where = kind === 'removed' ? live : doc;
  const match = TAB_PATH.exec(pointer);
  if (match && !match[2]) {
    const name = tabName(pointer, where, kind === 'removed' ? change.before : change.after);
    if (kind === 'added') return `Adds ${name} at position ${position(pointer)}.`;
    if (kind === 'removed') return `Removes ${name} (was at position ${position(pointer)}).`;
    if (kind === 'moved') return `Moves ${name} from position ${position(from || pointer)} to ${position(pointer)}.`;
    return `Replaces ${name}: ${short(change.after)}.`;
  }
  const subject = match ? `${tabName(match[1], where)}: ${match[2].slice(1)}` : pointer.slice(1) || 'the document';
  if (kind === 'added') return `Sets ${subject} to ${short(change.after)}.`;
  if (kind === 'removed') return `Removes ${subject} (was ${short(change.before)}).`;
  return `Changes ${subject} from ${short(change.before)} to ${short(change.after)}.`;
}

/** Fills `list` with one item per change and answers a one-line summary of the dry run. */
export function showChanges(dryRun, list, doc, live) {
  const changes = Array.isArray(dryRun.changes) ? dryRun.changes : [];
  list.replaceChildren(...changes.map((change) => {
    const item = document.createElement('li');
    item.className = `change ${change.kind}`;
    item.textContent = describeChange(change, doc, live);
    return item;
  }));
  if (!dryRun.changed) return 'Nothing changes against the live version (a publish still makes a new version).';
  const parts = [
    ['added', dryRun.tabsAdded],
    ['removed', dryRun.tabsRemoved],
    ['changed', dryRun.tabsChanged],
  ].filter(([, ids]) => ids?.length).map(([word, ids]) => `tabs ${word}: ${ids.join(', ')}`);
  const against = dryRun.liveVersion ? `against live version ${dryRun.liveVersion}` : 'first version of this client';
  const count = `${changes.length} change${changes.length === 1 ? '' : 's'}`;
  return `${count} ${against}${parts.length ? ` (${parts.join('; ')})` : ''}.`;
}
