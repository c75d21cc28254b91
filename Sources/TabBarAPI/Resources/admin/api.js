// The admin API: every call carries the admin key; problem+json answers become ApiError.

const KEY_STORAGE = 'tabconfig.adminKey';

export function storedKey() {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function storeKey(key) {
  sessionStorage.setItem(KEY_STORAGE, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_STORAGE);
}

/** A failed call: `status` is the HTTP status (0 when the server could not be reached), `problem` the body. */
export class ApiError extends Error {
  constructor(status, problem, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }
}

/** The path of a client's resource, each segment percent-encoded. */
export function clientPath(client, ...rest) {
  return ['/v1/clients', client, ...rest].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/');
}

/**
 * Calls the API and answers `{status, data, etag}`.
 * options: query (object; empty values are left out), body (JSON-encoded), headers, signal, key.
 */
export async function request(method, path, options = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query || {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = { Accept: 'application/json', ...(options.headers || {}) };
  const key = options.key ?? storedKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  const init = { method, headers, signal: options.signal, cache: 'no-store' };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }

  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, null, 'The server cannot be reached.');
  }
  const data = await readBody(response);
  if (!response.ok) {
    const problem = data && typeof data === 'object' ? data : null;
    const message = problem?.detail || problem?.title || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, problem, message);
  }
  return { status: response.status, data, etag: response.headers.get('ETag') };
}

async function readBody(response) {
  const type = response.headers.get('Content-Type') || '';
  if (!type.includes('json')) return null;
  try {
    return await response.json();
  } catch {
    return null;
  }
}
