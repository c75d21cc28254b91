// The raw JSON view: shows the document; text that parses to an object replaces it, other text is reported.

import { isObject } from './document.js';

/** onValid(doc) gets each object typed; onInvalid() is told when the text stops parsing. */
export function createJsonEditor({ textarea, error, onValid, onInvalid }) {
  let valid = true;

  function report(message) {
    valid = message === '';
    error.textContent = message;
    if (valid) textarea.removeAttribute('aria-invalid');
    else textarea.setAttribute('aria-invalid', 'true');
  }

  textarea.addEventListener('input', () => {
    let value;
    try {
      value = JSON.parse(textarea.value);
    } catch (err) {
      report(`JSON syntax error: ${err.message}`);
      onInvalid();
      return;
    }
    if (!isObject(value)) {
      report('The document must be a JSON object ({ … }).');
      onInvalid();
      return;
    }
    report('');
    onValid(value);
  });

  return {
    /** Shows `doc`, replacing whatever was typed. */
    show(doc) {
      textarea.value = JSON.stringify(doc, null, 2);
      report('');
    },
    get valid() {
      return valid;
    },
  };
}
