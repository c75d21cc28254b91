// The server's problems beside the fields they point at; the rest in the #problems list.

import { parentPointer } from './document.js';

let counter = 0;

/**
 * scope: the element holding the form (fields carry data-pointer; tab rows are ol#tab-list's items);
 * list: the #problems element.
 */
export function createProblems({ scope, tabList, list }) {
  let marked = new Set(); // the fields marked invalid

  function clear() {
    scope.querySelectorAll('.problem[data-problem-for]').forEach((el) => el.remove());
    for (const field of marked) {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
    marked = new Set();
    list.replaceChildren();
  }

  /** The field (or tab row) a pointer names, else its nearest ancestor's; null when none has one. */
  function target(pointer) {
    for (let p = pointer; p !== null; p = parentPointer(p)) {
      if (p === '') return null;
      const field = scope.querySelector(`[data-pointer="${CSS.escape(p)}"]`);
      if (field) return { pointer: p, field };
      const row = /^\/tabs\/(\d+)$/.exec(p);
      if (row && tabList.children[Number(row[1])]) return { pointer: p, row: tabList.children[Number(row[1])] };
    }
    return null;
  }

  function place(found, message) {
    const note = document.createElement('p');
    note.className = 'problem';
    note.id = `problem-${(counter += 1)}`;
    note.dataset.problemFor = found.pointer;
    note.textContent = message;
    if (found.field) {
      let last = found.field;
      const sibling = `.problem[data-problem-for="${CSS.escape(found.pointer)}"]`;
      while (last.nextElementSibling?.matches(sibling)) last = last.nextElementSibling;
      last.after(note);
      found.field.setAttribute('aria-invalid', 'true');
      marked.add(found.field);
      const described = found.field.getAttribute('aria-describedby');
      found.field.setAttribute('aria-describedby', described ? `${described} ${note.id}` : note.id);
    } else {
      found.row.querySelector('.row-problems').append(note);
    }
  }

  function listItem(text) {
    const item = document.createElement('li');
    item.textContent = text;
    return item;
  }

  /**
   * Shows a problem document: `errors` with pointers beside their fields, with parameters and without a field in
   * the list, and the `detail` there when nothing more precise is given.
   */
  function show(problem) {
    clear();
    const errors = Array.isArray(problem?.errors) ? problem.errors : [];
    const unplaced = [];
    let placed = 0;
    for (const error of errors) {
      const message = String(error?.message ?? '');
      if (typeof error?.pointer === 'string') {
        const found = target(error.pointer);
        if (found) {
          // Placed at an ancestor: the message says where below it.
          const below = error.pointer.slice(found.pointer.length + 1);
          place(found, below ? `${below}: ${message}` : message);
          placed += 1;
          continue;
        }
        unplaced.push(error.pointer ? `${error.pointer}: ${message}` : message);
      } else if (typeof error?.parameter === 'string') {
        unplaced.push(`${error.parameter}: ${message}`);
      } else {
        unplaced.push(message);
      }
    }
    if (errors.length === 0) unplaced.push(problem?.detail || problem?.title || 'The server refused the document.');
    const heading = document.createElement('p');
    heading.className = 'problems-heading';
    const total = placed + unplaced.length;
    const beside = placed ? `${placed === total ? '' : `${placed} of them `}shown beside the form's fields` : '';
    const count = `${total} problem${total === 1 ? '' : 's'}`;
    heading.textContent = `${count}${beside ? `, ${beside}` : ''}${unplaced.length ? ':' : '.'}`;
    const items = document.createElement('ul');
    items.append(...unplaced.map(listItem));
    list.append(heading);
    if (unplaced.length) list.append(items);
  }

  return { show, clear };
}
