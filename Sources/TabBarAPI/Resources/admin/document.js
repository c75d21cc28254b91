// The edited config document: JSON pointers (RFC 6901), deep copies, canonical comparison.

export function parsePointer(pointer) {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function formatPointer(tokens) {
  return tokens.map((token) => '/' + String(token).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** The pointer of the parent, or null for the whole document. */
export function parentPointer(pointer) {
  if (pointer === '') return null;
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

export function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value at `pointer`, or undefined. */
export function getAt(doc, pointer) {
  let node = doc;
  for (const token of parsePointer(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[token];
  }
  return node;
}

/** Objects whose emptiness means "absent": removed with their last member. */
const DROPPED_WHEN_EMPTY = new Set(['appearance', 'icon', 'localized', 'rollout', 'guard', 'parameters']);

/**
 * Sets the value at `pointer`, creating missing objects on the way; `undefined` removes the member, and then any
 * optional parent object it leaves empty.
 */
export function setAt(doc, pointer, value) {
  const tokens = parsePointer(pointer);
  const last = tokens.pop();
  const chain = [doc];
  let node = doc;
  for (const token of tokens) {
    if (!isObject(node[token]) && !Array.isArray(node[token])) {
      if (value === undefined) return;
      node[token] = {};
    }
    node = node[token];
    chain.push(node);
  }
  if (value !== undefined) {
    node[last] = value;
    return;
  }
  if (Array.isArray(node)) return;
  delete node[last];
  for (let i = tokens.length - 1; i >= 0; i -= 1) {
    const child = chain[i + 1];
    if (!isObject(child) || Object.keys(child).length > 0 || !DROPPED_WHEN_EMPTY.has(tokens[i])) break;
    delete chain[i][tokens[i]];
  }
}

export function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** JSON with object members sorted by key: two documents are equal when their canonical forms are. */
export function canonical(value) {
  return JSON.stringify(value, (key, member) => {
    if (!isObject(member)) return member;
    return Object.fromEntries(Object.keys(member).sort().map((name) => [name, member[name]]));
  });
}

/** The top-level tabs that are objects, with their index. */
export function topLevelTabs(doc) {
  const tabs = Array.isArray(doc?.tabs) ? doc.tabs : [];
  return tabs.map((tab, index) => ({ tab, index })).filter(({ tab }) => isObject(tab));
}

/** Every locale the document names: its default locale first, then the titles' translations, sorted. */
export function localesOf(doc) {
  const defaultLocale = typeof doc?.defaultLocale === 'string' && doc.defaultLocale ? doc.defaultLocale : 'en';
  const found = new Set();
  const visit = (tabs) => {
    if (!Array.isArray(tabs)) return;
    for (const tab of tabs) {
      if (!isObject(tab)) continue;
      if (isObject(tab.title) && isObject(tab.title.localized)) {
        Object.keys(tab.title.localized).forEach((tag) => found.add(tag));
      }
      visit(tab.children);
    }
  };
  visit(doc?.tabs);
  found.delete(defaultLocale);
  return [defaultLocale, ...[...found].sort()];
}

/** A small valid document for a new client. */
export function starterDocument() {
  const tab = (id, title, image, name) => ({
    id,
    title: { default: title },
    icon: { image },
    destination: { type: 'viewController', name, embedInNavigationController: true },
  });
  return {
    tabs: [
      tab('home', 'Home', 'house', 'HomeViewController'),
      tab('settings', 'Settings', 'gear', 'SettingsViewController'),
    ],
    maxVisibleTabs: 5,
    initialTab: 'home',
    defaultLocale: 'en',
  };
}
