// The form editor: one row per top-level tab, then the tab bar's own settings. Every field carries
// `data-pointer`, its JSON pointer in the document; an edit changes the document in place and calls onEdit.
// Children, groups, experiments and tab templates have no fields: form edits leave them as they are.

import { canonical, formatPointer, getAt, isObject, setAt } from './document.js';
import { glyphNames } from './icons.js';

const DESTINATION_FIELDS = {
  viewController: ['name', 'nib', 'embedInNavigationController'],
  storyboard: ['name', 'identifier'],
  url: ['url'],
};
const DESTINATION_MEMBERS = ['name', 'nib', 'embedInNavigationController', 'identifier', 'url'];
const KEEP = Symbol('keep');

let uid = 0;
const nextId = (prefix) => `${prefix}-${(uid += 1)}`;

function make(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (name === 'className') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('data-') || name.startsWith('aria-') || name === 'role' || name === 'list') {
      node.setAttribute(name, value);
    } else node[name] = value;
  }
  node.append(...children);
  return node;
}

function datalist(id, values) {
  const list = make('datalist', { id });
  for (const value of values) list.append(make('option', { value }));
  return list;
}

/** How a control's value becomes a document value (undefined = leave the member out). */
const readers = {
  required: (el) => el.value,
  text: (el) => (el.value === '' ? undefined : el.value),
  number: (el) => (el.value === '' ? undefined : Number(el.value)),
};

function shownValue(value) {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function jsonText(value) {
  if (value === undefined || value === null) return '';
  const compact = JSON.stringify(value);
  return compact.length <= 60 ? compact : JSON.stringify(value, null, 2);
}

/**
 * elements: tabList (ol#tab-list), addTab (button#add-tab), configFields (fieldset).
 * getDoc() gives the edited document; onEdit({structural, focus}) is called after each change of it
 * (structural: the form must be drawn again, then `focus` names the pointer or control to focus).
 */
export function createForm({ tabList, addTab, configFields, getDoc, onEdit }) {
  document.body.append(
    datalist('glyph-names', glyphNames),
    datalist('hash-attributes', ['userId', 'deviceId']),
    make('datalist', { id: 'tab-ids' }),
  );
  let initialTabSelect = null;
  let dragFrom = null;

  // --- fields ---------------------------------------------------------------------------------------------

  function commit(pointer, value, after) {
    const doc = getDoc();
    const before = getAt(doc, pointer);
    if (canonical(before) === canonical(value)) return;
    setAt(doc, pointer, value);
    after?.(before, value);
    onEdit({ structural: false });
  }

  function bind(control, pointer, read, after) {
    const handler = () => {
      const value = read(control);
      if (value !== KEEP) commit(pointer, value, after);
    };
    control.addEventListener('input', handler);
    control.addEventListener('change', handler);
  }

  function labelled(id, label, control) {
    return make('div', { className: 'field' }, [make('label', { htmlFor: id, text: label }), control]);
  }

  /** A labelled input; options: type, read (a reader), after(before, value), list, placeholder, attributes. */
  function input(label, pointer, options = {}) {
    const id = nextId('field');
    const control = make('input', {
      id,
      type: options.type || 'text',
      'data-pointer': pointer,
      value: shownValue(getAt(getDoc(), pointer)),
      autocomplete: 'off',
      spellcheck: false,
      ...(options.list ? { list: options.list } : {}),
      ...(options.placeholder ? { placeholder: options.placeholder } : {}),
      ...(options.attributes || {}),
    });
    bind(control, pointer, options.read || readers.text, options.after);
    return { wrapper: labelled(id, label, control), control };
  }

  /** A checkbox for a boolean member whose absence means `defaultValue`. */
  function checkbox(label, pointer, defaultValue) {
    const id = nextId('field');
    const value = getAt(getDoc(), pointer);
    const control = make('input', {
      id,
      type: 'checkbox',
      'data-pointer': pointer,
      checked: typeof value === 'boolean' ? value : defaultValue,
    });
    bind(control, pointer, (el) => (el.checked === defaultValue ? undefined : el.checked));
    return make('div', { className: 'check' }, [control, make('label', { htmlFor: id, text: label })]);
  }

  /** A select; choices are [value, text] pairs, '' meaning "leave the member out". */
  function select(label, pointer, choices, options = {}) {
    const id = nextId('field');
    const current = shownValue(getAt(getDoc(), pointer));
    const control = make('select', { id, 'data-pointer': pointer });
    const known = choices.some(([value]) => value === current);
    for (const [value, text] of known ? choices : [...choices, [current, `${current} (unknown)`]]) {
      control.append(make('option', { value, text, selected: value === current }));
    }
    if (options.onChange) control.addEventListener('change', () => options.onChange(control.value));
    else bind(control, pointer, readers.text);
    return { wrapper: labelled(id, label, control), control };
  }

  /** A JSON textarea for a condition; text that does not parse stays out of the document. */
  /** A member edited as JSON text (a condition, a rollout's stages), with its syntax error beside it. */
  function jsonField(label, pointer, placeholder) {
    const id = nextId('field');
    const errorId = nextId('syntax');
    const text = jsonText(getAt(getDoc(), pointer));
    const control = make('textarea', {
      id,
      rows: Math.min(10, Math.max(2, text.split('\n').length)),
      spellcheck: false,
      'data-pointer': pointer,
      value: text,
      placeholder,
    });
    const error = make('p', { id: errorId, className: 'field-error' });
    bind(control, pointer, (el) => {
      if (el.value.trim() === '') return setSyntaxError(el, error, '');
      try {
        const value = JSON.parse(el.value);
        setSyntaxError(el, error, '');
        return value;
      } catch (err) {
        setSyntaxError(el, error, `Not JSON: ${err.message}`);
        return KEEP;
      }
    });
    return make('div', { className: 'field wide' }, [make('label', { htmlFor: id, text: label }), control, error]);
  }

  function setSyntaxError(control, error, message) {
    error.textContent = message;
    if (message) {
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-errormessage', error.id);
    } else {
      control.removeAttribute('aria-invalid');
      control.removeAttribute('aria-errormessage');
    }
    return undefined;
  }

  /** A colour as text (#RRGGBB or #RRGGBBAA) with a picker beside it. */
  function colorField(label, pointer) {
    const { wrapper, control } = input(label, pointer, { placeholder: '#0A84FF' });
    const pickerId = nextId('picker');
    const picker = make('input', { id: pickerId, type: 'color', className: 'picker' });
    const syncPicker = () => {
      if (/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(control.value)) {
        picker.value = control.value.slice(0, 7).toLowerCase();
      }
    };
    syncPicker();
    control.addEventListener('input', syncPicker);
    picker.addEventListener('input', () => {
      control.value = picker.value.toUpperCase();
      control.dispatchEvent(new Event('input'));
    });
    wrapper.classList.add('color-field');
    control.before(picker);
    const text = `Pick the ${label.toLowerCase()}`;
    wrapper.append(make('label', { htmlFor: pickerId, className: 'visually-hidden', text }));
    return wrapper;
  }

  function group(legend, children, className = '') {
    return make('fieldset', { className: `group ${className}` }, [make('legend', { text: legend }), ...children]);
  }

  // --- tab rows ---------------------------------------------------------------------------------------------

  function tabRow(tab, index, count) {
    const base = `/tabs/${index}`;
    const valid = isObject(tab);
    const id = valid && typeof tab.id === 'string' ? tab.id : '';
    const row = make('li', { className: 'tab-row', 'data-tab-id': id, tabIndex: 0 });
    const heading = make('span', { className: 'row-title' });
    const handle = make('span', { className: 'drag-handle', title: 'Drag to reorder', 'aria-hidden': 'true' });
    handle.textContent = '⠿';
    const button = (className, text, label, disabled, action) => {
      const b = make('button', { type: 'button', className: `secondary small ${className}`, text, disabled });
      b.setAttribute('aria-label', label);
      b.addEventListener('click', action);
      return b;
    };
    const name = id || `tab ${index + 1}`;
    row.append(
      make('div', { className: 'row-head' }, [
        handle,
        heading,
        button('move-up', '↑', `Move ${name} up`, index === 0, () => moveTab(index, index - 1, 'move-up')),
        button('move-down', '↓', `Move ${name} down`, index === count - 1, () =>
          moveTab(index, index + 1, 'move-down')),
        button('remove-tab', 'Remove', `Remove ${name}`, false, () => removeTab(index)),
      ]),
      make('div', { className: 'row-problems' }),
    );
    row.setAttribute('aria-label', `Tab ${name}, ${index + 1} of ${count}. Alt+Up and Alt+Down move it.`);
    updateRowHeading(row, tab);
    bindReordering(row, handle, index);

    if (!valid) {
      row.append(make('p', { className: 'muted', text: 'This entry is not an object: edit it in the JSON view.' }));
      return row;
    }

    // The initial tab follows its tab's renaming (an empty id while typing leaves it be).
    const isInitial = id !== '' && getDoc().initialTab === id;
    const idField = input('Id', `${base}/id`, {
      read: readers.required,
      after: (before, value) => {
        const doc = getDoc();
        if (isInitial && value) doc.initialTab = value;
        row.dataset.tabId = value;
        updateRowHeading(row, doc.tabs[index]);
        refreshTabIds();
      },
    });
    const titleField = input('Title', `${base}/title/default`, {
      read: readers.required,
      after: () => updateRowHeading(row, getDoc().tabs[index]),
    });
    row.append(
      make('div', { className: 'row-body' }, [
        group('Tab', [
          idField.wrapper,
          titleField.wrapper,
          input('Title key', `${base}/title/key`).wrapper,
          ...localizedTitles(tab, base),
        ], 'wide'),
        group('Icon', [
          input('Image', `${base}/icon/image`, { list: 'glyph-names' }).wrapper,
          input('Selected image', `${base}/icon/selectedImage`, { list: 'glyph-names' }).wrapper,
        ]),
        destinationGroup(tab, base),
        group('Behaviour', [
          input('Badge', `${base}/badge`).wrapper,
          make('div', { className: 'checks' }, [
            checkbox('Enabled', `${base}/enabled`, true),
            checkbox('Locked', `${base}/locked`, false),
            checkbox('Hideable', `${base}/hideable`, false),
          ]),
          select('Deprecated', `${base}/deprecated`, [['', 'no'], ['soft', 'soft'], ['hard', 'hard']]).wrapper,
          input('Replaces', `${base}/replaces`, { list: 'tab-ids' }).wrapper,
        ]),
        group('Targeting', [
          jsonField('When (condition, JSON)', `${base}/when`, '{"platform": {"$in": ["ios"]}}'),
          input('Rollout coverage', `${base}/rollout/coverage`, {
            type: 'number',
            read: readers.number,
            attributes: { min: 0, max: 1, step: 0.01 },
          }).wrapper,
          jsonField(
            'Rollout stages (instead of a coverage; JSON)',
            `${base}/rollout/stages`,
            '[{"coverage": 0.01, "hold": "PT1H"}, {"coverage": 0.1, "hold": "PT6H"}, {"coverage": 1}]',
          ),
          input('Guard: max failure rate', `${base}/rollout/guard/maxFailureRate`, {
            type: 'number',
            read: readers.number,
            attributes: { min: 0, max: 1, step: 0.001 },
            placeholder: '0.02',
          }).wrapper,
          input('Guard: min opens', `${base}/rollout/guard/minOpens`, {
            type: 'number',
            read: readers.number,
            attributes: { min: 1, step: 1 },
            placeholder: '500',
          }).wrapper,
          input('Rollout seed', `${base}/rollout/seed`).wrapper,
          input('Hash attribute', `${base}/rollout/hashAttribute`, {
            list: 'hash-attributes',
            placeholder: 'userId',
          }).wrapper,
          input('Starts at', `${base}/startsAt`, { placeholder: '2026-12-01T00:00:00Z' }).wrapper,
          input('Ends at', `${base}/endsAt`, { placeholder: '2027-01-06T00:00:00Z' }).wrapper,
        ], 'wide'),
      ]),
    );
    const jsonOnly = [];
    if (Array.isArray(tab.children) && tab.children.length) jsonOnly.push(`${tab.children.length} child tab(s)`);
    if (isObject(tab.destination?.parameters)) jsonOnly.push('destination parameters');
    if (jsonOnly.length) row.append(jsonOnlyNote(jsonOnly));
    return row;
  }

  function jsonOnlyNote(names) {
    return make('p', { className: 'muted json-only', text: `In the JSON view: ${names.join(', ')}.` });
  }

  function updateRowHeading(row, tab) {
    const heading = row.querySelector('.row-title');
    const title = isObject(tab) && isObject(tab.title) ? shownValue(tab.title.default) : '';
    const id = isObject(tab) ? shownValue(tab.id) : '';
    heading.replaceChildren(
      make('strong', { text: title || '(no title)' }),
      ' ',
      make('code', { text: id || '(no id)' }),
    );
  }

  function localizedTitles(tab, base) {
    const localized = isObject(tab.title) && isObject(tab.title.localized) ? tab.title.localized : {};
    const rows = Object.keys(localized).map((tag) => {
      const pointer = `${base}/title/localized${formatPointer([tag])}`;
      const { wrapper, control } = input(`Title (${tag})`, pointer);
      const remove = make('button', { type: 'button', className: 'secondary small remove-locale', text: 'Remove' });
      remove.setAttribute('aria-label', `Remove the ${tag} title`);
      remove.addEventListener('click', () => {
        setAt(getDoc(), pointer, undefined);
        onEdit({ structural: true, focus: { pointer: `${base}/title/default` } });
      });
      control.after(remove);
      wrapper.classList.add('locale-field');
      return wrapper;
    });
    const tagId = nextId('locale');
    const tagInput = make('input', {
      id: tagId,
      type: 'text',
      className: 'new-locale',
      placeholder: 'fr, de-CH',
      spellcheck: false,
      autocomplete: 'off',
    });
    const add = make('button', { type: 'button', className: 'secondary small add-locale', text: 'Add' });
    const addLocale = () => {
      const tag = tagInput.value.trim();
      if (!tag || Object.hasOwn(localized, tag)) return;
      const defaultTitle = isObject(tab.title) ? tab.title.default : undefined;
      const fallback = typeof defaultTitle === 'string' && defaultTitle ? defaultTitle : tag;
      const pointer = `${base}/title/localized${formatPointer([tag])}`;
      setAt(getDoc(), pointer, fallback);
      onEdit({ structural: true, focus: { pointer } });
    };
    add.addEventListener('click', addLocale);
    tagInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        addLocale();
      }
    });
    rows.push(make('div', { className: 'field add-locale-field' }, [
      make('label', { htmlFor: tagId, text: 'Add a translated title (locale)' }),
      make('div', { className: 'inline' }, [tagInput, add]),
    ]));
    return rows;
  }

  function destinationGroup(tab, base) {
    const pointer = `${base}/destination`;
    const destination = isObject(tab.destination) ? tab.destination : {};
    const type = typeof destination.type === 'string' ? destination.type : '';
    const typeChoices = [['viewController', 'view controller'], ['storyboard', 'storyboard'], ['url', 'URL']];
    if (!type) typeChoices.unshift(['', '(choose)']);
    const typeSelect = select('Type', `${pointer}/type`, typeChoices, {
      onChange: (value) => {
        const doc = getDoc();
        setAt(doc, `${pointer}/type`, value || undefined);
        const allowed = DESTINATION_FIELDS[value] || [];
        for (const member of DESTINATION_MEMBERS) {
          if (!allowed.includes(member)) setAt(doc, `${pointer}/${member}`, undefined);
        }
        onEdit({ structural: true, focus: { pointer: `${pointer}/type` } });
      },
    });
    const fields = [typeSelect.wrapper];
    for (const member of DESTINATION_FIELDS[type] || []) {
      if (member === 'embedInNavigationController') {
        fields.push(checkbox('Embed in a navigation controller', `${pointer}/${member}`, false));
      } else {
        const labels = {
          name: type === 'storyboard' ? 'Storyboard name' : 'Class name',
          nib: 'Nib',
          identifier: 'Identifier',
          url: 'URL',
        };
        const options = member === 'url' ? { placeholder: 'https://' } : {};
        fields.push(input(labels[member], `${pointer}/${member}`, options).wrapper);
      }
    }
    return group('Destination', fields);
  }

  // --- reordering -------------------------------------------------------------------------------------------

  function bindReordering(row, handle, index) {
    row.addEventListener('keydown', (event) => {
      if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
      event.preventDefault();
      moveTab(index, event.key === 'ArrowUp' ? index - 1 : index + 1, focusedPart(row));
    });
    handle.addEventListener('pointerdown', () => {
      row.draggable = true;
    });
    handle.addEventListener('pointerup', () => {
      row.draggable = false;
    });
    row.addEventListener('dragstart', (event) => {
      dragFrom = index;
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', String(index));
      row.classList.add('dragging');
    });
    row.addEventListener('dragend', () => {
      dragFrom = null;
      row.draggable = false;
      clearDropMarks();
    });
    row.addEventListener('dragover', (event) => {
      if (dragFrom === null) return;
      event.preventDefault();
      clearDropMarks();
      row.classList.add(dropAfter(row, event) ? 'drop-after' : 'drop-before');
    });
    row.addEventListener('drop', (event) => {
      if (dragFrom === null) return;
      event.preventDefault();
      let to = dropAfter(row, event) ? index + 1 : index;
      if (dragFrom < to) to -= 1;
      const from = dragFrom;
      dragFrom = null;
      clearDropMarks();
      moveTab(from, to, 'row');
    });
  }

  function dropAfter(row, event) {
    const box = row.getBoundingClientRect();
    return event.clientY > box.top + box.height / 2;
  }

  function clearDropMarks() {
    for (const el of tabList.querySelectorAll('.drop-before, .drop-after, .dragging')) {
      el.classList.remove('drop-before', 'drop-after', 'dragging');
    }
  }

  /** What to focus in a row once it has moved: the same field or button, else the row itself. */
  function focusedPart(row) {
    const active = document.activeElement;
    if (!row.contains(active) || active === row) return 'row';
    if (active.dataset.pointer) return { suffix: active.dataset.pointer.replace(/^\/tabs\/\d+/, '') };
    const cls = ['move-up', 'move-down'].find((name) => active.classList.contains(name));
    return cls || 'row';
  }

  function moveTab(from, to, focus) {
    const tabs = getDoc().tabs;
    if (to < 0 || to >= tabs.length || from === to) return;
    const [tab] = tabs.splice(from, 1);
    tabs.splice(to, 0, tab);
    onEdit({ structural: true, focus: { row: to, part: focus } });
  }

  function removeTab(index) {
    const doc = getDoc();
    const [removed] = doc.tabs.splice(index, 1);
    if (isObject(removed) && removed.id !== undefined && doc.initialTab === removed.id) delete doc.initialTab;
    const next = Math.min(index, doc.tabs.length - 1);
    onEdit({ structural: true, focus: next >= 0 ? { row: next, part: 'remove-tab' } : { element: addTab } });
  }

  addTab.addEventListener('click', () => {
    const doc = getDoc();
    if (!Array.isArray(doc.tabs)) doc.tabs = [];
    const ids = new Set(doc.tabs.map((tab) => tab?.id));
    let n = doc.tabs.length + 1;
    while (ids.has(`tab${n}`)) n += 1;
    doc.tabs.push({
      id: `tab${n}`,
      title: { default: `Tab ${n}` },
      icon: { image: 'star' },
      destination: { type: 'viewController', name: `Tab${n}ViewController`, embedInNavigationController: true },
    });
    onEdit({ structural: true, focus: { pointer: `/tabs/${doc.tabs.length - 1}/id`, select: true } });
  });

  // --- the tab bar's settings ----------------------------------------------------------------------------------

  function configGroup(doc) {
    const initial = select('Initial tab', '/initialTab', [['', '(the first tab)']]);
    initialTabSelect = initial.control;
    const jsonOnly = ['groups', 'experiments', 'tabTemplates'].filter((name) => doc[name] != null);
    return [
      make('legend', { text: 'Tab bar' }),
      make('div', { className: 'config-grid' }, [
        input('Most visible tabs', '/maxVisibleTabs', {
          type: 'number',
          read: readers.number,
          attributes: { min: 2, max: 10, step: 1 },
        }).wrapper,
        initial.wrapper,
        input('Default locale', '/defaultLocale', { placeholder: 'en' }).wrapper,
        make('div', { className: 'checks' }, [checkbox('Users may reorder', '/userCustomizable', true)]),
      ]),
      group('Appearance', [
        colorField('Tint colour', '/appearance/tintColor'),
        colorField('Selected tint colour', '/appearance/selectedTintColor'),
        colorField('Unselected tint colour', '/appearance/unselectedTintColor'),
        input('Background image', '/appearance/backgroundImage').wrapper,
      ], 'appearance'),
      ...(jsonOnly.length ? [jsonOnlyNote(jsonOnly)] : []),
    ];
  }

  /** The initial tab's choices and the "replaces" suggestions follow the tab ids. */
  function refreshTabIds() {
    const doc = getDoc();
    const ids = (Array.isArray(doc.tabs) ? doc.tabs : [])
      .map((tab) => (isObject(tab) && typeof tab.id === 'string' ? tab.id : ''))
      .filter(Boolean);
    document.getElementById('tab-ids').replaceChildren(...ids.map((value) => make('option', { value })));
    if (!initialTabSelect) return;
    const current = shownValue(doc.initialTab);
    const choices = [['', '(the first tab)'], ...[...new Set(ids)].map((id) => [id, id])];
    if (current && !ids.includes(current)) choices.push([current, `${current} (no such tab)`]);
    initialTabSelect.replaceChildren(
      ...choices.map(([value, text]) => make('option', { value, text, selected: value === current })),
    );
  }

  // --- drawing ------------------------------------------------------------------------------------------------

  /** Draws the whole form for the document, then focuses what `focus` names. */
  function render(focus) {
    const doc = getDoc();
    const tabs = Array.isArray(doc.tabs) ? doc.tabs : [];
    tabList.replaceChildren(...tabs.map((tab, index) => tabRow(tab, index, tabs.length)));
    configFields.replaceChildren(...configGroup(doc));
    refreshTabIds();
    if (focus) applyFocus(focus);
  }

  function applyFocus(focus) {
    let target = null;
    if (focus.element) target = focus.element;
    else if (focus.pointer) target = document.querySelector(`[data-pointer="${CSS.escape(focus.pointer)}"]`);
    else if (focus.row !== undefined) {
      const row = tabList.children[focus.row];
      const part = focus.part;
      if (part && part.suffix !== undefined) {
        target = row?.querySelector(`[data-pointer="${CSS.escape(`/tabs/${focus.row}${part.suffix}`)}"]`);
      }
      else if (typeof part === 'string' && part !== 'row') target = row?.querySelector(`button.${part}:not(:disabled)`);
      target = target || row;
    }
    if (!target) return;
    target.focus();
    if (focus.select && target.select) target.select();
  }

  return { render };
}
