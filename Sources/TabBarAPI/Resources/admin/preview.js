// The live preview: posts the edited document to the server's preview endpoint (which also validates it) and
// draws the tab bar it resolves, in a phone-shaped frame. Every server string is set with textContent.

import { ApiError, clientPath, request } from './api.js';
import { iconElement } from './icons.js';

const MORE = Symbol('more');
const SYSTEM_BLUE = '#007AFF';
const SYSTEM_GRAY = '#8E8E93';
const CONTROL_OF_PARAMETER = {
  locale: 'preview-locale',
  platform: 'preview-platform',
  appVersion: 'preview-app-version',
  user: 'preview-user',
};

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * getClient() and getDoc() name what to preview; onResult({ok, problem, status}) is told each answer that is
 * still the newest (ok: the document is valid; else the problem document of a 400 or 422).
 */
export function createPreview({ getClient, getDoc, onResult }) {
  const $ = (id) => document.getElementById(id);
  const root = $('preview');
  const phone = $('phone');
  const bar = $('preview-bar');
  const moreList = $('preview-more-list');
  const screenTitle = $('preview-screen-title');
  const content = $('preview-content');
  const meta = $('preview-meta');
  const message = $('preview-message');
  const controls = {
    locale: $('preview-locale'),
    platform: $('preview-platform'),
    appVersion: $('preview-app-version'),
    user: $('preview-user'),
  };

  let sequence = 0;
  let timer = null;
  let inFlight = null;
  let renders = 0;
  let last = null; // the last explanation drawn
  let picked = null; // the tab (or MORE) the admin clicked

  controls.locale.addEventListener('change', () => schedule(0));
  controls.platform.addEventListener('change', () => schedule(0));
  controls.appVersion.addEventListener('input', () => schedule());
  controls.user.addEventListener('input', () => schedule());

  /** Asks the server again after `delay` ms; a newer call replaces a pending one. */
  function schedule(delay = 250) {
    clearTimeout(timer);
    sequence += 1;
    root.dataset.state = 'loading';
    timer = setTimeout(run, delay);
  }

  /** Drops any pending or running request (the editor is closing or cannot be previewed). */
  function cancel(state = 'loading') {
    clearTimeout(timer);
    sequence += 1;
    inFlight?.abort();
    inFlight = null;
    root.dataset.state = state;
  }

  async function run() {
    const client = getClient();
    const doc = getDoc();
    if (!client || !doc) return;
    const mine = sequence;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const query = {
      locale: controls.locale.value,
      platform: controls.platform.value,
      appVersion: controls.appVersion.value.trim(),
      user: controls.user.value.trim(),
    };
    try {
      const { data } = await request('POST', clientPath(client, 'config', 'preview'), {
        query,
        body: doc,
        signal: controller.signal,
      });
      if (mine !== sequence) return;
      markParameters([]);
      render(data);
      onResult({ ok: true });
    } catch (error) {
      if (error.name === 'AbortError' || mine !== sequence) return;
      root.dataset.state = 'error';
      phone.classList.add('stale');
      const problem = error instanceof ApiError ? error.problem : null;
      const parameters = (problem?.errors || []).map((e) => e?.parameter).filter(Boolean);
      markParameters(parameters);
      message.textContent = error.status === 422
        ? 'The document has problems: the preview shows the last valid one.'
        : parameters.length
          ? 'A preview setting is not valid.'
          : `No preview: ${error.message}`;
      onResult({ ok: false, status: error.status, problem: problem || { detail: error.message } });
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  function markParameters(names) {
    for (const [parameter, id] of Object.entries(CONTROL_OF_PARAMETER)) {
      if (names.includes(parameter)) $(id).setAttribute('aria-invalid', 'true');
      else $(id).removeAttribute('aria-invalid');
    }
  }

  function render(explanation) {
    last = explanation;
    renders += 1;
    message.textContent = '';
    phone.classList.remove('stale');
    draw();
    root.dataset.version = String(explanation.version ?? '');
    root.dataset.render = String(renders);
    root.dataset.state = 'ready';
  }

  /** Draws the last explanation with the current selection. */
  function draw() {
    const tabBar = last?.tabBar || {};
    const tabs = Array.isArray(tabBar.tabs) ? tabBar.tabs : [];
    const inBar = tabs.filter((tab) => tab.placement !== 'more');
    const inMore = tabs.filter((tab) => tab.placement === 'more');
    const exists = (id) => tabs.some((tab) => tab.id === id);
    if (!(picked === MORE ? inMore.length > 0 : picked !== null && exists(picked))) picked = null;
    const selected = picked ?? (exists(tabBar.initialTab) ? tabBar.initialTab : inBar[0]?.id ?? null);
    const selectedTab = tabs.find((tab) => tab.id === selected) || null;
    const moreSelected = selected === MORE || inMore.includes(selectedTab);

    const appearance = tabBar.appearance || {};
    phone.style.setProperty('--selected-tint', appearance.selectedTintColor || appearance.tintColor || SYSTEM_BLUE);
    phone.style.setProperty('--unselected-tint', appearance.unselectedTintColor || SYSTEM_GRAY);

    bar.replaceChildren(...inBar.map((tab) => barItem(tab, tab === selectedTab)));
    if (inMore.length) {
      const more = barItem({ id: null, title: 'More', icon: { image: 'ellipsis' }, enabled: true }, moreSelected);
      more.className = 'preview-more';
      more.removeAttribute('data-tab-id');
      bar.append(more);
    }
    moreList.replaceChildren(...inMore.map(moreItem));
    moreList.hidden = selected !== MORE;

    screenTitle.textContent = selected === MORE ? 'More' : selectedTab?.title ?? '';
    content.replaceChildren(...(selectedTab ? screen(selectedTab) : []));
    content.hidden = !selectedTab;
    drawMeta(tabBar);
  }

  function barItem(tab, isSelected) {
    const item = make('li', 'preview-tab');
    item.setAttribute('role', 'tab');
    item.tabIndex = 0;
    item.setAttribute('aria-selected', String(isSelected));
    if (tab.id !== null) item.dataset.tabId = tab.id;
    if (tab.enabled === false) {
      item.classList.add('disabled');
      item.setAttribute('aria-disabled', 'true');
    }
    item.append(iconBox(tab, isSelected), make('span', 'title', tab.title ?? ''));
    const choose = () => {
      if (tab.enabled === false) return;
      picked = tab.id === null ? MORE : tab.id;
      draw();
      const selector = tab.id === null ? '.preview-more' : `[data-tab-id="${CSS.escape(tab.id)}"]`;
      bar.querySelector(selector)?.focus();
    };
    item.addEventListener('click', choose);
    item.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        choose();
      }
    });
    return item;
  }

  function iconBox(tab, isSelected) {
    const box = make('span', 'icon');
    const name = isSelected && tab.icon?.selectedImage ? tab.icon.selectedImage : tab.icon?.image;
    box.append(iconElement(name, tab.title || tab.id || '?'));
    if (typeof tab.badge === 'string' && tab.badge !== '') box.append(make('span', 'badge', tab.badge));
    return box;
  }

  function moreItem(tab) {
    const item = make('li');
    item.dataset.tabId = tab.id;
    const button = make('button', 'more-row');
    button.type = 'button';
    button.disabled = tab.enabled === false;
    button.append(iconBox(tab, false), make('span', 'title', tab.title ?? ''), make('span', 'chevron', '›'));
    button.addEventListener('click', () => {
      picked = tab.id;
      draw();
    });
    item.append(button);
    return item;
  }

  /** The screen a tab opens: where it goes, and its own sub-sections. */
  function screen(tab) {
    const parts = [];
    const destination = tab.destination || {};
    const target = destination.type === 'url'
      ? destination.url
      : [destination.name, destination.identifier].filter(Boolean).join(' · ');
    parts.push(make('p', 'destination', `${destination.type ?? 'destination'}: ${target || '—'}`));
    if (Array.isArray(tab.children) && tab.children.length) {
      const strip = make('ul', 'children');
      strip.append(...tab.children.map((child) => make('li', '', child.title ?? child.id)));
      parts.push(strip);
    }
    if (tab.enabled === false) parts.push(make('p', 'muted', 'This tab is disabled.'));
    if (tab.deprecated) parts.push(make('p', 'muted', `Deprecated (${tab.deprecated}).`));
    return parts;
  }

  function drawMeta(tabBar) {
    const rows = [
      ['Version', `${last.version} (what a publish would create)`],
      ['Locale', tabBar.locale ?? ''],
      ['Visible tabs', `at most ${tabBar.maxVisibleTabs ?? '—'}`],
      ['Experiment', tabBar.experiment ? `${tabBar.experiment.key}, variation ${tabBar.experiment.variation}` : 'none'],
    ];
    const summary = tabBar.customization;
    if (summary) {
      const list = (values) => (values && values.length ? values.join(', ') : 'none');
      const replaced = Object.entries(summary.replaced || {}).map(([from, to]) => `${from} → ${to}`);
      const source = summary.source === 'user' ? "the user's saved order" : 'default order';
      rows.push(
        ['Customization', `${source} (revision ${summary.revision})`],
        ['Hidden', list(summary.hidden)],
        ['Added', list(summary.added)],
        ['Dropped', list(summary.dropped)],
        ['Replaced', list(replaced)],
      );
    }
    const absent = (last.tabs || []).filter((tab) => tab.present === false);
    const why = (tab) => (tab.reason?.message ? `${tab.id} (${tab.reason.message})` : tab.id);
    if (absent.length) rows.push(['Absent here', absent.map(why).join('; ')]);
    const dl = make('dl');
    for (const [term, value] of rows) dl.append(make('dt', '', term), make('dd', '', value));
    meta.replaceChildren(dl);
  }

  /** The locale choices: the document's default locale first, then its translations. */
  function setLocales(locales) {
    const current = controls.locale.value;
    const options = controls.locale.options;
    if (locales.length === options.length && locales.every((tag, i) => options[i].value === tag)) return;
    controls.locale.replaceChildren(...locales.map((tag) => {
      const option = make('option', '', tag);
      option.value = tag;
      return option;
    }));
    controls.locale.value = locales.includes(current) ? current : locales[0];
  }

  /** Empties the frame (no client selected). */
  function reset() {
    cancel();
    last = null;
    picked = null;
    bar.replaceChildren();
    moreList.replaceChildren();
    moreList.hidden = true;
    content.replaceChildren();
    screenTitle.textContent = '';
    meta.replaceChildren();
    message.textContent = '';
    markParameters([]);
    root.dataset.version = '';
  }

  return { schedule, cancel, setLocales, reset };
}
