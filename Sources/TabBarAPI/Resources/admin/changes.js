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

/**
 * Fills `list` with the dry run's build warnings (`builds`: each registered build's tabs it cannot open, then
 * `unopenable`: tabs no registered build can open) and answers how many there are.
 */
export function showBuildWarnings(dryRun, list) {
  const items = [];
  for (const build of Array.isArray(dryRun.builds) ? dryRun.builds : []) {
    const name = `${build.platform} ${build.appVersion}${build.buildNumber ? ` (build ${build.buildNumber})` : ''}`;
    for (const tab of build.tabs) {
      const item = document.createElement('li');
      item.className = 'build-warning';
      item.dataset.build = `${build.platform} ${build.appVersion}`;
      item.dataset.tabId = tab.id;
      item.textContent = `${name} will not show tab "${tab.id}": it ${tab.reason} (${tab.missingPointer}).`;
      items.push(item);
    }
  }
  for (const tab of Array.isArray(dryRun.unopenable) ? dryRun.unopenable : []) {
    const item = document.createElement('li');
    item.className = 'build-warning unopenable';
    item.dataset.tabId = tab.id;
    item.textContent = `No registered build can open tab "${tab.id}" (${tab.missingPointer}).`;
    items.push(item);
  }
  list.replaceChildren(...items);
  return items.length;
}
